"""Reading a configuration file the user names or keeps: regular files only, of bounded size.

Every file the tool reads as settings (a policy, a theme, the app's
settings, training progress, an answers file) goes through
:func:`read_config`.  ``--policy /dev/zero`` used to read until memory ran
out and a FIFO blocked forever; now both are one-line errors.  A missing
file stays ``FileNotFoundError``: what it means (defaults, an unknown
preset) is the caller's business.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from workbench.errors import WorkbenchError

MAX_CONFIG_BYTES = 8 * 1024 * 1024
"""Far above any real settings file (a 16,000-rule policy is about 600 KB), far below harm."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def read_config(path: Path | str, what: str, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of the ``what`` file at ``path`` (symlinks followed), or a one-line ``WorkbenchError``.

    Raises ``FileNotFoundError`` when there is no such file.
    """
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise WorkbenchError(f"{path}: cannot read {what}: {_reason(exc)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
            raise WorkbenchError(f"{path}: cannot read {what}: {kind}, not a regular file")
        if info.st_size > limit:
            raise WorkbenchError(f"{path}: cannot read {what}: {_size(info.st_size)}, over the {_size(limit)} limit")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise WorkbenchError(f"{path}: cannot read {what}: over the {_size(limit)} limit")
        return b"".join(chunks)
    except OSError as exc:
        raise WorkbenchError(f"{path}: cannot read {what}: {_reason(exc)}") from None
    finally:
        os.close(fd)


def read_config_text(path: Path | str, what: str) -> str:
    """:func:`read_config` decoded as UTF-8 (the encoding TOML and JSON settings use)."""
    data = read_config(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkbenchError(f"{path}: cannot read {what}: not UTF-8 (byte {exc.start + 1})") from None


def _reason(exc: OSError) -> str:
    if exc.errno == errno.EISDIR:
        return "a directory, not a regular file"
    return exc.strerror or type(exc).__name__


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n} bytes"
