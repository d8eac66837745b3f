"""``workbench analyze``: the sync analysis as a table, or as JSON for bots."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.commands import add_sync_options, sync_request

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable workbench.analysis/1 JSON")
    parser.add_argument("--pretty", action="store_true",
                        help="with --json: indented, one field a line (the default on a terminal; compact when piped)")
    parser.add_argument("--all", action="store_true", help="list every hunk, not only the risky ones")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from workbench.errors import WorkbenchError
    from workbench.services.sync import open_sync, sync_document
    from workbench.streams import write_document

    if args.pretty and not args.json:
        raise WorkbenchError("--pretty goes with --json")
    pretty = args.pretty or sys.stdout.isatty()  # pretty for a person at a terminal; compact for pipes and bots
    request = sync_request(args)
    if args.json:
        pieces = sync_document(request, "analyze-json", _document)  # a warm run reads it back as it is
        write_document([json.dumps(json.loads("".join(pieces)), indent=2)] if pretty else pieces)
        return 0
    from workbench.report.listing import print_analysis
    from workbench.resolve.provenance import with_provenance

    repo, analysis = open_sync(request)
    print_analysis(with_provenance(repo, analysis), show_all=args.all)  # files the app decided keep their evidence
    return 0


def _document(repo: GitRepo, analysis: SyncAnalysis) -> list[str]:
    """The ``workbench.analysis/1`` document as compact JSON, files the app decided with their evidence."""
    from workbench.analysis.serialize import analysis_json_text
    from workbench.resolve.provenance import with_provenance

    return analysis_json_text(with_provenance(repo, analysis))
