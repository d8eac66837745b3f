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

import array
import fcntl
import os
import pickle
import signal
import sys
import termios
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
S = TypeVar("S")

FORK_MIN_FILES = 16
"""Conflicted files (or a wave's units) from which work is shared with a forked child (below, the fork costs
more than it saves)."""
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


def worth_forking(count: int) -> bool:
    """Whether ``count`` files' work should be shared with a forked child: enough of them, and ``can_fork()``."""
    return count >= FORK_MIN_FILES and can_fork()


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
        answer: T | None = None
        with os.fdopen(self._read, "rb") as source:
            self._read = None
            try:  # read as it streams in: a large answer is never held twice, as bytes and as objects
                answer = pickle.load(source)
            except Exception:  # noqa: BLE001 - an unreadable answer is no answer: the caller computes it
                answer = None
        _, status = os.waitpid(self._pid, 0)
        return answer if os.waitstatus_to_exitcode(status) == 0 else None

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
        answer = work()
        with os.fdopen(write, "wb") as sink:
            pickle.dump(answer, sink, protocol=pickle.HIGHEST_PROTOCOL)
        code = 0
    except BaseException:  # noqa: BLE001, S110 - the parent computes the answer itself (and reports any error)
        pass
    finally:
        os._exit(code)


_RECORD = 4
_MAX_RECORDS = 8192
"""Records fit a pipe's buffer (64 KB on Linux) whole, so filling it never blocks."""


class Claims:
    """Indexes ``0..count-1`` shared out between this process and its forked children, first come first served.

    A pipe made before the fork holds one fixed-size record per run of
    indexes; whichever process reads a record owns those indexes (a read of
    one whole record from a pipe is never split between readers).  A
    process that finishes its other work early takes more of the rest.
    """

    def __init__(self, count: int) -> None:
        self._step = max(1, -(-count // _MAX_RECORDS))
        self._count = count
        self._read, write = os.pipe()
        os.set_blocking(self._read, False)
        starts = range(0, count, self._step)
        self._records = len(starts)
        records = b"".join(start.to_bytes(_RECORD, "little") for start in starts)
        os.write(write, records)
        os.close(write)

    def take(self) -> Iterator[int]:
        """The indexes this process claims, until none is left (each index goes to one process only)."""
        while True:
            try:
                record = os.read(self._read, _RECORD)
            except BlockingIOError:
                return
            if len(record) < _RECORD:
                return
            start = int.from_bytes(record, "little")
            yield from range(start, min(start + self._step, self._count))

    def claimed(self) -> int:
        """How many indexes some process has claimed so far (for progress: a claimed index may still be in work)."""
        waiting = array.array("i", [0])
        fcntl.ioctl(self._read, termios.FIONREAD, waiting)  # the bytes of the records no one has read
        return min(self._count, (self._records - waiting[0] // _RECORD) * self._step)

    def close(self) -> None:
        os.close(self._read)


class Runner:
    """Computes independent answers by index, in this process or shared with a forked child.

    The one way the analysis uses a second core: the engine's files and each
    wave of stages hand it their computations.  Forked, the processes claim
    indexes first come first served (``shared_out``), so the faster one does
    more; the child's answers come back pickled.  Whatever the child does not
    answer, this process computes: the answers never depend on the path taken.
    """

    def __init__(self, fork: bool) -> None:
        self.fork = fork
        """Whether to share work with a forked child (``worth_forking`` at the start of the analysis)."""

    @classmethod
    def for_files(cls, count: int) -> Runner:
        """Forked when ``count`` files' work pays for a child and one may run now (``worth_forking``)."""
        return cls(worth_forking(count))

    def run(
        self,
        count: int,
        compute: Callable[[int], T],
        *,
        cost: Callable[[int], int] | None = None,
        groups: Sequence[int] = (),
        child_state: Callable[[], S] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[list[T], S | None]:
        """``[compute(k) for k in range(count)]``, and ``child_state()`` as a forked child left it.

        ``cost``: a guess at an index's work (asked only when forking), so the
        largest are claimed first.  ``groups``: the sizes of consecutive runs
        of indexes that share caches (a stage's units): the child claims them
        in order and this process from the last, so each mostly keeps to its
        own.  ``child_state``: what the child's work filled that this process
        should learn (a cache), None when no child answered.  ``progress``
        hears how many indexes are claimed or done, lastly ``count``.
        """
        if not self.fork or count < max(2, FORK_MIN_FILES):
            answers = []
            for k in range(count):
                answers.append(compute(k))
                if progress is not None:
                    progress(k + 1)
            return answers, None
        pools, start = [], 0
        for size in [*groups, count - sum(groups)]:
            pool = range(start, start + size)
            pools.append(sorted(pool, key=lambda k: -cost(k)) if cost is not None else pool)
            start += size
        answers, state = shared_out(count, compute, child_state or (lambda: None), progress, [p for p in pools if p])
        if progress is not None:
            progress(count)
        return answers, state


def shared_out(
    count: int,
    compute: Callable[[int], T],
    child_state: Callable[[], S],
    progress: Callable[[int], None] | None = None,
    pools: Sequence[Sequence[int]] | None = None,
) -> tuple[list[T], S | None]:
    """``[compute(k) for k in range(count)]``, the indexes shared out between this process and a forked child.

    Each process claims runs of indexes until none is left (``Claims``), so
    the faster one does more; the child's answers come back pickled with
    ``child_state()`` as the child left it (e.g. a cache its work filled, for
    the parent to reuse; None when the child gave no answer).  Whatever the
    child did not answer, this process computes: the list never depends on
    the path taken.  ``progress`` hears, after each index this process
    computes, how many both have claimed.  ``pools``: every index once, each
    pool in the order to claim it (largest first balances the two processes
    best); the child takes the pools in order, this process from the last.
    Call it only where ``worth_forking(count)`` holds.
    """
    shared = [(pool, Claims(len(pool))) for pool in (pools if pools is not None else [range(count)])]
    try:
        child = Forked(lambda: ({pool[n]: compute(pool[n]) for pool, claims in shared for n in claims.take()}, child_state()))
        try:
            mine: dict[int, T] = {}
            for pool, claims in reversed(shared):
                for n in claims.take():
                    mine[pool[n]] = compute(pool[n])
                    if progress is not None:
                        progress(sum(other.claimed() for _, other in shared))
        except BaseException:
            child.cancel()
            raise
        answer = child.result()
    finally:
        for _, claims in shared:
            claims.close()
    theirs, state = answer if answer is not None else ({}, None)
    return gathered(count, mine, theirs, compute), state


def gathered(count: int, mine: dict[int, T], theirs: dict[int, T], compute: Callable[[int], T]) -> list[T]:
    """Answers ``0..count-1`` in order: this process's, else the child's, else computed now (the child gave none)."""
    return [mine[k] if k in mine else theirs[k] if k in theirs else compute(k) for k in range(count)]
