"""Entries on disk: atomic writes, checked reads, a size bound (oldest evicted first).

An entry is one file named by its key: a magic line, the payload, then the
payload's SHA-256 (a trailer, so a payload can be streamed to disk without
being held in memory twice).  A reader that finds a short, damaged or foreign
file treats it as absent; writers go through a temporary file and
``os.replace``, so concurrent processes see either the whole entry or none.
Reading an entry touches its mtime, so eviction drops the least recently used.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

MAGIC = b"workbench-cache/1\n"
DIGEST_SIZE = 32
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
"""The bound on the cache's total size unless WORKBENCH_CACHE_MAX_MB says otherwise."""
_SUFFIX = ".entry"
_TEMP = ".tmp-"
_STALE_TEMP_SECONDS = 3600


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

    def get(self, key: str) -> memoryview | None:
        """The payload stored under ``key`` (a view, not a copy), or None (absent, unreadable or damaged)."""
        path = self.path(key)
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        if len(raw) < len(MAGIC) + DIGEST_SIZE or not raw.startswith(MAGIC):
            return None
        payload = memoryview(raw)[len(MAGIC) : len(raw) - DIGEST_SIZE]
        if hashlib.sha256(payload).digest() != raw[len(raw) - DIGEST_SIZE :]:
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return payload

    def put(self, key: str, payload: bytes) -> bool:
        """Store ``payload`` atomically, then evict down to the bound; False when it could not be written."""
        return self.put_with(key, lambda out: out.write(payload))

    def put_with(self, key: str, write: Callable[[BinaryIO], object]) -> bool:
        """Store what ``write(stream)`` writes, without holding it in memory; False when not stored.

        Nothing is stored when the entry would exceed the bound by itself
        (``write`` is stopped as soon as it does) or cannot be written.
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            import tempfile  # only a write needs it: a warm run reads

            fd, tmp = tempfile.mkstemp(prefix=_TEMP, dir=self.root)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as out:
                stream = _Checked(out, self.max_bytes - len(MAGIC) - DIGEST_SIZE)
                out.write(MAGIC)
                write(stream)  # type: ignore[arg-type]
                out.write(stream.digest.digest())
            os.replace(tmp, self.path(key))
        except (OSError, _Oversize):
            _remove(Path(tmp))
            return False
        except BaseException:
            _remove(Path(tmp))
            raise
        self.evict(keep=key)
        return True

    def evict(self, keep: str | None = None) -> None:
        """Remove the least recently used entries until the total fits ``max_bytes``.

        A temporary file a killed writer left behind goes once it is an hour old.
        """
        entries = []
        now = time.time()
        for path in self._files():
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.name.startswith(_TEMP):
                if now - stat.st_mtime > _STALE_TEMP_SECONDS:
                    _remove(path)
            elif path.name.endswith(_SUFFIX):
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

    def _files(self) -> list[Path]:
        try:
            return list(self.root.iterdir())
        except OSError:
            return []


class _Oversize(Exception):
    """The entry alone would exceed the cache's bound."""


class _Checked:
    """A write-only stream that hashes what passes and stops at a size limit."""

    def __init__(self, out: BinaryIO, limit: int) -> None:
        self._out = out
        self._left = limit
        self.digest = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self._left -= len(data)
        if self._left < 0:
            raise _Oversize
        self.digest.update(data)
        return self._out.write(data)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
