"""Claims: why a decision may leave lines lost, in a form checked against the file and history each time it is read.

A decision that keeps a side's lines out of the result says why with a
claim and its evidence (a commit, a place in the result).  Nothing about a
claim is trusted from where it is stored: ``verify`` looks at the lines
still lost after the decision (each side's, every member of the item), the
result, and the commits the evidence names, and answers ``verified``,
``contradicted`` (with the first fact that contradicts it) or, for
``judgement``, ``needs_human``.  The same function runs when an agent
decides and whenever the decision record is read again (the gate, the
queue), so editing the record cannot turn a contradicted claim green.

| claim | verified when |
|---|---|
| ``intentional-removal`` | a cited commit is on the other side (base..side, not a merge, not the sync's own)
  and its diff removes or rewrites the base lines the lost lines replaced |
| ``superseded`` | the kept side already holds the work: it had the lost lines (in order, in one version of
  the file along its history) and moved past them, or each is elsewhere in the result, whitespace-blind, as
  often as in its side's file |
| ``moved`` | the lost lines are at a cited ``PATH:LINE`` of the result |
| ``policy`` | a rule of the active policy decides the file, the rule's side loses nothing, and the file's
  API audit is clean |
| ``restored`` | nothing is lost on either side any more |
| ``judgement`` | never: it stays for a human |

Every claim but ``judgement`` is also contradicted where the take keeps both sides' text (``both``) over a base
line both sides rewrote: nothing is lost there, so each claim about lost lines would hold, but the result holds two
versions of the same work.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Protocol

from workbench.analysis.model import FileAnalysis, Hunk, SyncAnalysis, Whose
from workbench.analysis.risk.line_compare import meaningful, norm, shorten
from workbench.analysis.risk.script_index import holding, replaces_near
from workbench.analysis.xdiff import Script, split_lines
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo


class ClaimKind(str, Enum):
    """The reasons a decision may give (``--claim``)."""

    INTENTIONAL_REMOVAL = "intentional-removal"
    SUPERSEDED = "superseded"
    MOVED = "moved"
    POLICY = "policy"
    RESTORED = "restored"
    JUDGEMENT = "judgement"


class ClaimStatus(str, Enum):
    """What checking a claim found."""

    VERIFIED = "verified"
    CONTRADICTED = "contradicted"
    NEEDS_HUMAN = "needs_human"
    """A judgement: nothing to check, a person decides."""


POLICY_RULES = frozenset({"keep-dev", "override-from-main", "coupled"})
"""Policy rules that decide a file (``note`` only advises)."""
_DROPPED_BY_RULE: dict[str, Whose] = {"keep-dev": "main", "override-from-main": "dev"}
"""The side whose lines a rule leaves out on purpose."""
_COMMIT = re.compile(r"^[0-9a-fA-F]{7,40}$")
_PLACE = re.compile(r"^(?P<path>.+):(?P<line>[1-9][0-9]*)$")


def other(side: Whose) -> Whose:
    return "main" if side == "dev" else "dev"


@dataclass(frozen=True)
class Target:
    """One member of a decided item as the result holds it (or will, once the decision is written).

    ``lost``: each side's lines (0-based, in that side's file) still missing near the hunk;
    ``file_lost``: the side whose whole file the result lacks; ``result``: the file's lines in the result
    (None: no file there)."""

    path: str
    entry: FileAnalysis | None
    hunk: Hunk | None
    lost: dict[Whose, tuple[int, ...]] = field(default_factory=dict)
    file_lost: Whose | None = None
    read: Callable[[], Sequence[bytes] | None] = lambda: None
    """The result's lines of the file, read when a claim needs them (``result``)."""
    keeps_both: bool = False
    """The decision puts both sides' text in the hunk's place, one after the other (``both``)."""

    @cached_property
    def result(self) -> Sequence[bytes] | None:
        return self.read()

    def side_lines(self, side: Whose) -> Sequence[bytes]:
        """The side's file lines (empty without a line merge)."""
        merge = self.entry.merge if self.entry is not None else None
        if merge is None:
            return ()
        return merge.ours if side == "dev" else merge.theirs

    @property
    def losing(self) -> tuple[Whose, ...]:
        return tuple(side for side in ("dev", "main") if self.lost.get(side))

    def where(self) -> str:
        return self.path if self.hunk is None else f"hunk {self.hunk.index + 1} of {self.path}"


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The answer: the status, one sentence saying why, and the evidence as resolved (full commit ids)."""

    status: ClaimStatus
    reason: str
    cited: tuple[str, ...] = ()

    @property
    def contradicted(self) -> bool:
        return self.status is ClaimStatus.CONTRADICTED


class History(Protocol):
    """What checking a claim asks of the repository."""

    def commit(self, rev: str) -> str | None:
        """The full id of the commit ``rev`` names (hex only), or None."""
        ...

    def on_side(self, sha: str, side: Whose) -> bool:
        """Whether the commit is on ``side`` since the merge base (base..side)."""
        ...

    def parents(self, sha: str) -> tuple[str, ...]: ...

    def of_sync(self, sha: str) -> bool:
        """Whether the commit is the sync's own (an earlier sync merge, a sync branch's fix): never intent."""
        ...

    def removed(self, sha: str, path: str) -> tuple[bytes, ...] | None:
        """The lines the commit's diff removes from ``path`` (None: it does not touch the path)."""
        ...

    def deleted(self, sha: str, path: str) -> bool:
        """Whether the commit deletes ``path``."""
        ...

    def result_lines(self, path: str) -> Sequence[bytes] | None:
        """The result's lines of any path (None: no such file)."""
        ...

    def versions(self, target: Target, side: Whose) -> Iterable[Sequence[bytes]]:
        """The file's versions along ``side``'s history since the merge base (each commit that touched it)."""
        ...


