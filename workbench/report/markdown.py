"""The report as GitHub Markdown, ready to paste into the sync PR's body or a comment.

It opens on the worklist (``worklist_md.py``): each item once, most
important first, its riskiest hunks under it.  A PR body holds at most
65,536 characters, so when the full report is longer the hunks' text is
left out, medium-risk hunks first, and then the entries of every list
(items included) beyond as many as fit, each list ending with a count of
what it left out.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.analysis.model import Commit, Level
from workbench.report.document import Report, RiskyHunk
from workbench.report.escape import code_block, code_span, md_prose, md_text
from workbench.report.hunktext import hunk_diffs, lost_quotes
from workbench.report.item_words import count_words
from workbench.report.links import commit_link
from workbench.report.phrases import (
    SECTIONS,
    beyond_words,
    commit_subject,
    decided_where,
    decision_label,
    deleted_words,
    gate_sentence,
    hunk_facts,
    location,
    marks_sentence,
    mismatch_place,
    no_policy_findings,
    policy_words,
    suggested_words,
    summary_facts,
    taken_words,
    title,
    tool_version,
)
from workbench.report.worklist_md import worklist_lines
from workbench.wording import plural

LIMIT = 65_536
"""GitHub's limit on a PR body or comment, in characters."""

COLLAPSE_AFTER = 15
"""Longer file lists go in a collapsed ``<details>``."""

_LEVEL_MARK = {Level.HIGH: "🔴", Level.MEDIUM: "🟠", Level.LOW: "⚪"}
WORKLIST = "Worklist"
"""The first section: the findings grouped by shared cause, each decided once."""


def render_markdown(report: Report, limit: int = LIMIT) -> str:
    """The whole report within ``limit`` (GitHub's, by default): hunk text is dropped (medium first, then high),
    and when that is not enough, each list shows as many entries as fit (the same number for every list) and
    counts the rest.  Only a limit too small for the headings and counts alone is exceeded."""
    for shown in ((Level.MEDIUM, Level.HIGH), (Level.HIGH,), ()):
        text = _render(report, shown)
        if len(text) <= limit:
            return text
    low, high = 0, max(len(report.items), len(report.taken), len(report.beyond), len(report.policy_findings),
                       len(report.api_mismatches), len(report.deleted_files) + len(report.file_events),
                       len(report.decisions))
    best = _render(report, (), 0)
    while low <= high:
        middle = (low + high) // 2
        text = _render(report, (), middle)
        if len(text) <= limit:
            best, low = text, middle + 1
        else:
            high = middle - 1
    return best


def _render(report: Report, diffs_for: tuple[Level, ...], cap: int | None = None) -> str:
    """The report with hunk text for ``diffs_for``'s levels; ``cap``: at most that many entries per list."""
    cut = len(diffs_for) < 2 and any(r.level not in diffs_for for r in report.risky)
    facts = [*summary_facts(report), f"worklist: {count_words(report.items)}"]
    parts = [f"## {md_text(title(report))}", "", "**" + " · ".join(_fact(f) for f in facts) + "**"]
    gate = gate_sentence(report)
    if gate:
        parts += ["", md_prose(gate)]
    if cap is not None:
        parts += ["", "_Some hunks' text and some entries are left out to fit GitHub's size limit; "
                      "`workbench report --format text` shows all of it._"]
    elif cut:
        parts += ["", "_Some hunks' text is left out to fit GitHub's size limit; "
                      "`workbench report --format text` shows all of it._"]
    sections: list[tuple[str, Callable[[], list[str]]]] = [
        (WORKLIST, lambda: worklist_lines(report, diffs_for, cap, lambda r, text: _hunk(r, text, report.commit_url),
                                          lambda c: _commit(c, report.commit_url))),
        (SECTIONS[2], lambda: _beyond(report, cap)),
        (SECTIONS[3], lambda: _taken(report, cap)),
        (SECTIONS[4], lambda: _policy(report, cap)),
        (SECTIONS[5], lambda: _api(report, cap)),
        (SECTIONS[6], lambda: _events(report, cap)),
        (SECTIONS[7], lambda: _decisions(report, cap)),
    ]
    for heading, body in sections:
        lines = body()
        parts += ["", f"### {heading}", "", *(lines or ["none"])]
    parts += ["", "---", "", f"<sub>workbench {md_text(tool_version())}, git {md_text(report.analysis.git_version)}</sub>", ""]
    return "\n".join(parts)


