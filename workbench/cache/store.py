"""Entries on disk: atomic writes, authenticated reads, a size bound (oldest evicted first).

An entry is one file named by its key: a magic line, the payload, then an
HMAC-SHA256 of the key and the payload under this user's own secret (a
trailer, so a payload can be streamed to disk without being held in memory
twice).  The secret lives 0600 in the user's state directory
(``$XDG_STATE_HOME/workbench/cache-key``), never in the cache, so whoever can
write the cache (a shared ``XDG_CACHE_HOME``, a CI cache restored from another
branch) can neither forge an entry nor move one under another key: such an
entry, a damaged or foreign one, reads as absent and is computed again.
Analyses are pickles, and nothing is unpickled before its tag is checked.
A cache directory another user could write, or a secret another user could
read or replace, turns the cache off with one line on stderr.
Writers go through a temporary file and ``os.replace``, so concurrent
processes see either the whole entry or none.  Reading an entry touches its
mtime, so eviction drops the least recently used.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

MAGIC = b"workbench-cache/2\n"
DIGEST_SIZE = 32
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
"""The bound on the cache's total size unless WORKBENCH_CACHE_MAX_MB says otherwise."""
_SUFFIX = ".entry"
_TEMP = ".tmp-"
_STALE_TEMP_SECONDS = 3600
_SECRET_BYTES = 32
_PRIVATE_DIR = 0o700


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/workbench``, else ``~/.cache/workbench`` (the XDG base-directory rule)."""
    return _xdg("XDG_CACHE_HOME", ".cache") / "workbench"


def key_file() -> Path:
    """Where this user's cache secret lives: ``$XDG_STATE_HOME/workbench/cache-key`` (``~/.local/state/...``)."""
    return _xdg("XDG_STATE_HOME", ".local/state") / "workbench" / "cache-key"


def _xdg(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable)
    return Path(value) if value and Path(value).is_absolute() else Path.home() / fallback


def default_max_bytes() -> int:
    """The size bound: ``WORKBENCH_CACHE_MAX_MB`` megabytes when set to a number, else 512 MB."""
    value = os.environ.get("WORKBENCH_CACHE_MAX_MB", "")
    try:
        return max(0, int(value)) * 1024 * 1024 if value.strip() else DEFAULT_MAX_BYTES
    except ValueError:
        return DEFAULT_MAX_BYTES


class DiskCache:
    """Key -> bytes in one directory, bounded to ``max_bytes`` in total, believed only under this user's secret."""

    def __init__(self, root: Path, max_bytes: int | None = None) -> None:
        self.root = root
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self._secret: bytes | None = None

    def path(self, key: str) -> Path:
        return self.root / f"{key}{_SUFFIX}"

    def get(self, key: str) -> memoryview | None:
        """The payload stored under ``key`` (a view, not a copy), or None (absent, unreadable, damaged or forged)."""
        path = self.path(key)
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        if len(raw) < len(MAGIC) + DIGEST_SIZE or not raw.startswith(MAGIC):
            return None
        secret = self._trusted()
        if secret is None:
            return None
        payload = memoryview(raw)[len(MAGIC) : len(raw) - DIGEST_SIZE]
        tag = _tag(secret, key)
        tag.update(payload)
        if not hmac.compare_digest(tag.digest(), raw[len(raw) - DIGEST_SIZE :]):
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return payload

    def put(self, key: str, payload: bytes) -> bool:
        """Store ``payload`` atomically, then evict down to the bound; False when it could not be written."""
        return self.put_with(key, lambda out: out.write(payload))

    def put_with(self, key: str, write: Callable[[BinaryIO], object], *, evict: bool = True) -> bool:
        """Store what ``write(stream)`` writes, without holding it in memory; False when not stored.

        Nothing is stored when the entry would exceed the bound by itself
        (``write`` is stopped as soon as it does), cannot be written, or the
        cache is not this user's alone.  ``evict``: False when the caller
        stores many entries and calls ``evict()`` once after them.
        """
        try:
            _make_private(self.root)
        except OSError:
            return False
        secret = self._trusted()
        if secret is None:
            return False
        try:
            import tempfile  # only a write needs it: a warm run reads

            fd, tmp = tempfile.mkstemp(prefix=_TEMP, dir=self.root)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as out:
                stream = _Tagged(out, self.max_bytes - len(MAGIC) - DIGEST_SIZE, _tag(secret, key))
                out.write(MAGIC)
                write(stream)  # type: ignore[arg-type]
                out.write(stream.tag.digest())
            os.replace(tmp, self.path(key))
        except (OSError, _Oversize):
            _remove(Path(tmp))
            return False
        except BaseException:
            _remove(Path(tmp))
            raise
        if evict:
            self.evict(keep=key)
        return True

    def holds(self, key: str) -> bool:
        """Whether an entry is stored under ``key`` and the cache is this user's alone (its tag is checked on
        ``get``)."""
        return self.path(key).is_file() and self._trusted() is not None

    def _trusted(self) -> bytes | None:
        """This user's secret when the cache directory and the secret are this user's alone, else None (said once)."""
        if self._secret is None:
            problem = _unsafe_dir(self.root, own=True)
            secret = None
            if problem is None:
                secret, problem = _load_secret(self.root)
            if problem is not None:
                _say_once(f"not using the analysis cache: {problem}")
                return None
            self._secret = secret
        return self._secret

    def evict(self, keep: str | None = None) -> None:
        """Remove the least recently used entries until the total fits ``max_bytes``.

        A temporary file a killed writer left behind goes once it is an hour old.
        """
        entries = []
        now = time.time()
        for path in self._files():
            try:
                stat_ = path.stat()
            except OSError:
                continue
            if path.name.startswith(_TEMP):
                if now - stat_.st_mtime > _STALE_TEMP_SECONDS:
                    _remove(path)
            elif path.name.endswith(_SUFFIX):
                entries.append((stat_.st_mtime, path.name, stat_.st_size, path))
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


