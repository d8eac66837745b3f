"""``workbench analyze`` without --json: riskiest first, every signal shown, repository text inert."""

from __future__ import annotations

from dataclasses import replace

from helpers.syncs import analyze_preview
from rich.console import Console

from workbench.analysis.model import Signal, SyncAnalysis
from workbench.report.listing import print_analysis
from workbench.sample import RepoBuilder

HOT, COLD = "pkg/hot.py", "pkg/cold.py"


def _two_files(b: RepoBuilder) -> SyncAnalysis:
    """``hot.py`` loses a dev import the result still uses; ``cold.py`` only a comment."""
    filler = "".join(f"\n\ndef filler_{i}():\n    return {i}\n" for i in range(4))
    b.write(HOT, "import os\nfrom pkg.alpha import alpha\n" + filler + "\n\ndef run():\n    return alpha()\n")
    b.write(COLD, "VALUE = compute()  # the value\n" + filler)
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(
        HOT,
        "import os\nfrom pkg.alpha import alpha\nfrom pkg.beta import beta_helper\n"
        + filler
        + "\n\ndef run():\n    return beta_helper(alpha())\n",
    )
    b.write(COLD, "VALUE = compute()  # the computed value\n" + filler)
    b.commit("[dev] Use beta (#14)")
    b.checkout("main")
    b.write(HOT, "import os\nfrom pkg.alpha import alpha, gamma\n" + filler + "\n\ndef run():\n    return alpha()\n")
    b.write(COLD, "VALUE = compute_again()  # the value\n" + filler)
    b.commit("Import gamma; compute again (#34)")
    return analyze_preview(b.path)


def _render(analysis: SyncAnalysis, show_all: bool = False) -> str:
    console = Console(record=True, width=400, color_system=None, highlight=False)
    print_analysis(analysis, show_all=show_all, console=console)
    return console.export_text()


def test_files_and_hunks_riskiest_first_with_signals(builder: RepoBuilder) -> None:
    out = _render(_two_files(builder), show_all=True)
    assert out.index(HOT) < out.index(COLD)
    hot_section = out[out.rindex(HOT) : out.rindex(COLD)]
    assert "dev-only-lines-dropped: 1 line dev wrote here" in hot_section
    assert "the result still uses beta_helper" in hot_section
    assert out.rindex(COLD) > out.rindex(HOT)


def test_low_hunks_are_left_out_unless_asked(builder: RepoBuilder) -> None:
    analysis = _two_files(builder)
    assert f"L  20 {COLD}" not in _render(analysis)
    assert f"L  20 {COLD}" in _render(analysis, show_all=True)
    assert "of values or comments" in _render(analysis, show_all=True)


def test_signal_text_is_shown_literally(builder: RepoBuilder) -> None:
    analysis = _two_files(builder)
    entry = analysis.file(HOT)
    assert entry is not None
    evil = Signal("policy-keep-dev", "[bold red]boom[/] \x1b[2J from \u202eevil", (), 40)
    hunk = replace(entry.hunks[0], signals=(evil, *entry.hunks[0].signals))
    patched = replace(entry, hunks=(hunk,), signals=(evil,))
    out = _render(replace(analysis, files=(patched,)))
    assert "[bold red]boom[/] \\x1b[2J from \\u202eevil" in out
    assert "\x1b" not in out and "\u202e" not in out
    assert out.count("+40 policy-keep-dev") == 2
