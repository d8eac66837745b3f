"""Cache keys: a digest of everything an analysis is a function of.

The caller names the inputs (commit ids, policy, options, git's version and
settings); this module adds the tool's version and a digest of the workbench
package's own files, so any code change (a new release, a local edit, another
branch checked out) misses instead of returning a stale analysis.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import workbench

_PACKAGE = Path(workbench.__file__).resolve().parent
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


@functools.cache
def source_digest(root: Path = _PACKAGE) -> str:
    """SHA-256 over the package's files (relative path and bytes, in path order)."""
    digest = hashlib.sha256()
    files = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not _SKIPPED_DIRS & set(p.relative_to(root).parts) and not p.name.endswith(_SKIPPED_SUFFIXES)
    )
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("workbench")
    except PackageNotFoundError:
        return "0+unknown"


def cache_key(kind: str, inputs: dict[str, object]) -> str:
    """A hex key for ``kind`` (e.g. "analysis") of ``inputs`` (JSON-able), the tool's version and source."""
    document = {"kind": kind, "version": tool_version(), "source": source_digest(), "inputs": inputs}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
