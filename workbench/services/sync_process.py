"""The app's analysis in a forked process, started before the app runs any thread.

The app analyses its sync in a thread, so the screen stays live meanwhile;
but a process that runs threads must not fork, so that analysis could never
share its work with a second process (``analysis/forked.py``) and took
about half as long again as ``workbench analyze``.  And in one process the
analysis and Textual's start take turns on one core (Python runs one thread
at a time).  So ``launch`` (and ``workbench mergetool``) call
``start_analysis_process`` first, while the process still runs one thread:
the child computes the analysis (free to fork in turn), sends each progress
report and then the analysis back pickled through a pipe, and the app's
loading thread reads them as they come.  Whenever the child gives no answer
(it crashed, was killed, sent something unreadable), the loading thread
computes the analysis itself: the answer never depends on the path taken.
The child stores the analysis in the cache only after sending it (storing
pickles it again and reads the sync's identity once more: time the app
no longer waits for), in a grandchild it leaves behind: the child exits at
once, so the app reaps it without waiting and runs no thread for it (a
thread would stop the process from forking again), and an app that quits
meanwhile leaves the store to finish.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

from workbench.analysis.forked import can_fork
from workbench.errors import WorkbenchError
from workbench.services.sync import Later, LoadProgress, Lookup, SyncRequest, look_up, open_sync

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo

Progress = Callable[[LoadProgress], None] | None
Opener = Callable[[SyncRequest, Progress], "tuple[GitRepo, SyncAnalysis]"]
"""Opens and analyses a sync, like ``open_sync``."""
Compute = Callable[[Progress], "SyncAnalysis"]
"""Computes an analysis, reporting progress; a ``WorkbenchError`` is bad input."""

_PROGRESS, _ANALYSIS, _ERROR = "progress", "analysis", "error"


BEHIND = 10
"""How much lower the child's CPU priority is when it runs behind the app (``behind``): it then gets about a
tenth of a core the app wants, and every core the app leaves (measured: as good as 19 for the app's start,
and a busy machine starves the analysis less)."""


def start_analysis_process(compute: Compute, *, behind: bool = False, later: Later | None = None) -> AnalysisProcess | None:
    """Start ``compute`` in a forked child now; None where forking is not safe (threads run, one core).

    ``later``: the list ``compute`` puts steps off to (``open_sync``'s): they
    run once the answer is sent, where the app does not wait for them
    (``_detached``).

    ``behind``: the child (and the git it runs) takes the CPU only when the
    app leaves it, for an app that has something to show before the answer
    (``git mergetool``'s first look): on two cores the child and its git
    processes otherwise took turns with the app's start (later on screen,
    the answer itself no later within the noise).
    """
    if not can_fork():
        return None
    for stream in (sys.stdout, sys.stderr):  # the child must not write the parent's buffered output again
        stream.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(read)
        _child(compute, write, behind, later if later is not None else [])
    os.close(write)
    return AnalysisProcess(pid, os.fdopen(read, "rb"))


def start_sync_process(request: SyncRequest) -> SyncOpener:
    """The opener the app loads ``request`` with: its analysis started now in a forked child, unless
    forking is not safe or not worth it (a cached analysis is read in the thread at once: sending it
    through a pipe would only cost time).

    The identity the cache was asked with is handed on, not read again.
    The opener, called with the same request (from any thread), relays the
    child's progress and returns the repository and analysis.
    """
    lookup = look_up(request)
    later: Later = []
    process = None if lookup.cached else start_analysis_process(
        lambda progress: open_sync(request, progress, lookup, later)[1], later=later)
    return SyncOpener(lookup, process)


class SyncOpener:
    """``open_sync`` for one request: answered by its process when one was started, else computed in
    the caller's thread with the identity of its lookup (read again when the process gave no answer)."""

    def __init__(self, lookup: Lookup, process: AnalysisProcess | None) -> None:
        self._lookup, self._process = lookup, process

    @property
    def forked(self) -> bool:
        """Whether a child process computes the analysis."""
        return self._process is not None

    def __call__(self, request: SyncRequest, progress: Progress) -> tuple[GitRepo, SyncAnalysis]:
        if request != self._lookup.request:
            raise ValueError("the sync process was started for another request")
        if self._process is None:
            return open_sync(request, progress, self._lookup)
        analysis = self._process.receive(progress)
        if analysis is not None:
            from workbench.git.repo import GitRepo

            return GitRepo.open(request.repo), analysis
        # No answer after the child's whole run: the repository may have changed meanwhile, and the
        # lookup's key may by now hold what the child stored of the state before. Read it again.
        return open_sync(request, progress)


class AnalysisProcess:
    """The parent's end: reads what the child sends, and reaps it."""

    def __init__(self, pid: int, source: BinaryIO) -> None:
        self._pid, self._source = pid, source
        self._reaped = False
        atexit.register(self._stop)  # the app quit before the analysis came: the child is not left running

    def receive(self, progress: Progress) -> SyncAnalysis | None:
        """The child's analysis, its progress relayed on the way, or None when it gave none (the caller
        computes it); a ``WorkbenchError`` it met is raised here.  Call it once.

        An answer read whole is the answer, whatever the child did after
        sending it (it leaves storing it to a grandchild, ``_detached``).
        """
        answer: SyncAnalysis | None = None
        try:
            with self._source:
                while True:
                    kind, value = pickle.load(self._source)
                    if kind == _PROGRESS and progress is not None:
                        progress(value)
                    elif kind == _ERROR:
                        raise WorkbenchError(value)
                    elif kind == _ANALYSIS:
                        answer = value
                        break
        except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ImportError, IndexError, TypeError,
                ValueError):
            answer = None  # no readable answer: the caller computes it
        finally:
            self._reap()
        return answer

    def _reap(self) -> None:
        with contextlib.suppress(ChildProcessError):  # ``_stop`` at exit reaped it first
            os.waitpid(self._pid, 0)
        self._reaped = True
        atexit.unregister(self._stop)

    def _stop(self) -> None:
        if self._reaped:
            return
        try:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        self._reaped = True


