"""From an analysis to its worklist: each hunk that needs a look joins the item of its cause, file-level
findings join or make items, small single-file causes fold together, and items are ordered for reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from workbench.analysis.model import FileAnalysis, Hunk, Level, SyncAnalysis
from workbench.analysis.worklist.causes import Cause, Causes, api_cause, duplicate_cause, needs_look, policy_cause
from workbench.analysis.worklist.facts import WorklistFacts
from workbench.analysis.worklist.finish import commit_index, finish
from workbench.analysis.worklist.identity import fingerprint
from workbench.analysis.worklist.items import ItemKind, Member, Worklist
from workbench.analysis.worklist.whole_files import whole_file_items

FOLDABLE = frozenset({ItemKind.COMMIT, ItemKind.WHOLE_FILE, ItemKind.HUNK})
"""Causes that fold into their file's item when they touch no other file."""
FILE_POLICY_KINDS = frozenset({"keep-dev-absent", "override-not-main", "coupled-split", "uv-source-missing", "main-text-in-keep-dev"})
"""Policy findings that name a file to decide (the others advise on a file already in an item)."""
_VERDICT_LEVEL = {"restore-file": Level.HIGH, "check": Level.MEDIUM, "leave-deleted": Level.LOW}
_SEVERITY_LEVEL = {"high": Level.HIGH, "medium": Level.MEDIUM, "info": Level.LOW}


@dataclass
class Group:
    """An item being gathered: its cause, members, the hunks behind them, and file-level findings' messages."""

    cause: Cause
    members: list[Member] = field(default_factory=list)
    hunks: list[Hunk] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    causes: int = 1
    """How many causes a folded file item gathers."""

    def add(self, member: Member, hunk: Hunk | None = None) -> Group:
        self.members.append(member)
        if hunk is not None:
            self.hunks.append(hunk)
        return self

    @property
    def paths(self) -> list[str]:
        return list(dict.fromkeys(m.path for m in self.members))


Groups = dict[tuple[ItemKind, tuple[str, ...]], Group]


def worklist_of(analysis: SyncAnalysis) -> Worklist:
    """The analysis' worklist, or one grouped from it alone when no stage made one (a hand-built analysis)."""
    return analysis.worklist if analysis.worklist is not None else build_worklist(analysis)


def build_worklist(analysis: SyncAnalysis, facts: WorklistFacts | None = None) -> Worklist:
    """The sync's items, most important first: every hunk that needs a look belongs to exactly one."""
    facts = facts or WorklistFacts()
    causes = Causes(analysis, facts)
    groups: Groups = {}

    def join(cause: Cause) -> Group:
        return groups.setdefault((cause.kind, cause.key), Group(cause))

    for entry in analysis.files:
        for hunk in entry.all_hunks:
            ref = (entry.path, hunk.index)
            if needs_look(hunk, ref, facts) or causes.flagged(entry, hunk):
                join(causes.of(entry, hunk)).add(_member(entry, hunk), hunk)
    _file_findings(analysis, facts, join)
    _follow_implementations(groups)
    _fold_files(groups, FOLDABLE, ItemKind.FILE)
    _fold_files(groups, frozenset({ItemKind.API_BREAK}), ItemKind.API_BREAK)
    known = commit_index(analysis, facts)
    items = [finish(g.cause, g.members, g.hunks, g.notes, g.causes, known, facts) for g in groups.values()]
    items += whole_file_items(analysis, (m.path for item in items for m in item.members))
    items.sort(key=lambda i: (-i.level.rank, i.kind.rank, -(i.lost_dev + i.lost_main), i.id))
    return Worklist(tuple(items))


def _member(entry: FileAnalysis, hunk: Hunk) -> Member:
    return Member(entry.path, hunk.index, hunk.level, hunk.lost_lines, fingerprint(entry.path, hunk))


def _file_findings(analysis: SyncAnalysis, facts: WorklistFacts, join: Callable[[Cause], Group]) -> None:
    """Findings outside the hunks: API failures, duplicate definitions, main's files the result lacks, policy."""
    for m in analysis.api_mismatches:
        group = join(api_cause(m))
        group.notes.append(m.message)
        if m.hunk is None or not group.members:  # outside a hunk, or its hunk joined another symbol's item
            group.add(Member(m.path, None, Level.HIGH, fingerprint=f"{m.path}:{m.line}:{m.symbol}"))
    for d in facts.duplicates:
        group = join(duplicate_cause(d))
        if not group.members:  # no hunk of the result holds it: the file is the member
            group.add(Member(d.path, None, Level.HIGH, fingerprint=f"{d.path}:{d.scope}"))
    for deleted in analysis.deleted_files:
        group = join(Cause(ItemKind.DELETED_FILE, (deleted.path,), "main"))
        group.add(Member(deleted.path, None, _VERDICT_LEVEL[deleted.verdict], fingerprint=deleted.main_oid))
        group.notes.append(deleted.message)
    if analysis.policy is not None:
        for finding in analysis.policy.findings:
            if finding.kind in FILE_POLICY_KINDS:
                group = join(policy_cause(finding.rule, finding.path))
                group.add(Member(finding.path, None, _SEVERITY_LEVEL[finding.severity], fingerprint=finding.kind))
                group.notes.append(finding.message)


def is_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def implementation_name(path: str) -> str:
    """``tests/x/test_foo.py`` -> ``foo.py``."""
    name = path.rsplit("/", 1)[-1]
    return name[len("test_") :] if name.startswith("test_") else name[: -len("_test.py")] + ".py"


def _follow_implementations(groups: Groups) -> None:
    """A test file's single-file causes join the item of the one implementation file it is named after."""
    by_name: dict[str, set[tuple[ItemKind, tuple[str, ...]]]] = {}
    for key, group in groups.items():
        if group.cause.kind in FOLDABLE:
            for path in group.paths:
                if not is_test(path):
                    by_name.setdefault(path.rsplit("/", 1)[-1], set()).add(key)
    for key, group in list(groups.items()):
        paths = group.paths
        if group.cause.kind not in FOLDABLE or len(paths) != 1 or not is_test(paths[0]):
            continue
        targets = by_name.get(implementation_name(paths[0]), set())
        if len(targets) == 1:
            (target,) = targets
            groups[target].members.extend(group.members)
            groups[target].hunks.extend(group.hunks)
            del groups[key]


def _fold_files(groups: Groups, kinds: frozenset[ItemKind], into: ItemKind) -> None:
    """Causes of ``kinds`` confined to one file fold into one ``into`` item for that file when the file holds two or
    more of them (single-file commits and hunks; several names failing in one file, as when an import block went)."""
    by_file: dict[str, list[tuple[ItemKind, tuple[str, ...]]]] = {}
    for key, group in groups.items():
        paths = group.paths
        if group.cause.kind in kinds and len(paths) == 1:
            by_file.setdefault(paths[0], []).append(key)
    for path, keys in by_file.items():
        if len(keys) < 2:
            continue
        folded = Group(Cause(into, (path,)), causes=len(keys))
        for key in keys:
            old = groups.pop(key)
            folded.members.extend(old.members)
            folded.hunks.extend(old.hunks)
            folded.notes.extend(old.notes)
        folded.members.sort(key=lambda m: (m.hunk is None, m.hunk or 0))
        groups[(into, (path,))] = folded
