"""Work done in a forked child process while the parent does other work, the answer sent back pickled.

Why fork, not a process pool: the work reads the whole analysis and the
repository readers (a pool would pickle them to each worker); a forked
child inherits them as they are, and only its answer (plain frozen data)
crosses back.  Forking is only safe and worth it in a process that runs
one thread (a thread holding a lock at the fork would leave the child
stuck: the app's loader runs in a thread, so the app always stays serial),
on a machine with a second core, and for work large enough to pay for the
fork.  Anywhere else, and whenever the child fails for any reason, the
caller computes the answer itself: the answer never depends on the path taken.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

JOBS_VARIABLE = "WORKBENCH_JOBS"
"""Set to 1 to keep the analysis in one process (e.g. to compare timings)."""


def can_fork() -> bool:
    """Whether a child may run beside this process now: fork exists, one thread runs, two cores are ours."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    if os.environ.get(JOBS_VARIABLE, "").strip() == "1":
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores >= 2


class Forked(Generic[T]):
    """A forked child computing ``work()``; ``result()`` is its answer, or None when it gave none."""

    def __init__(self, work: Callable[[], T]) -> None:
        for stream in (sys.stdout, sys.stderr):  # the child must not write the parent's buffered output again
            stream.flush()
        read, write = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # pragma: no cover - the child's coverage is not collected
            os.close(read)
            _child(work, write)
        os.close(write)
        self._read: int | None = read

    def result(self) -> T | None:
        """The child's answer (waits for it); None when it failed, was killed or sent nothing readable."""
        if self._read is None:
            return None
        with os.fdopen(self._read, "rb") as source:
            self._read = None
            payload = source.read()
        _, status = os.waitpid(self._pid, 0)
        if not payload or os.waitstatus_to_exitcode(status) != 0:
            return None
        try:
            return pickle.loads(payload)  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001 - an unreadable answer is no answer: the caller computes it
            return None

    def cancel(self) -> None:
        """Stop the child and reap it (the parent failed and no longer wants the answer)."""
        if self._read is None:
            return
        os.close(self._read)
        self._read = None
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self._pid, 0)


def _child(work: Callable[[], T], write: int) -> None:  # pragma: no cover - runs in the child
    """Compute, send, and leave without running the parent's exit handlers or finalizers."""
    code = 1
    try:
        payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as sink:
            sink.write(payload)
        code = 0
    except BaseException:  # noqa: BLE001, S110 - the parent computes the answer itself (and reports any error)
        pass
    finally:
        os._exit(code)
