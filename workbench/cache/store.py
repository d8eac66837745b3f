"""Entries on disk: atomic writes, checked reads, a size bound (oldest evicted first).

An entry is one file named by its key: a magic line, the SHA-256 of the
payload, then the payload.  A reader that finds a short, damaged or foreign
file treats it as absent; writers go through a temporary file and
``os.replace``, so concurrent processes see either the whole entry or none.
Reading an entry touches its mtime, so eviction drops the least recently used.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

MAGIC = b"workbench-cache/1\n"
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
"""The bound on the cache's total size unless WORKBENCH_CACHE_MAX_MB says otherwise."""
_SUFFIX = ".entry"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/workbench``, else ``~/.cache/workbench`` (the XDG base-directory rule)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "workbench"


def default_max_bytes() -> int:
    """The size bound: ``WORKBENCH_CACHE_MAX_MB`` megabytes when set to a number, else 512 MB."""
    value = os.environ.get("WORKBENCH_CACHE_MAX_MB", "")
    try:
        return max(0, int(value)) * 1024 * 1024 if value.strip() else DEFAULT_MAX_BYTES
    except ValueError:
        return DEFAULT_MAX_BYTES


class DiskCache:
    """Key -> bytes in one directory, bounded to ``max_bytes`` in total."""

    def __init__(self, root: Path, max_bytes: int | None = None) -> None:
        self.root = root
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes

    def path(self, key: str) -> Path:
        return self.root / f"{key}{_SUFFIX}"

    def get(self, key: str) -> bytes | None:
        """The payload stored under ``key``, or None (absent, unreadable or damaged)."""
        path = self.path(key)
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        head = len(MAGIC) + 32
        if len(raw) < head or not raw.startswith(MAGIC):
            return None
        payload = raw[head:]
        if hashlib.sha256(payload).digest() != raw[len(MAGIC) : head]:
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return payload

    def put(self, key: str, payload: bytes) -> bool:
        """Store ``payload`` atomically, then evict down to the bound; False when it could not be written."""
        if len(payload) + len(MAGIC) + 32 > self.max_bytes:
            return False
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.root)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, self.path(key))
        except OSError:
            _remove(Path(tmp))
            return False
        self.evict(keep=key)
        return True

    def evict(self, keep: str | None = None) -> None:
        """Remove the least recently used entries until the total fits ``max_bytes``."""
        entries = []
        for path in self._entries():
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime, path.name, stat.st_size, path))
        total = sum(size for _, _, size, _ in entries)
        kept = f"{keep}{_SUFFIX}" if keep is not None else None
        for _, name, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            if name == kept:
                continue
            _remove(path)
            total -= size

    def _entries(self) -> list[Path]:
        try:
            return [p for p in self.root.iterdir() if p.name.endswith(_SUFFIX)]
        except OSError:
            return []


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