class RepoHistory:
    """``History`` read from the repository of an analysed sync; ``result`` gives the result's files."""

    def __init__(self, repo: GitRepo, analysis: SyncAnalysis, result: Callable[[str], bytes | None],
                 sync_commits: frozenset[str] = frozenset()) -> None:
        self._repo = repo
        self._analysis = analysis
        self._result = result
        self._sync = sync_commits
        self._tips: dict[Whose, str] = {"dev": analysis.dev, "main": analysis.main}

    def commit(self, rev: str) -> str | None:
        if not _COMMIT.match(rev):
            return None
        try:
            sha = self._repo.resolve(rev)
        except WorkbenchError:  # an unknown or ambiguous id is simply not a commit
            return None
        return sha if self._repo.object_type(sha) == "commit" else None

    def on_side(self, sha: str, side: Whose) -> bool:
        tip, base = self._tips[side], self._analysis.base
        if self._repo.merge_base(sha, tip) != sha:
            return False
        return base is None or (sha != base and self._repo.merge_base(sha, base) != sha)

    def parents(self, sha: str) -> tuple[str, ...]:
        return self._repo.parents(sha)

    def of_sync(self, sha: str) -> bool:
        return sha in self._sync

    def _blobs(self, sha: str, path: str) -> tuple[str | None, str | None]:
        parents = self._repo.parents(sha)
        before = self._repo.tree_entry(parents[0], path) if parents else None
        after = self._repo.tree_entry(sha, path)
        return (before[0] if before else None), (after[0] if after else None)

    def removed(self, sha: str, path: str) -> tuple[bytes, ...] | None:
        before, after = self._blobs(sha, path)
        if before == after or before is None:
            return None
        old = split_lines(self._repo.read_blob(before))
        if after is None:
            return tuple(old)
        script: Script = self._repo.line_changes(before, after)
        return tuple(line for edit in script for line in old[edit[0] : edit[0] + edit[1]])

    def deleted(self, sha: str, path: str) -> bool:
        before, after = self._blobs(sha, path)
        return before is not None and after is None

    def result_lines(self, path: str) -> Sequence[bytes] | None:
        data = self._result(path)
        return None if data is None else split_lines(data)

    def versions(self, target: Target, side: Whose) -> Iterable[Sequence[bytes]]:
        entry = target.entry
        if entry is None:
            return
        path = _side_path(target, side)
        seen: set[str] = set()
        for commit in entry.history.dev if side == "dev" else entry.history.main:
            found = self._repo.tree_entry(commit.sha, path)
            if found is not None and found[0] not in seen:
                seen.add(found[0])
                yield split_lines(self._repo.read_blob(found[0]))


