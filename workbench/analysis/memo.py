"""Reuse of single units of the analysis (a file's engine work, a stage's finding on one file) by their inputs.

A unit's answer is a pure function of what it reads.  Its fingerprint is
a digest of all of that: the ``scope`` (the sync's commits, histories,
conflicts, policy and settings: everything the analysis reads except the
result's conflicted files, ``scope_of``), the stage's name and the unit's
own inputs (its file's result, its engine facts).  A unit whose
fingerprint is in the memo is not computed again; any other is computed
and recorded.  So a decision that writes one file re-analyses that file,
and every other unit's answer is the one computing it would give.  The
memo itself is plain data: the cache (``workbench/cache/memo.py``) keeps
it between processes, under a key that holds the tool's version and source.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from workbench.analysis.forked import Runner
from workbench.git.types import SyncSnapshot

T = TypeVar("T")
S = TypeVar("S")

Fingerprint = bytes
"""A SHA-256 digest of everything a unit reads."""


def digest(*parts: object) -> Fingerprint:
    """A digest of ``parts`` by their pickles (equal pickles are equal values; unequal ones only miss)."""
    hasher = hashlib.sha256()
    for part in parts:
        data = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.digest()


def scope_of(snapshot: SyncSnapshot, policy: object, inputs: Mapping[str, object]) -> Fingerprint:
    """What every unit of one analysis reads besides its own file's result: the snapshot without the
    conflicted files' results, the loaded policy and the caller's ``inputs`` (git's version, settings and
    environment, the options)."""
    paths = sorted(snapshot.paths) if snapshot.paths is not None else None  # a set's order is the process's
    return digest("scope", replace(snapshot, results={}, paths=None), paths, policy, sorted(inputs.items()))


Fetch = Callable[[Fingerprint], tuple[bool, object]]
"""Reads an earlier analysis' answer by its fingerprint: (found, answer)."""


class UnitMemo:
    """Fingerprint -> answer: what the units of earlier analyses found (``fetch``), and what this one adds.

    ``scope`` is the fingerprint every unit of this analysis starts from
    (``scope_of``): a unit's fingerprint holds it.
    """

    def __init__(self, scope: Fingerprint, fetch: Fetch | None = None) -> None:
        self.scope = scope
        self._fetch = fetch
        self.added: dict[Fingerprint, object] = {}
        """The answers this analysis computed, by fingerprint (to be stored)."""
        self._parts: dict[int, tuple[object, Fingerprint]] = {}

    def unit(self, stage: str, *inputs: object) -> Fingerprint:
        """The fingerprint of a unit of ``stage`` that reads ``inputs`` besides the scope."""
        return digest(self.scope, stage, *(self.part(part) for part in inputs))

    def part(self, part: object) -> Fingerprint:
        """``digest(part)``, once per object of this analysis (several stages read the same file's facts);
        the object is held, so its id is never another's."""
        held = self._parts.get(id(part))
        if held is None or held[0] is not part:
            held = self._parts[id(part)] = (part, digest(part))
        return held[1]

    def known(self, part: object, token: Fingerprint) -> None:
        """Take ``token`` as ``part``'s digest: a value some unit's fingerprint determines (a file's engine
        facts are its engine unit's), named without pickling it again."""
        self._parts[id(part)] = (part, token)

    def get(self, fingerprint: Fingerprint) -> tuple[bool, object]:
        if fingerprint in self.added:
            return True, self.added[fingerprint]
        return self._fetch(fingerprint) if self._fetch is not None else (False, None)

    def put(self, fingerprint: Fingerprint, answer: object) -> None:
        self.added[fingerprint] = answer


def run_memoized(
    runner: Runner,
    count: int,
    compute: Callable[[int], T],
    fingerprints: Sequence[Fingerprint | None],
    memo: UnitMemo | None,
    *,
    cost: Callable[[int], int] | None = None,
    groups: Sequence[int] = (),
    child_state: Callable[[], S] | None = None,
    progress: Callable[[int], None] | None = None,
    valid: Callable[[int, T], bool] | None = None,
) -> tuple[list[T], S | None]:
    """``runner.run(count, compute, ...)``, each index whose fingerprint the memo holds answered from it (when
    ``valid(index, answer)`` holds: what it recorded reading is read the same now) and the others computed (by
    ``runner``) and recorded.  A None fingerprint is never looked up nor recorded."""
    if memo is None:
        return runner.run(count, compute, cost=cost, groups=groups, child_state=child_state, progress=progress)
    answers: dict[int, T] = {}
    for k, fingerprint in enumerate(fingerprints):
        if fingerprint is not None:
            hit, answer = memo.get(fingerprint)
            if hit and (valid is None or valid(k, answer)):  # type: ignore[arg-type]
                answers[k] = answer  # type: ignore[assignment]  # recorded from ``compute``'s answer for it
    missing = [k for k in range(count) if k not in answers]
    sizes, start = [], 0
    for size in groups:
        sizes.append(sum(1 for k in missing if start <= k < start + size))
        start += size
    computed, state = runner.run(
        len(missing), lambda n: compute(missing[n]),
        cost=(lambda n: cost(missing[n])) if cost is not None else None, groups=sizes,
        child_state=child_state,
        progress=(lambda done: progress(count - len(missing) + done)) if progress is not None else None,
    )
    for k, answer in zip(missing, computed, strict=True):
        answers[k] = answer
        fingerprint = fingerprints[k]
        if fingerprint is not None:
            memo.put(fingerprint, answer)
    if progress is not None and not missing:
        progress(count)
    return [answers[k] for k in range(count)], state
