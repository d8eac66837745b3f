"""The words every format uses for the same facts (plain strings, not yet escaped)."""

from __future__ import annotations

from workbench.analysis.model import (
    ApiMismatch,
    Commit,
    Decider,
    DeletedFile,
    FileStatus,
    Hunk,
    HunkKind,
    LineRange,
    Mode,
    PolicyFinding,
    Taken,
)
from workbench.analysis.suggest.phrases import suggestion_words
from workbench.report.document import BeyondFile, RecordedDecision, Report, RiskyHunk, TakenFile
from workbench.report.stats import LineStats
from workbench.wording import plural

SECTIONS = (
    "High-risk hunks",
    "Medium-risk hunks",
    "Changes beyond git's merge",
    "Files where main's version was taken",
    "Policy findings",
    "API mismatches",
    "Files deleted or restored",
    "Decisions recorded in the app",
)
"""Section titles, in order (the summary comes first and has none)."""

BEYOND_STATUS = {
    FileStatus.RESOLUTION_EDITED: "git merged it cleanly; the result changed lines of that merge",
    FileStatus.TOOK_DEV_FILE: "git merged it cleanly; the result is dev's file (main's changes dropped)",
    FileStatus.TOOK_MAIN_FILE: "git merged it cleanly; the result is main's file (dev's changes dropped)",
    FileStatus.RESOLUTION_ADDED: "git's merge has no such file; the result added it",
    FileStatus.RESOLUTION_DELETED: "git merged it; the result deleted it",
}
"""What each status beyond git's merge means, for people."""

_EDIT_TAKEN = {
    Taken.DEV: "the result put dev's text back over main's clean change",
    Taken.MAIN: "the result put main's text over dev's clean change",
    Taken.OTHER: "the result changed what git merged cleanly",
}

_TAKEN = {
    Taken.MAIN: "the result holds main's side",
    Taken.DEV: "the result holds dev's side",
    Taken.BOTH: "the result holds both sides",
    Taken.OTHER: "the result holds an edit",
    Taken.UNRESOLVED: "the result still has conflict markers",
}


def title(report: Report) -> str:
    a = report.analysis
    sides = f"main {a.main[:10]} into dev {a.dev[:10]}"
    if a.mode is Mode.MERGE_COMMIT and a.merge:
        return f"Sync report for merge {a.merge[:10]} ({sides})"
    if a.mode is Mode.IN_PROGRESS:
        return f"Sync report for the merge in progress ({sides})"
    return f"Sync preview ({sides}, result as -X theirs would write it)"


def summary_facts(report: Report) -> list[str]:
    """The summary line's parts: commits, files, who decided what, levels, Python lines."""
    levels = report.level_counts()
    hunks = report.hunk_count
    theirs = report.theirs_hunks
    if report.by_theirs:
        decided = (
            f"{plural(hunks, 'hunk')} decided by -X theirs"
            if theirs == hunks
            else f"{plural(hunks, 'conflicting hunk')}, {theirs} decided by -X theirs"
        )
    else:
        decided = _resolution_words(hunks, theirs, report.unresolved_hunks)
    conflicting = sum(1 for f in report.analysis.files if not f.status.beyond_merge)
    facts = [
        f"{plural(report.analysis.main_commits, 'commit')} from main",
        f"{plural(conflicting, 'file')} conflicting",
        decided,
        f"{levels['high']} high / {levels['medium']} medium / {levels['low']} low",
    ]
    facts += beyond_facts(report)
    if report.stats is not None:
        facts.append(f"{python_lines(report.stats)} (against dev)")
    return facts


