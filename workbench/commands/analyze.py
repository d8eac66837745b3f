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
    from workbench.sync import open_sync

    from workbench.resolve.provenance import with_provenance

    repo, analysis = open_sync(sync_request(args))
    analysis = with_provenance(repo, analysis)  # files the app decided keep their evidence and say so
    if args.json:
        import json
        import sys

        from workbench.analysis.serialize import analysis_to_json

        data = analysis_to_json(analysis)
        # Pretty for a person at a terminal; compact (C-speed) for pipes and bots.
        indent = 2 if sys.stdout.isatty() else None
        sys.stdout.write(json.dumps(data, indent=indent) + "\n")
    else:
        from workbench.analyze_view import print_analysis

        print_analysis(analysis, show_all=args.all)
    return 0
