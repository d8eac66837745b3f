"""``workbench report``: the sync analysis for a PR body, a CI check or the terminal."""

from __future__ import annotations

import argparse

from workbench.commands import add_sync_options, sync_request

HELP = "report on the sync for its PR (md), bots (json), a terminal (text) or CI (github)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument(
        "--format",
        choices=("md", "json", "text", "github"),
        default="md",
        help="md: paste-ready PR body (default); json: workbench.report/1; "
        "text: for a terminal; github: workflow annotations",
    )
    parser.add_argument(
        "--fail-on",
        choices=("low", "medium", "high"),
        metavar="LEVEL",
        help="exit 1 when a hunk at or above LEVEL (low, medium, high) is still open: "
        "undecided in the app and main's text still in the result",
    )


def run(args: argparse.Namespace) -> int:
    import sys

    from workbench.analysis.model import Level
    from workbench.report import make_report, write_report
    from workbench.streams import stop_writing
    from workbench.sync import open_sync

    repo, analysis = open_sync(sync_request(args))
    result = repo.resolve(args.result) if args.result else None
    fail_on = Level(args.fail_on) if args.fail_on else None
    report = make_report(repo, analysis, result=result, fail_on=fail_on)
    status = 1 if report.gate is not None and report.gate.failed else 0
    try:
        write_report(report, args.format, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        stop_writing()  # the reader (`| head`) stopped: the gate's verdict stands, said quietly
    return status