def verify(claim: ClaimKind, evidence: Sequence[str], targets: Sequence[Target], analysis: SyncAnalysis,
           history: History) -> ClaimCheck:
    """Check ``claim`` (with ``evidence``) against every target as the result holds it now."""
    if claim is ClaimKind.JUDGEMENT:
        return ClaimCheck(ClaimStatus.NEEDS_HUMAN, "a judgement is not checked: a person confirms or overrides it")
    twice = _kept_twice(targets)
    if twice is not None:
        return twice
    if claim is ClaimKind.INTENTIONAL_REMOVAL:
        return _intentional(evidence, targets, history)
    if claim is ClaimKind.MOVED:
        return _moved(evidence, targets, history)
    if claim is ClaimKind.SUPERSEDED:
        return _per_side(targets, lambda target, side: _superseded(target, side, history),
                         "the kept side already holds every lost line")
    if claim is ClaimKind.POLICY:
        return _policy(targets, analysis)
    return _restored(targets)


def _verified(reason: str, cited: Iterable[str] = ()) -> ClaimCheck:
    return ClaimCheck(ClaimStatus.VERIFIED, reason, tuple(cited))


def _contradicted(reason: str, cited: Iterable[str] = ()) -> ClaimCheck:
    return ClaimCheck(ClaimStatus.CONTRADICTED, reason, tuple(cited))


def _example(target: Target, side: Whose) -> str:
    lines = target.side_lines(side)
    shown = [lines[n] for n in target.lost.get(side, ()) if n < len(lines)]
    return f", e.g. \u201c{shorten(shown[0])}\u201d" if shown else ""


def _still_lost(target: Target, side: Whose) -> str:
    count = len(target.lost.get(side, ()))
    what = "line" if count == 1 else "lines"
    return f"{count} {what} of {side}'s {'are' if count != 1 else 'is'} still lost in {target.where()}{_example(target, side)}"


def _restored(targets: Sequence[Target]) -> ClaimCheck:
    for target in targets:
        if target.file_lost is not None:
            return _contradicted(f"the result still lacks {target.file_lost}'s file {target.path}")
        for side in target.losing:
            return _contradicted(_still_lost(target, side))
    return _verified("nothing is lost on either side")


def _kept_twice(targets: Sequence[Target]) -> ClaimCheck | None:
    """Contradicted where a take keeps both sides' text over a base line both sides rewrote: nothing is lost, so
    every claim about lost lines would hold, yet the result holds two versions of the same work."""
    for target in targets:
        twice = _rewritten_twice(target) if target.keeps_both else None
        if twice is not None:
            return _contradicted(f"dev and main each rewrote the base line \u201c{shorten(twice)}\u201d ({target.where()}): "
                                 "keeping both sides keeps two versions of the same work")
    return None


def _rewritten_twice(target: Target) -> bytes | None:
    """A base line of the hunk (with content) that both sides replaced with text of their own, or None: where both
    sides rewrote the same lines, a concatenation of the two loses nothing but holds the work twice."""
    merge = target.entry.merge if target.entry is not None else None
    hunk = target.hunk
    if merge is None or hunk is None or hunk.base.count <= 0:
        return None
    lo, hi = hunk.base.start - 1, hunk.base.end
    dev = _replaced(merge.ours_script, lo, hi)
    for n in sorted(dev & _replaced(merge.theirs_script, lo, hi)):
        if n < len(merge.base) and meaningful(merge.base[n]):
            return merge.base[n]
    return None


def _replaced(script: Script, lo: int, hi: int) -> set[int]:
    """The base lines in ``[lo, hi)`` that the script replaces with lines of its own (a deletion replaces nothing)."""
    found: set[int] = set()
    for start, count, _at, size in script:
        if start >= hi:
            break
        if count and size and start + count > lo:
            found.update(range(max(lo, start), min(hi, start + count)))
    return found


def _per_side(targets: Sequence[Target], check: Callable[[Target, Whose], str | None], words: str) -> ClaimCheck:
    """Each side's loss of each target must pass ``check`` (None: it does; else why not)."""
    for target in targets:
        if target.file_lost is not None:
            return _contradicted(f"the result lacks {target.file_lost}'s whole file {target.path}")
        for side in target.losing:
            why = check(target, side)
            if why is not None:
                return _contradicted(why)
    return _verified(words)


