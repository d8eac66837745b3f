"""The private object directory that keeps reading commands out of ``.git``.

Commands such as ``git merge-tree --write-tree`` store the objects they
compute.  Pointed at a temporary directory (``GIT_OBJECT_DIRECTORY``) with the
repository's objects as an alternate, they leave ``.git`` as it was, with
two traps this module closes:

- git *freshens* an object it would write but already has (``utime`` on the
  loose file or on its pack), in the alternates too; commands that only write
  get no alternates, and ``merge-tree`` (which must read) puts the times back;
- the directory holds copies of the repository's blobs, so it is private
  (0700), removed at exit and on every signal a terminal sends, and a later
  run removes the ones whose process died (its id is in the name).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

PREFIX = "workbench-objects-"
_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name)
)
"""Signals whose default action ends the process (SIGINT raises KeyboardInterrupt, and exit cleans up)."""

_live: set[Path] = set()
_lock = threading.RLock()
"""Reentrant: a finalizer (``_remove``) can run from garbage collection inside a locked section of the same thread."""
_swept = False


class Quarantine:
    """One private object directory, alive as long as this object (or until a signal)."""

    def __init__(self, objects: Sequence[Path]) -> None:
        """``objects``: the repository's object directories (its own first, then its alternates)."""
        _install_handlers()
        _sweep_stale()
        self.path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
        self.objects = tuple(objects)
        self._keepers = 0
        self._kept: dict[str, tuple[int, int]] = {}
        with _lock:
            _live.add(self.path)
        weakref.finalize(self, _remove, self.path)

    def read_env(self) -> dict[str, str]:
        """For commands that read the repository's objects (and may write new ones here)."""
        return {
            "GIT_OBJECT_DIRECTORY": str(self.path),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": os.pathsep.join(quote_alternate(str(p)) for p in self.objects),
        }

    def write_env(self) -> dict[str, str]:
        """For commands that only write objects (``hash-object -w``, ``mktree --missing``).

        Without alternates git cannot see, and so never freshens, the
        repository's objects; everything it stores lands here.
        """
        return {"GIT_OBJECT_DIRECTORY": str(self.path), "GIT_ALTERNATE_OBJECT_DIRECTORIES": ""}

    @contextmanager
    def times_kept(self) -> Iterator[None]:
        """Put back the times of the repository's object files that git freshened meanwhile.

        Nested or overlapping uses (merge-tree and a ``git add`` running at
        once) share the times read by the first, and the last to end puts
        them back: a second reading could take a time git had just freshened
        for the true one, and put that back at the end.
        """
        with _lock:
            if self._keepers == 0:
                self._kept = _object_times(self.objects)
            self._keepers += 1
        try:
            yield
        finally:
            with _lock:
                self._keepers -= 1
                before = self._kept if self._keepers == 0 else None
            if before is not None:
                _put_back(before, _object_times(self.objects))


def _put_back(before: dict[str, tuple[int, int]], now: dict[str, tuple[int, int]]) -> None:
    for path, (_atime, mtime) in now.items():
        old = before.get(path)
        if old is not None and old[1] != mtime:
            try:
                os.utime(path, ns=old)
            except OSError:
                pass


def quote_alternate(path: str) -> str:
    """``path`` as one entry of ``GIT_ALTERNATE_OBJECT_DIRECTORIES``.

    Entries are separated by ``:``; one that starts with a double quote is
    read C-style (git's ``unquote_c_style``), so any path survives quoting.
    """
    out = ['"']
    for char in path:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def unquote_alternate(line: str) -> str:
    """A line of ``objects/info/alternates`` (quoted C-style when it starts with ``"``)."""
    if not (line.startswith('"') and line.endswith('"') and len(line) >= 2):
        return line
    raw = os.fsencode(line[1:-1])
    out = bytearray()
    simple = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11}
    i = 0
    while i < len(raw):
        byte = raw[i]
        if byte != ord("\\") or i + 1 == len(raw):
            out.append(byte)
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif re.fullmatch(rb"[0-7]{3}", raw[i + 1 : i + 4]):
            out.append(int(raw[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(nxt)
            i += 2
    return os.fsdecode(bytes(out))


def _object_times(dirs: Sequence[Path]) -> dict[str, tuple[int, int]]:
    """(atime, mtime) in ns of every loose object and pack git could freshen."""
    times: dict[str, tuple[int, int]] = {}
    for base in dirs:
        try:
            subdirs = [e for e in os.scandir(base) if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for sub in subdirs:
            if not (len(sub.name) == 2 or sub.name == "pack"):
                continue
            try:
                for entry in os.scandir(sub.path):
                    stat = entry.stat(follow_symlinks=False)
                    times[entry.path] = (stat.st_atime_ns, stat.st_mtime_ns)
            except OSError:
                continue
    return times


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    with _lock:
        _live.discard(path)


def _on_signal(signum: int, _frame: object) -> None:
    """Remove every live quarantine, then die of the signal as if no handler were set."""
    with _lock:
        paths = list(_live)
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_handlers() -> None:
    """Clean up on SIGTERM/SIGHUP/SIGQUIT where their action is still the default.

    Only the main thread may set handlers (the module is imported there
    first); a signal someone ignores (``nohup``) or handles is left alone.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in _SIGNALS:
        try:
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _on_signal)
        except (OSError, ValueError):
            continue


def _sweep_stale() -> None:
    """Remove this user's quarantines left by processes that no longer run (SIGKILL, a crash)."""
    global _swept
    with _lock:
        if _swept:
            return
        _swept = True
    root = tempfile.gettempdir()
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(PREFIX):
            continue
        # Named PREFIX + pid + "-" + random; older versions' names have no "-" and no pid.
        pid_text, separator, _ = entry.name[len(PREFIX):].partition("-")
        if not separator:
            continue
        try:
            stat = entry.stat(follow_symlinks=False)
            pid = int(pid_text)
        except (OSError, ValueError):
            continue
        if not entry.is_dir(follow_symlinks=False) or stat.st_uid != os.getuid() or _alive(pid):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


_install_handlers()
