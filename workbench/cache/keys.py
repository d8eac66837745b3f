"""Cache keys: a digest of everything an analysis is a function of.

The caller names the inputs (commit ids, policy, options, git's version and
settings); this module adds the tool's version, a digest of the workbench
package's own files and the versions of Python and the libraries that read
for it, so any code change (a new release, a local edit, another branch
checked out, an upgraded pygit2) misses instead of returning a stale analysis.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path

import workbench

_PACKAGE = Path(workbench.__file__).resolve().parent
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


@functools.cache
def source_digest(root: Path = _PACKAGE) -> str:
    """SHA-256 over the package's files (relative path and bytes, in a fixed order).

    ``os.walk`` and plain reads: a few milliseconds, where pathlib's rglob
    takes ten times as long on every warm run.
    """
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        relative = os.path.relpath(folder, root).replace(os.sep, "/")
        for name in sorted(files):
            if name.endswith(_SKIPPED_SUFFIXES):
                continue
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read()
            digest.update(f"{relative}/{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
            digest.update(data)
    return digest.hexdigest()


@functools.cache
def tool_version() -> str:
    """The installed distribution's version, read from its METADATA on ``sys.path``.

    The same answer as ``importlib.metadata.version`` without importing it
    (a tenth of a second, most of a warm run).
    """
    for entry in sys.path:
        try:
            found = sorted(Path(entry or ".").glob("workbench-*.dist-info/METADATA"))
        except OSError:
            continue
        for metadata in found:
            try:
                with metadata.open(encoding="utf-8") as lines:
                    for line in lines:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip()
                        if not line.strip():
                            break
            except OSError:
                continue
    return "0+unknown"


_RUNTIME = frozenset({"pygit2", "tree_sitter", "tree_sitter_python", "pyflakes", "rich", "pygments", "black", "isort"})
"""Libraries whose version can change an analysis or a document: libgit2's reads, the Python grammar, rendering,
and the formatters the suggestions lay main's text out with (optional: a key holds them when installed)."""


@functools.cache
def runtime_versions() -> tuple[str, ...]:
    """Python's version and the installed versions of ``_RUNTIME``, from their ``dist-info`` directory names.

    Names only, nothing imported or read (importing pygit2 alone costs more
    than a warm run).
    """
    found = {f"python-{sys.version}"}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.partition("-")[0].lower() in _RUNTIME:
                found.add(name.removesuffix(".dist-info"))
    return tuple(sorted(found))


def cache_key(kind: str, inputs: dict[str, object]) -> str:
    """A hex key for ``kind`` (e.g. "analysis") of ``inputs`` (JSON-able), the tool's version, source and runtime."""
    document = {"kind": kind, "version": tool_version(), "source": source_digest(), "runtime": runtime_versions(),
                "inputs": inputs}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