def _superseded(target: Target, side: Whose, history: History) -> str | None:
    """None when the other side already holds ``side``'s lost lines: it had them (every one, in order, in one
    version of the file along its history) and moved past them, or the result has each of them elsewhere, as
    often as ``side`` has it."""
    lines = target.side_lines(side)
    lost = [norm(lines[n]) for n in target.lost.get(side, ()) if meaningful(lines[n])]
    if not lost:
        return None
    have = Counter(norm(line) for line in target.result or ())
    wanted = Counter(norm(line) for line in lines)
    if all(have[key] >= wanted[key] for key in lost):
        return None
    keeper = other(side)
    if any(_in_order(lost, version) for version in history.versions(target, keeper)):
        return None
    return (f"{side}'s lost lines in {target.where()} (e.g. \u201c{shorten(lost[0])}\u201d) are neither elsewhere in "
            f"the result nor in any version of the file along {keeper}'s history")


def _in_order(wanted: Sequence[bytes], version: Sequence[bytes]) -> bool:
    """Whether ``wanted`` (normalised) occur in ``version`` in that order."""
    k = 0
    for line in version:
        if k < len(wanted) and norm(line) == wanted[k]:
            k += 1
    return k == len(wanted)


def _restricted(targets: Sequence[Target]) -> ClaimCheck | None:
    for target in targets:
        if target.file_lost is not None:
            return _contradicted(f"the result lacks {target.file_lost}'s whole file {target.path}")
    return None


def _runs(lines: Sequence[bytes], lost: Sequence[int]) -> list[list[bytes]]:
    """The lost lines' content as blocks: consecutive lines, lines without content between them joining two."""
    runs: list[list[bytes]] = []
    last = -2
    for n in sorted(lost):
        if not meaningful(lines[n]):
            continue
        if runs and all(not meaningful(lines[k]) for k in range(last + 1, n)):
            runs[-1].append(norm(lines[n]))
        else:
            runs.append([norm(lines[n])])
        last = n
    return runs


def _at(result: Sequence[bytes], line: int, block: Sequence[bytes]) -> bool:
    """Whether ``block`` (content lines) starts at 1-based ``line`` of ``result`` (lines without content skipped)."""
    k = line - 1
    for wanted in block:
        while k < len(result) and not meaningful(result[k]):
            k += 1
        if k >= len(result) or norm(result[k]) != wanted:
            return False
        k += 1
    return True


def _moved(evidence: Sequence[str], targets: Sequence[Target], history: History) -> ClaimCheck:
    places: list[tuple[str, int]] = []
    for given in evidence:
        found = _PLACE.match(given)
        if found is None:
            return _contradicted(f"`moved` cites places as PATH:LINE of the result, not {given!r}")
        places.append((found["path"], int(found["line"])))
    if not places:
        return _contradicted("`moved` needs --evidence PATH:LINE: where in the result the lost lines are")
    problem = _restricted(targets)
    if problem is not None:
        return problem
    texts: dict[str, Sequence[bytes] | None] = {}
    for target in targets:
        for side in target.losing:
            for block in _runs(target.side_lines(side), target.lost[side]):
                if not any(_at(_lines_of(path, texts, history), line, block) for path, line in places):
                    shown = ", ".join(f"{p}:{n}" for p, n in places)
                    return _contradicted(f"{side}'s lost lines \u201c{shorten(block[0])}\u201d ({target.where()}) are "
                                         f"not at {shown} of the result")
    return _verified("the lost lines are where the evidence says", (f"{p}:{n}" for p, n in places))


def _lines_of(path: str, texts: dict[str, Sequence[bytes] | None], history: History) -> Sequence[bytes]:
    if path not in texts:
        texts[path] = history.result_lines(path)
    return texts[path] or ()


