"""Every report format says a risky hunk's suggestion, in the words the training screen and the app use."""

from __future__ import annotations

import io
from dataclasses import replace

from helpers.reports import report_for
from rich.console import Console

from workbench.analysis.kinds import Rung, Take
from workbench.analysis.model import Candidate, Level, SideShare, Suggestion, SyncAnalysis
from workbench.analysis.suggest.phrases import suggestion_words
from workbench.report.document import Report, RiskyHunk
from workbench.report.github import render_github
from workbench.report.markdown import render_markdown
from workbench.report.phrases import suggested_words
from workbench.report.text import print_text
from workbench.sample import SampleSync
from workbench.sample.dropped_lines import SPECS

_REASON = "dev's lines are a later state of what main squashed"


def _suggested(bot_merge: SampleSync, pr: int | None, suggest: bool = True) -> tuple[Report, RiskyHunk]:
    """The bot's report with one risky hunk, which suggests dev's lines on a squash chain (its dev commit #``pr``);
    the suggestion is put in the analysis, so every format reads it where it reads the hunk."""

    def change(analysis: SyncAnalysis) -> SyncAnalysis:
        entry = analysis.file(SPECS)
        assert entry is not None
        hunk = entry.hunks[0]
        sha = hunk.dev_commits[0]
        history = replace(entry.history, dev=tuple(replace(c, pr=pr) if c.sha == sha else c for c in entry.history.dev))
        dev = Candidate(Take.DEV, tuple(hunk.dev_text), SideShare((), ()), SideShare((), ()))
        suggestion = Suggestion(dev, Rung.SQUASH_CHAIN, "a signal's own sentence", (sha,)) if suggest else None
        hunks = (replace(hunk, suggestion=suggestion, candidates=(dev,)), *entry.hunks[1:])
        changed = replace(entry, hunks=hunks, history=history)
        return replace(analysis, files=tuple(changed if f.path == SPECS else f for f in analysis.files))

    report = report_for(bot_merge, {(SPECS, 0): (Level.HIGH, ("dev's qk_l2_norm line is missing",))}, change=change)
    risky = report.risky[0]
    assert risky.path == SPECS and risky.dev_commits
    return report, risky


def test_words_name_the_take_the_rung_and_the_pr(bot_merge: SampleSync) -> None:
    _, risky = _suggested(bot_merge, 4113)
    assert suggested_words(risky) == f"suggested: dev — {_REASON} in #4113"
    _, without_pr = _suggested(bot_merge, None)
    assert suggested_words(without_pr) == f"suggested: dev — {_REASON}"
    assert suggested_words(replace(risky, hunk=replace(risky.hunk, suggestion=None))) is None


def test_every_rung_and_take_has_words() -> None:
    share = SideShare((), ())
    for take in Take:
        for rung in Rung:
            words = suggestion_words(Suggestion(Candidate(take, (), share, share), rung, ""), {})
            assert " — " in words and "{" not in words


def test_markdown_github_and_text_say_the_suggestion(bot_merge: SampleSync) -> None:
    report, _ = _suggested(bot_merge, 4113)
    line = f"suggested: dev — {_REASON} in #4113"
    assert f"- {line}" in render_markdown(report)
    assert line in render_github(report)
    out = io.StringIO()
    print_text(report, Console(file=out, width=200, color_system=None))
    assert f"  {line}" in out.getvalue().splitlines()


def test_no_suggestion_no_line(bot_merge: SampleSync) -> None:
    """Without its suggestion the hunk's place in each format says none (other files' real suggestions aside)."""
    report, _ = _suggested(bot_merge, 4113, suggest=False)
    out = io.StringIO()
    print_text(report, Console(file=out, width=200, color_system=None))
    for rendered in (render_markdown(report), out.getvalue()):
        assert _REASON + " in #4113" not in rendered
    specs = [line for line in render_github(report).splitlines() if f"file={SPECS}," in line]
    assert specs and all("suggested:" not in line for line in specs)
