"""The report for a terminal, rendered with Rich.

Every piece of repository text goes into ``rich.text.Text`` through
``visible``, never into markup.  Colour follows Rich's detection: none when
the output is not a terminal or ``NO_COLOR`` is set.  The styles are the
ones ``workbench analyze``'s listing uses (``styles.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from workbench.analysis.model import ApiMismatch
from workbench.report.document import Report, RiskyHunk
from workbench.report.hunktext import hunk_diffs
from workbench.report.item_words import count_words
from workbench.report.phrases import (
    SECTIONS,
    beyond_words,
    commit_label,
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
)
from workbench.report.styles import DIFF_STYLE, GATE_STYLE, LEVEL_STYLE
from workbench.report.worklist_text import ItemFilter, worklist_text
from workbench.textsafe import visible

WORKLIST = "Worklist"


def print_text(report: Report, console: Console, only: ItemFilter = ItemFilter.ALL) -> None:
    """The report, opening on the worklist (``only``: every item, those still open, or those changed after the
    merge)."""
    console.print(Text(title(report), style="bold"))
    console.print(Text(" · ".join([*summary_facts(report), f"worklist: {count_words(report.items)}"])))
    gate = gate_sentence(report)
    if gate:
        console.print(Text(gate, style=GATE_STYLE[bool(report.gate and report.gate.failed)]))
    sections: list[tuple[str, Callable[[], list[Text]]]] = [
        (WORKLIST, lambda: worklist_text(report, only, _hunk)),
        (SECTIONS[2], lambda: [_item(b.path, beyond_words(b)) for b in report.beyond]),
        (SECTIONS[3], lambda: [_item(t.path, taken_words(t)) for t in report.taken]),
        (SECTIONS[4], lambda: _policy(report)),
        (SECTIONS[5], lambda: [_api(f) for f in report.api_mismatches]),
        (SECTIONS[6], lambda: [
            *(_item(d.path, deleted_words(d)) for d in report.deleted_files),
            *(_item(e.path, f"{e.event}, {e.reason}") for e in report.file_events),
        ]),
        (SECTIONS[7], lambda: _decisions(report)),
    ]
    for heading, body in sections:
        console.print()
        console.print(Text(heading, style="bold underline"))
        for line in body() or [Text("none", style="dim")]:
            console.print(line)


def _hunk(risky: RiskyHunk) -> list[Text]:
    hunk = risky.hunk
    head = Text()
    head.append(f"{risky.level.value.upper():6} ", style=LEVEL_STYLE[risky.level])
    head.append(visible(location(risky.path, hunk)), style="bold")
    head.append(f"  {hunk_facts(hunk)}")
    out = [head]
    out += [Text("  - " + visible(s.message)) for s in hunk.signals] or [Text("  - no reasons recorded")]
    if (suggested := suggested_words(risky)) is not None:
        out.append(Text("  " + visible(suggested), style="bold"))
    for side, commits in (("dev", risky.dev_commits), ("main", risky.main_commits)):
        for commit in commits:
            out.append(Text(f"  {side}: " + visible(commit_label(commit)), style="dim"))
    if risky.decision is not None:
        note = f" (note: {risky.decision.note})" if risky.decision.note.strip() else ""
        out.append(Text(f"  {decided_where(risky.decision)}: " + visible(decision_label(risky.decision) + note)))
    for line in hunk_diffs(hunk):
        prefix = "@@ " if line.sign == "@" else line.sign
        out.append(Text("    " + prefix + visible(line.text).replace("\t", "    "), style=DIFF_STYLE[line.sign]))
    out.append(Text())
    return out


def _item(path: str, words: str) -> Text:
    text = Text("  ")
    text.append(visible(path), style="bold")
    text.append("  " + visible(words))
    return text


def _policy(report: Report) -> list[Text]:
    items = [_item(f.path, policy_words(f)) for f in report.policy_findings]
    return items or [Text(visible(no_policy_findings(report)), style="dim")]


def _api(mismatch: ApiMismatch) -> Text:
    return _item(mismatch_place(mismatch), mismatch.message)


def _decisions(report: Report) -> list[Text]:
    if not report.decisions and report.decisions_note:
        return [Text(f"none ({visible(report.decisions_note)})", style="dim")]
    marks = marks_sentence(report)
    return ([Text(marks)] if marks else []) + [
        _item(d.path, decision_label(d) + (f" (note: {d.note})" if d.note.strip() else ""))
        for d in report.decisions
    ]