def _policy(targets: Sequence[Target], analysis: SyncAnalysis) -> ClaimCheck:
    if analysis.policy is None:
        return _contradicted("no sync policy is active for this sync (give --policy, or configure one)")
    failing = {m.path for m in analysis.api_mismatches}
    for target in targets:
        rule = target.entry.policy if target.entry is not None else None
        if rule not in POLICY_RULES:
            return _contradicted(f"no rule of the policy {analysis.policy.name} decides {target.path}")
        if target.path in failing:
            return _contradicted(f"{target.path}'s API audit is not clean")
        dropped = _DROPPED_BY_RULE.get(str(rule))
        losing = target.losing + ((target.file_lost,) if target.file_lost is not None else ())
        kept = [side for side in losing if side != dropped]
        if rule == "coupled" and len(set(losing)) < 2:
            kept = []
        if kept:
            side = kept[0]
            return _contradicted(f"the policy's {rule} rule keeps {side}'s side of {target.path}, and "
                                 + (_still_lost(target, side) if target.lost.get(side) else f"{side}'s file is lost"))
    return _verified("the policy decides each file, and its API audit is clean")


def _intentional(evidence: Sequence[str], targets: Sequence[Target], history: History) -> ClaimCheck:
    commits: list[str] = []
    for given in evidence:
        sha = history.commit(given)
        if sha is None:
            return _contradicted(f"{given!r} is not a commit of this repository")
        if len(history.parents(sha)) > 1:
            return _contradicted(f"{sha[:10]} is a merge: a merge's diff is not a side's intent", [sha])
        if history.of_sync(sha):
            return _contradicted(f"{sha[:10]} is a commit of the sync itself, never a side's intent", [sha])
        commits.append(sha)
    if not commits:
        return _contradicted("`intentional-removal` needs --evidence COMMIT: the commit that removed the lines")
    for target in targets:
        if target.file_lost is not None:
            remover = other(target.file_lost)
            if not any(history.on_side(c, remover) and history.deleted(c, _side_path(target, remover)) for c in commits):
                return _contradicted(f"no cited commit on {remover}'s side deletes {target.path}", commits)
        for side in target.losing:
            why = _removal(target, side, commits, history)
            if why is not None:
                return _contradicted(why, commits)
    return _verified("the cited commits removed or rewrote the base lines the lost lines changed", commits)


def _side_path(target: Target, side: Whose) -> str:
    entry = target.entry
    if entry is None:
        return target.path
    return (entry.dev if side == "dev" else entry.main).path or target.path


def _removal(target: Target, side: Whose, commits: Sequence[str], history: History) -> str | None:
    """Why no cited commit of the other side removed the base lines ``side``'s lost lines replaced (None: one did)."""
    entry = target.entry
    merge = entry.merge if entry is not None else None
    if merge is None:
        return f"{target.where()} has no line merge to trace {side}'s lost lines to the base"
    remover = other(side)
    own: Script = merge.ours_script if side == "dev" else merge.theirs_script
    theirs: Script = merge.theirs_script if side == "dev" else merge.ours_script
    path = _side_path(target, remover)
    candidates = [c for c in commits if history.on_side(c, remover)]
    if not candidates:
        return f"no cited commit is on {remover}'s side (since the merge base)"
    removed: dict[str, frozenset[bytes]] = {}
    for c in candidates:
        gone = history.removed(c, path)
        removed[c] = frozenset(norm(line) for line in gone or () if meaningful(line))
    lines = target.side_lines(side)
    for n in target.lost.get(side, ()):
        base = _replaced_base(own, theirs, n, merge.base)
        if base is None:
            return (f"{side}'s line \u201c{shorten(lines[n])}\u201d ({target.where()}) was added beside {remover}'s "
                    f"change, not in place of base lines {remover} removed")
        if not any(removed[c] & base for c in candidates):
            return (f"no cited commit removes or rewrites the base lines {side}'s line \u201c{shorten(lines[n])}\u201d "
                    f"({target.where()}) replaced")
    return None


def _replaced_base(own: Script, theirs: Script, line: int, base: Sequence[bytes]) -> frozenset[bytes] | None:
    """The base lines (normalised, with content) the other side replaced where the side's ``line`` sits; None when
    the line was added beside the other side's change (nothing of the other side's went there)."""
    edit = holding(own, line)
    if edit is None:
        return None
    start, count = edit[0], edit[1]
    if not replaces_near(theirs, start, count):
        return None
    if count:
        lo, hi = start, start + count
    else:  # an insertion inside a range the other side replaced: that range's lines
        around = [e for e in theirs if e[0] < start < e[0] + e[1]]
        if not around:
            return None
        lo, hi = around[0][0], around[0][0] + around[0][1]
    found = frozenset(norm(b) for b in base[lo:hi] if meaningful(b))
    return found or None