def _tag(secret: bytes, key: str) -> hmac.HMAC:
    """The HMAC an entry under ``key`` carries: the key is signed too, so no entry passes for another's."""
    return hmac.new(secret, MAGIC + key.encode("utf-8", "surrogateescape") + b"\0", hashlib.sha256)


class _Oversize(Exception):
    """The entry alone would exceed the cache's bound."""


class _Tagged:
    """A write-only stream that signs what passes and stops at a size limit."""

    def __init__(self, out: BinaryIO, limit: int, tag: hmac.HMAC) -> None:
        self._out = out
        self._left = limit
        self.tag = tag

    def write(self, data: bytes) -> int:
        self._left -= len(data)
        if self._left < 0:
            raise _Oversize
        self.tag.update(data)
        return self._out.write(data)


def _unsafe_dir(folder: Path, *, own: bool) -> str | None:
    """Why ``folder`` (and each existing directory above it) is not this user's alone, or None.

    Each must belong to this user or root, and no other user may write it:
    no group or world write bit, except on a sticky directory above (``/tmp``:
    nobody else can rename what is in it) or a group of the user's own name
    (a private group).  ``own``: ``folder`` itself must be this user's.
    """
    uid = os.geteuid()
    real = Path(os.path.realpath(folder))
    for where in (real, *real.parents):
        try:
            info = os.stat(where)
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"{where} cannot be checked ({exc.strerror or exc})"
        if where == real and own and info.st_uid != uid:
            return f"{where} belongs to another user"
        if info.st_uid not in (uid, 0):
            return f"{where} belongs to another user"
        if info.st_mode & stat.S_IWOTH and (where == real or not info.st_mode & stat.S_ISVTX):
            return f"{where} is writable by other users (chmod o-w {where})"
        if info.st_mode & stat.S_IWGRP and not _own_group(info.st_gid) and (where == real or not info.st_mode & stat.S_ISVTX):
            return f"{where} is writable by other users of its group (chmod g-w {where})"
    return None


def _own_group(gid: int) -> bool:
    """Whether ``gid`` is this user's private group (named as the user, with no other member)."""
    try:
        import grp
        import pwd

        group = grp.getgrgid(gid)
        return group.gr_name == pwd.getpwuid(os.geteuid()).pw_name and set(group.gr_mem) <= {group.gr_name}
    except (ImportError, KeyError):
        return False


def _load_secret(root: Path) -> tuple[bytes | None, str | None]:
    """(this user's secret, None), made on first use, or (None, why it cannot be trusted)."""
    path = key_file()
    cache = os.path.realpath(root)
    if os.path.realpath(path.parent).startswith(cache.rstrip(os.sep) + os.sep) or os.path.realpath(path.parent) == cache:
        return None, f"its key {path} would be inside the cache (set XDG_STATE_HOME elsewhere)"
    for attempt in range(2):
        problem = _unsafe_dir(path.parent, own=True)
        if problem is not None:
            return None, f"the key's directory: {problem}"
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            problem = _make_secret(path) if attempt == 0 else f"cannot make its key {path}"
            if problem is not None:
                return None, problem
            continue
        except OSError as exc:
            return None, f"cannot read its key {path}: {_why(exc)}"
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
                return None, f"its key {path} must be a file of yours only you can read (chmod 600 {path})"
            secret = os.read(fd, _SECRET_BYTES + 1)
        except OSError as exc:
            return None, f"cannot read its key {path}: {_why(exc)}"
        finally:
            os.close(fd)
        if len(secret) != _SECRET_BYTES:
            return None, f"its key {path} is damaged (remove it: a new one is made)"
        return secret, None
    return None, f"cannot make its key {path}"


def _make_secret(path: Path) -> str | None:
    """Write a new secret 0600 under a temporary name, then link it into place (a racing process's wins);
    None, or why it could not be made."""
    temp = path.with_name(f"{_TEMP}{os.getpid()}-{path.name}")
    try:
        _make_private(path.parent)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, os.urandom(_SECRET_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
    except OSError as exc:
        return f"cannot make its key {path}: {_why(exc)}"
    finally:
        _remove(temp)
    return None


def _make_private(folder: Path) -> None:
    """Create ``folder`` and any missing directory above it, each new one readable by this user alone."""
    missing: list[Path] = []
    for where in (folder, *folder.parents):
        if where.exists():
            break
        missing.append(where)
    for where in reversed(missing):
        try:
            where.mkdir(mode=_PRIVATE_DIR)
        except FileExistsError:
            pass


def _why(exc: OSError) -> str:
    import errno

    return "it is a symlink" if exc.errno == errno.ELOOP else exc.strerror or str(exc)


_said: set[str] = set()


def _say_once(message: str) -> None:
    """One line on stderr, once per process: why the cache is not used (the analysis runs without it)."""
    if message not in _said:
        _said.add(message)
        print(f"workbench: warning: {message}", file=sys.stderr)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
