"""``workbench report``: the sync analysis for a PR body, a CI check or the terminal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.commands import add_sync_options, sync_request
from workbench.report import DEFAULT_FORMAT, FORMATS, ReportFormat, format_help

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo
    from workbench.report.document import Report


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument(
        "--format",
        choices=[spec.format.value for spec in FORMATS],
        default=DEFAULT_FORMAT.value,
        help=format_help(),
    )
    parser.add_argument(
        "--fail-on",
        choices=("low", "medium", "high"),
        metavar="LEVEL",
        help="exit 1 when a worklist item at or above LEVEL (low, medium, high) still waits for a decision "
        "while it loses lines of dev or main, or breaks the build (an API failure, a duplicate definition, "
        "an imported deleted file, a policy rule)",
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--open", action="store_true",
                       help="with --format text: list only the items that still wait for a decision")
    shown.add_argument("--changed", action="store_true",
                       help="with --format text: list only the items a commit after the merge changed (--result)")


CACHED_FORMATS = frozenset(spec.format.value for spec in FORMATS if spec.cached)
"""Formats whose text depends on nothing but the sync (``FormatSpec.cached``)."""


def run(args: argparse.Namespace) -> int:
    import sys

    from workbench.git.types import ACKS_PATH
    from workbench.services.sync import open_sync, sync_document
    from workbench.streams import stop_writing, write_document

    if (args.open or args.changed) and args.format != "text":
        from workbench.errors import WorkbenchError

        raise WorkbenchError("--open and --changed filter the text report: add --format text")
    request = sync_request(args)
    try:
        if args.format in CACHED_FORMATS:
            # The exit status (the gate's verdict) is the document's first line.  Acknowledgements come from
            # the result commit, or from the work tree (a preview): that file is in the key.
            document = sync_document(
                request,
                "report",
                lambda repo, analysis: _document(repo, analysis, args),
                options={"format": args.format, "fail_on": args.fail_on},
                reads_outside_commits=(ACKS_PATH,),
            )
            first_line = document[0].index("\n")  # the first piece holds the status line (alone, or all the text)
            status = int(document[0][:first_line])
            write_document(document, first_line + 1, end="")
        else:
            from workbench.report.make import write_report
            from workbench.report.worklist_text import ItemFilter

            report = _report(*open_sync(request), args)
            status = _status(report)
            only = ItemFilter.OPEN if args.open else ItemFilter.CHANGED if args.changed else ItemFilter.ALL
            write_report(report, ReportFormat(args.format), sys.stdout, only)  # straight to the terminal
        sys.stdout.flush()
    except BrokenPipeError:
        stop_writing()  # the reader (`| head`) stopped: the gate's verdict stands, said quietly
    return status


def _document(repo: GitRepo, analysis: SyncAnalysis, args: argparse.Namespace) -> list[str]:
    """The exit status on the first line, then the report's text."""
    import io

    from workbench.report.make import write_report

    report = _report(repo, analysis, args)
    out = io.StringIO()
    write_report(report, ReportFormat(args.format), out)
    return [f"{_status(report)}\n", out.getvalue()]


def _report(repo: GitRepo, analysis: SyncAnalysis, args: argparse.Namespace) -> Report:
    from workbench.analysis.model import Level
    from workbench.report.make import make_report

    result = repo.resolve(args.result) if args.result else None
    fail_on = Level(args.fail_on) if args.fail_on else None
    return make_report(repo, analysis, result=result, fail_on=fail_on)


def _status(report: Report) -> int:
    return 1 if report.gate is not None and report.gate.failed else 0

