"""``workbench analyze``: the analysis as a Rich table, or as JSON."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from workbench.analysis.model import FileAnalysis, Hunk, Level, SyncAnalysis
from workbench.textsafe import visible

_LEVEL_STYLE = {Level.HIGH: "bold red", Level.MEDIUM: "yellow", Level.LOW: "green"}
_LEVEL_MARK = {Level.HIGH: "H", Level.MEDIUM: "M", Level.LOW: "L"}


def ranked_files(analysis: SyncAnalysis) -> list[FileAnalysis]:
    """Files by risk, highest first; ties by path."""
    return sorted(analysis.files, key=lambda f: (-f.risk, f.path))


def ranked_hunks(entry: FileAnalysis) -> list[Hunk]:
    return sorted(entry.hunks, key=lambda h: (-h.risk, h.index))


def print_analysis(analysis: SyncAnalysis, show_all: bool = False, console: Console | None = None) -> None:
    console = console or Console(highlight=False)
    console.print(_summary(analysis))
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("risk", justify="right")
    table.add_column("status")
    table.add_column("hunks", justify="right")
    table.add_column("path", overflow="fold")
    for entry in ranked_files(analysis):
        table.add_row(
            _level_text(entry.level, entry.risk),
            entry.status.value,
            str(len(entry.hunks)),
            Text(visible(entry.path)),
        )
    console.print(table)
    for entry in ranked_files(analysis):
        hunks = [h for h in ranked_hunks(entry) if show_all or h.level is not Level.LOW]
        if not hunks:
            continue
        console.print(Text(visible(entry.path), style="bold"))
        for hunk in hunks:
            console.print(_hunk_line(hunk))
            for signal in hunk.signals:
                console.print(Text("      " + visible(signal.message)))


def _summary(analysis: SyncAnalysis) -> Text:
    hunks = sum(len(f.hunks) for f in analysis.files)
    high = sum(1 for f in analysis.files for h in f.hunks if h.level is Level.HIGH)
    text = Text()
    text.append(f"{analysis.mode.value}", style="bold")
    text.append(f"  dev {analysis.dev[:10]}  main {analysis.main[:10]}")
    if analysis.base:
        text.append(f"  base {analysis.base[:10]}")
    if analysis.merge:
        text.append(f"  merge {analysis.merge[:10]}")
    text.append(
        f"\n{analysis.main_commits} commits from main, {len(analysis.files)} files need a look, "
        f"{hunks} hunks, {high} high risk\n"
    )
    return text


def _level_text(level: Level, risk: int) -> Text:
    return Text(f"{_LEVEL_MARK[level]} {risk:3d}", style=_LEVEL_STYLE[level])


def _hunk_line(hunk: Hunk) -> Text:
    text = Text("  ")
    text.append_text(_level_text(hunk.level, hunk.risk))
    result = f"{hunk.result.start}-{hunk.result.end}" if hunk.result else "absent"
    text.append(
        f"  hunk {hunk.index + 1}: dev {hunk.dev.start}-{hunk.dev.end}, main {hunk.main.start}-{hunk.main.end}, "
        f"result {result}, took {hunk.taken.value}"
    )
    return text
