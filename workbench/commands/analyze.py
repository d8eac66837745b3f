"""``workbench analyze``: the sync analysis as a table, or as JSON for bots."""

from __future__ import annotations

import argparse

from workbench.commands import add_sync_options, sync_request

HELP = "print the sync analysis (a table, or --json)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable workbench.analysis/1 JSON")
    parser.add_argument("--all", action="store_true", help="list every hunk, not only the risky ones")


def run(args: argparse.Namespace) -> int:
    import sys

    if args.json:
        from workbench.sync import analysis_json

        text = analysis_json(sync_request(args))
        if sys.stdout.isatty():  # pretty for a person at a terminal; compact for pipes and bots
            import json

            text = json.dumps(json.loads(text), indent=2)
        sys.stdout.write(text + "\n")
        return 0
    from workbench.analyze_view import print_analysis
    from workbench.sync import open_sync

    _repo, analysis = open_sync(sync_request(args))
    print_analysis(analysis, show_all=args.all)
    return 0