def _resolution_words(hunks: int, theirs: int, unresolved: int) -> str:
    """Who decided the conflicts of a resolution, saying how many are still conflicted (a merge in progress)."""
    if not unresolved:
        return f"{plural(hunks, 'conflicting hunk')} decided by the resolution ({theirs} with main's text)"
    if unresolved == hunks:
        return f"{plural(hunks, 'conflicting hunk')}, none decided yet ({unresolved} still conflicted)"
    return (f"{plural(hunks, 'conflicting hunk')}: {hunks - unresolved} decided by the resolution "
            f"({theirs} with main's text), {unresolved} still conflicted")


def beyond_facts(report: Report) -> list[str]:
    """Who changed what git merged: the resolution, and later commits (nothing when nobody did)."""
    if not report.beyond:
        return []
    clean = sum(1 for b in report.beyond if b.status.beyond_merge)
    later = sum(1 for b in report.beyond if b.later)
    high = sum(b.high for b in report.beyond)
    fact = (
        f"{plural(report.edit_count, 'edit')} beyond git's merge in {plural(len(report.beyond), 'file')} "
        f"({clean} of them merged cleanly by git; {high} high)"
    )
    return [fact] + ([f"{plural(later, 'file')} changed by a later commit"] if later else [])


def beyond_words(entry: BeyondFile) -> str:
    """A file the resolution changed beyond git's merge: how, how many regions, and who."""
    how = BEYOND_STATUS.get(entry.status, "conflicted; the result also changed lines git merged cleanly")
    words = f"{how}; {plural(entry.edits, 'edit')}"
    if entry.high or entry.medium:
        words += f" ({entry.high} high, {entry.medium} medium)"
    return words + ("; changed by a later commit" if entry.later else "")


def python_lines(stats: LineStats) -> str:
    """The line the sync procedure asks for in the PR body (``across 1 file`` for one)."""
    return f"Python lines: +{stats.added} / -{stats.deleted} across {plural(stats.files, 'file')}"


def gate_sentence(report: Report) -> str | None:
    """The gate's verdict, in items: what still waits for a decision while losing lines of either side or
    breaking the build."""
    gate = report.gate
    if gate is None:
        return None
    acked = sum(1 for d in report.decisions if d.decided_by == "ack")
    acks = f"; {plural(acked, 'hunk')} acknowledged in .workbench/acks.toml" if acked else ""
    level = gate.level.value
    if not gate.failed:
        return (f"--fail-on {level}: passed (no item at or above {level} waits for a decision while it loses "
                f"lines of dev or main or breaks the build{acks})")
    unheld = sum(1 for d in report.decisions if not d.in_file and d.choice is not None)
    pending = f"; {plural(unheld, 'decision')} the file does not hold yet" if unheld else ""
    losing = sum(1 for i in gate.items if any(m.lost_count for m in i.pending))
    breaking = len(gate.items) - losing
    verb = "waits" if len(gate.items) == 1 else "wait"
    return (
        f"--fail-on {level}: failed, {plural(len(gate.items), 'item')} at or above {level} still {verb} for a "
        f"decision ({losing} losing lines of dev or main, {breaking} breaking the build or a rule){acks}{pending}"
    )


def location(path: str, hunk: Hunk) -> str:
    """Where to look: the result's lines, or dev's when the result lacks them."""
    if hunk.result is not None and not hunk.result.empty:
        return f"{path} {lines(hunk.result)}"
    if hunk.result is not None:
        return f"{path} before line {hunk.result.start}"
    return f"{path} (dev {lines(hunk.dev)})"


def lines(span: LineRange) -> str:
    """``line 7`` or ``lines 7-9`` (for a non-empty range)."""
    return f"line {span.start}" if span.count == 1 else f"lines {span.start}-{span.end}"


def hunk_facts(hunk: Hunk) -> str:
    if hunk.kind is HunkKind.EDIT:
        taken = _EDIT_TAKEN.get(hunk.taken, _TAKEN[hunk.taken])
        return f"hunk {hunk.index + 1}, an edit outside git's conflicts, risk {hunk.risk}, {taken}"
    return f"hunk {hunk.index + 1}, risk {hunk.risk}, {_TAKEN[hunk.taken]}"