def _fact(fact: str) -> str:
    """A summary fact (our words, no repository text) with the strategy option as code."""
    return md_text(fact).replace("-X theirs", "`-X theirs`")


def _left_out(count: int, what: str) -> list[str]:
    """The line that counts what a capped list leaves out (nothing when it leaves nothing out)."""
    return [f"- … {plural(count, what)} left out to fit GitHub's size limit"] if count > 0 else []


def _hunk(risky: RiskyHunk, with_text: bool, url: str | None = None) -> list[str]:
    hunk = risky.hunk
    head = f"{_LEVEL_MARK[risky.level]} **{code_span(location(risky.path, hunk))}** · {md_text(hunk_facts(hunk))}"
    lines = [head, ""]
    lines += [f"- {md_prose(s.message)}" for s in hunk.signals] or ["- no reasons recorded"]
    if (suggested := suggested_words(risky)) is not None:
        lines.append(f"- {md_text(suggested)}")
    for side, where, quoted in lost_quotes(hunk):
        lines += [f"- lost from {side}, {md_text(where)}:", "", code_block("\n".join(quoted)), ""]
    for side, commits in (("dev", risky.dev_commits), ("main", risky.main_commits)):
        if commits:
            lines.append(f"- {side}: " + "; ".join(_commit(c, url) for c in commits))
    if risky.decision is not None:
        lines.append(f"- {decided_where(risky.decision)}: " + md_text(decision_label(risky.decision)) + _note(risky.decision.note))
    if with_text:
        body = "\n".join(_diff_line(d.sign, d.text) for d in hunk_diffs(hunk))
        lines += ["", "<details><summary>dev / main / result text</summary>", "", code_block(body, "diff"), "", "</details>"]
    return lines + [""]


def _diff_line(sign: str, text: str) -> str:
    if sign == "@":
        return f"@@ {text} @@"
    if sign == "…":
        return f"# … {text}"
    return sign + text


def _commit(commit: Commit, url: str | None = None) -> str:
    """A commit's short id (a link to it on the forge, when ``origin`` is a known one) and subject."""
    link = commit_link(url, commit.sha)
    short = f"[{code_span(commit.short)}]({link})" if link else code_span(commit.short)
    return f"{short} {md_text(commit_subject(commit))}"


def _note(note: str) -> str:
    return f" (note: {md_text(note)})" if note.strip() else ""


def _collapsed(items: list[str], what: str, cap: int | None = None) -> list[str]:
    shown = _capped(items, cap)
    if len(items) <= COLLAPSE_AFTER:
        return shown
    return [f"<details><summary>{len(items)} {what}</summary>", "", *shown, "", "</details>"]


def _capped(items: list[str], cap: int | None, what: str = "more item") -> list[str]:
    """``items``, or their first ``cap`` and a line counting the rest."""
    return items[:cap] + _left_out(len(items) - len(items[:cap]), what)


def _taken(report: Report, cap: int | None = None) -> list[str]:
    return _collapsed([f"- {code_span(t.path)}: {md_prose(taken_words(t))}" for t in report.taken], "files", cap)


def _beyond(report: Report, cap: int | None = None) -> list[str]:
    return _collapsed([f"- {code_span(b.path)}: {md_text(beyond_words(b))}" for b in report.beyond], "files", cap)


def _policy(report: Report, cap: int | None = None) -> list[str]:
    items = [f"- {code_span(f.path)} {md_prose(policy_words(f))}" for f in report.policy_findings]
    return _capped(items, cap) or [md_text(no_policy_findings(report))]


def _api(report: Report, cap: int | None = None) -> list[str]:
    return _capped([f"- {code_span(mismatch_place(m))}: {md_prose(m.message)}" for m in report.api_mismatches], cap)


def _events(report: Report, cap: int | None = None) -> list[str]:
    deleted = [f"- {code_span(d.path)}: {md_prose(deleted_words(d))}" for d in report.deleted_files]
    events = [f"- {code_span(e.path)}: {md_text(e.event)}, {md_text(e.reason)}" for e in report.file_events]
    return _capped(deleted + events, cap)


def _decisions(report: Report, cap: int | None = None) -> list[str]:
    if not report.decisions and report.decisions_note:
        return [f"none ({md_text(report.decisions_note)})"]
    marks = marks_sentence(report)
    return ([md_text(marks), ""] if marks else []) + _collapsed(
        [f"- {code_span(d.path)} {md_text(decision_label(d))}{_note(d.note)}" for d in report.decisions],
        "decisions", cap,
    )