def _child(compute: Compute, write: int, behind: bool, later: Later) -> None:  # pragma: no cover - in the child
    """Analyse, sending progress and the answer, then run the steps ``compute`` put off until after it
    (``later``); leave without the parent's exit handlers or finalizers.

    The terminal belongs to the app: nothing the child or its git commands
    might print (a library's warning, say) may reach it, and nothing may read it.
    """
    code = 1
    try:
        if behind:
            os.nice(BEHIND)
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        with os.fdopen(write, "wb") as sink:

            def send(kind: str, value: object) -> None:
                pickle.dump((kind, value), sink, protocol=pickle.HIGHEST_PROTOCOL)
                sink.flush()

            try:
                analysis = compute(lambda progress: send(_PROGRESS, progress))
            except WorkbenchError as exc:
                send(_ERROR, str(exc))
            else:
                send(_ANALYSIS, analysis)
        code = 0  # the pipe is closed: the parent has its answer, whatever happens to ``later``
        _detached(later)
    except BaseException:  # noqa: BLE001, S110 - the parent computes the answer itself (and reports any error)
        pass
    finally:
        os._exit(code)


DETACHED_SECONDS = 60
"""How long the grandchild that stores an analysis may run (a git command that never returns must not leave
it running for good); a store takes a fraction of a second."""


def _detached(steps: Later) -> None:  # pragma: no cover - runs in the child
    """Run ``steps`` in a grandchild and return at once, so that the parent, which waits for this child's
    exit, does not wait for them; the grandchild is left to init.  It ignores the terminal's hangup (a
    store is short, and a tmux pane or terminal closed right after the app quits would lose it), holds
    none of the app's descriptors (a pipe the app's caller reads to its end would wait for the store),
    and is ended after ``DETACHED_SECONDS``.  Where forking is not safe here (a thread runs), the steps
    run in this process instead."""
    if not steps:
        return
    if threading.active_count() == 1:
        try:
            pid = os.fork()
        except OSError:
            pid = -1
        if pid > 0:
            return
        if pid == 0:
            code = 1
            try:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
                signal.alarm(DETACHED_SECONDS)  # SIGALRM's default action ends the process
                _drop_inherited()
                for step in steps:
                    step()
                code = 0
            except BaseException:  # noqa: BLE001, S110 - a store that fails leaves the cache without the entry
                pass
            finally:
                os._exit(code)
    for step in steps:
        step()


def _drop_inherited() -> None:  # pragma: no cover - runs in the grandchild
    """Point every descriptor above stderr at /dev/null: the app's pipes and files are not the store's.

    ``dup2`` rather than ``close``: a Python object that still owns such a
    number may close it later, which must not close a file the store opened.
    """
    null = os.open(os.devnull, os.O_RDWR)
    for fd in _open_descriptors():
        if fd > 2 and fd != null:
            os.dup2(null, fd)


def _open_descriptors() -> list[int]:  # pragma: no cover - runs in the grandchild
    """This process's open descriptors (Linux's /proc, BSD's and macOS's /dev/fd, else every number, asked)."""
    for listing in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            names = os.listdir(listing)
            return [fd for fd in map(int, names) if _is_open(fd)]  # the listing's own descriptor is closed by now
    return [fd for fd in range(min(os.sysconf("SC_OPEN_MAX"), 65536)) if _is_open(fd)]


def _is_open(fd: int) -> bool:  # pragma: no cover - runs in the grandchild
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True