def suggested_words(risky: RiskyHunk) -> str | None:
    """"suggested: dev — dev's lines are a later state of what main squashed in #4113", or None (no suggestion)."""
    found = risky.hunk.suggestion
    if found is None:
        return None
    return "suggested: " + suggestion_words(found, {c.sha: c.pr for c in (*risky.main_commits, *risky.dev_commits)})


def taken_words(entry: TakenFile) -> str:
    """Why main's version is there: ``-X theirs``, the override list, or main's whole file."""
    words = entry.reason + (f", policy {entry.policy}" if entry.policy else "")
    return words + (f", {plural(entry.hunks, 'hunk')}" if entry.hunks else "")


def policy_words(finding: PolicyFinding) -> str:
    """The finding's rule and severity, its sentence, and the fix when the sentence lacks it."""
    words = f"({finding.rule}, {finding.severity}): {finding.message}"
    if finding.fix and finding.fix not in finding.message:
        words += f" Fix: {finding.fix}"
    return words


def no_policy_findings(report: Report) -> str:
    policy = report.analysis.policy
    if policy is None:
        return "none (no sync policy ran: configure one or pass --policy)"
    return f"none (policy {policy.name} from {policy.source})"


def deleted_words(entry: DeletedFile) -> str:
    return f"deleted, {entry.verdict}: {entry.message}"


def commit_subject(commit: Commit) -> str:
    """Subject and PR number (Megatron-LM's squash subjects end in it already)."""
    if commit.pr is not None and f"#{commit.pr}" not in commit.subject:
        return f"{commit.subject} (#{commit.pr})"
    return commit.subject


def commit_label(commit: Commit) -> str:
    return f"{commit.short} {commit_subject(commit)}"


NOT_IN_FILE = "decided, not in the file"
"""Said of a decision the result does not hold (saved in the app and never written, or acknowledged as a side
the file does not hold): it keeps the hunk open."""


def decision_label(decision: RecordedDecision) -> str:
    where = "whole file" if decision.index is None else f"hunk {decision.index + 1}"
    what = decision.disposition if decision.in_file else f"{decision.disposition} ({NOT_IN_FILE})"
    mark = f" [{decision.mark}]" if decision.mark else ""
    if decision.decided_by == "ack":
        who = f" by {decision.who}" if decision.who else ""
        return f"{where}: {what}, acknowledged{who}{mark}: {decision.reason}"
    return f"{where}: {what}{mark}"


def marks_sentence(report: Report) -> str | None:
    """"12 decisions: 9 agent-verified, 2 agent-unverified, 1 human; 3 files fix-commit": who decided, the files
    a commit after the merge settled counted apart (None when no decision is marked: the record names no agent)."""
    from workbench.resolve.marks import Mark, count_marks  # only a report with marks needs the record's types

    marked = [Mark(d.mark) for d in report.decisions if d.mark]
    if not marked:
        return None
    counts = count_marks(marked)
    words = f"{plural(len(marked), 'decision')}: " + ", ".join(f"{n} {mark.value}" for mark, n in counts.items())
    fixed = sum(1 for f in report.analysis.files if f.decided_by is Decider.FIX_COMMIT)
    return words + (f"; {plural(fixed, 'file')} {Mark.FIX_COMMIT.value}" if fixed else "")


def decided_where(decision: RecordedDecision) -> str:
    """How a risky hunk's decision came about, for "<this>: hunk 3: kept main"."""
    return "acknowledged in .workbench/acks.toml" if decision.decided_by == "ack" else "decided in the app"


def mismatch_place(mismatch: ApiMismatch) -> str:
    """``path:line`` of an API mismatch (the path alone when it names no line)."""
    return f"{mismatch.path}:{mismatch.line}" if mismatch.line else mismatch.path


def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("workbench")
    except PackageNotFoundError:
        return "0+unknown"
