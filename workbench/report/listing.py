"""``workbench analyze``: the analysis as a Rich listing, riskiest first.

The report's terminal sibling: where ``report --format text`` (``text.py``)
lays out a review document, this lists the analysis itself, in the same
styles (``styles.py``).

Files are listed by risk, then each file that has something to say shows
its hunks, highest risk first, with every signal under the hunk: weight,
kind and the sentence a reviewer reads.  Repository text (paths, messages
quoting code or commit subjects) goes through ``visible`` into ``Text``
objects, never into markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from workbench.analysis.model import FileAnalysis, FileStatus, Hunk, HunkKind, Level, Signal, SyncAnalysis
from workbench.report.styles import LEVEL_MARK, LEVEL_STYLE, SEVERITY_STYLE, VERDICT_STYLE, weight_style
from workbench.streams import pipe_console
from workbench.textsafe import visible
from workbench.wording import plural


def ranked_files(analysis: SyncAnalysis) -> list[FileAnalysis]:
    """Files by risk, highest first; ties by path."""
    return sorted(analysis.files, key=lambda f: (-f.risk, f.path))


def ranked_hunks(entry: FileAnalysis) -> list[Hunk]:
    """A file's hunks (its edits beyond git's merge too) by risk, highest first; ties in file order."""
    return sorted(entry.all_hunks, key=lambda h: (-h.risk, h.index))


def print_analysis(analysis: SyncAnalysis, show_all: bool = False, console: Console | None = None) -> None:
    """The summary, the file table, then the hunks worth a look (all of them with ``show_all``)."""
    if console is None:
        # Piped output keeps each file and sentence on one line (grep-able);
        # a terminal gets Rich's wrapping at its own width.
        console = pipe_console(highlight=False, soft_wrap=True)
        if not console.is_terminal:
            console = pipe_console(highlight=False, soft_wrap=True, width=1000)
    console.print(_summary(analysis))
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("risk", justify="right")
    table.add_column("status")
    table.add_column("hunks", justify="right")
    table.add_column("path", overflow="fold")
    files = ranked_files(analysis)
    shown = files if show_all else [f for f in files if f.level is not Level.LOW or f.status is FileStatus.CONFLICTED]
    for entry in shown:
        table.add_row(
            _level_text(entry.level, entry.risk),
            entry.status.value,
            str(len(entry.hunks)) + (f"+{len(entry.edits)}e" if entry.edits else ""),
            Text(visible(entry.path)),
        )
    console.print(table)
    if len(shown) < len(files):
        console.print(Text(f"+ {len(files) - len(shown)} low-risk files (--all lists them)", style="dim"))
    for section in (_api_section(analysis), _policy_section(analysis), _deleted_section(analysis)):
        if section is not None:
            console.print(section)
    for entry in files:
        hunks = [h for h in ranked_hunks(entry) if show_all or h.level is not Level.LOW]
        if not hunks and not (entry.signals and (show_all or entry.level is not Level.LOW)):
            continue
        header = Text()
        header.append_text(_level_text(entry.level, entry.risk))
        header.append(" ")
        header.append(visible(entry.path), style="bold")
        console.print(header)
        for found in entry.signals:
            console.print(_signal_line(found, "    "))
        for hunk in hunks:
            console.print(_hunk_line(hunk))
            for found in hunk.signals:
                console.print(_signal_line(found, "        "))


def _api_section(analysis: SyncAnalysis) -> Text | None:
    """API mismatches: where, what kind, and the sentence naming both sides."""
    if not analysis.api_mismatches:
        return None
    text = Text(f"\nAPI mismatches ({len(analysis.api_mismatches)})\n", style="bold")
    for found in analysis.api_mismatches:
        text.append(f"  {visible(found.path)}:{found.line}", style="bold")
        text.append(f"  {found.kind}  {visible(found.symbol)}\n", style="red")
        text.append(f"      {visible(found.message)}\n")
    return text


def _whole_files(analysis: SyncAnalysis) -> str:
    """" and 3 files decided whole (19 decisions)": the app counts each as one decision to make."""
    hunks = sum(len(f.hunks) for f in analysis.files)
    whole = sum(1 for f in analysis.files if not f.hunks)
    return f" and {plural(whole, 'file')} decided whole ({hunks + whole} decisions)" if whole else ""


def _policy_section(analysis: SyncAnalysis) -> Text | None:
    """The policy that ran, its findings (with their fixes) and the notes that apply."""
    report = analysis.policy
    if report is None:
        return None
    text = Text(f"\nPolicy {visible(report.name)} ({visible(report.source)}): {plural(len(report.findings), 'finding')}\n", style="bold")
    for finding in report.findings:
        text.append(f"  {finding.severity:<6} ", style=SEVERITY_STYLE.get(finding.severity, ""))
        text.append(f"{visible(finding.path)}  {finding.kind}\n", style="bold")
        text.append(f"      {visible(finding.message)}\n")
    for note in report.notes:
        text.append(f"  note   {visible(note)}\n", style="dim")
    return text


def _deleted_section(analysis: SyncAnalysis) -> Text | None:
    """Files main has and the result lacks, with what to do about each."""
    if not analysis.deleted_files:
        return None
    text = Text(f"\nDeleted files ({len(analysis.deleted_files)})\n", style="bold")
    for deleted in analysis.deleted_files:
        text.append(f"  {deleted.verdict:<13} ", style=VERDICT_STYLE.get(deleted.verdict, ""))
        text.append(f"{visible(deleted.path)}\n", style="bold")
        text.append(f"      {visible(deleted.message)}\n")
    return text


def _summary(analysis: SyncAnalysis) -> Text:
    hunks = sum(len(f.hunks) for f in analysis.files)
    edits = sum(len(f.edits) for f in analysis.files)
    high = sum(1 for f in analysis.files for h in f.all_hunks if h.level is Level.HIGH)
    beyond = f" and {plural(edits, 'edit')} beyond git's merge" if edits else ""
    text = Text()
    text.append(f"{analysis.mode.value}", style="bold")
    text.append(f"  dev {analysis.dev[:10]}  main {analysis.main[:10]}")
    if analysis.base:
        text.append(f"  base {analysis.base[:10]}")
    if analysis.merge:
        text.append(f"  merge {analysis.merge[:10]}")
    text.append(
        f"\n{plural(analysis.main_commits, 'commit')} from main, {plural(len(analysis.files), 'file')} "
        f"{'needs' if len(analysis.files) == 1 else 'need'} a look, "
        f"{plural(hunks, 'hunk')}{beyond}{_whole_files(analysis)}, {high} high risk\n"
    )
    return text


def _level_text(level: Level, risk: int) -> Text:
    return Text(f"{LEVEL_MARK[level]} {risk:3d}", style=LEVEL_STYLE[level])


def _hunk_line(hunk: Hunk) -> Text:
    text = Text("  ")
    text.append_text(_level_text(hunk.level, hunk.risk))
    result = hunk.result.describe() if hunk.result else "absent"
    what = "edit outside git's conflicts" if hunk.kind is HunkKind.EDIT else "hunk"
    text.append(
        f"  {what} {hunk.index + 1}: dev {hunk.dev.describe()}, main {hunk.main.describe()}, "
        f"result {result}, took {hunk.taken.value}"
    )
    return text


def _signal_line(found: Signal, indent: str) -> Text:
    """``+50 squash-counterpart: <sentence>``, the weight coloured by its direction."""
    text = Text(indent)
    text.append(f"{found.weight:+d} ", style=weight_style(found.weight))
    text.append(visible(found.kind), style="bold")
    text.append(": ")
    text.append(visible(found.message))
    return text
