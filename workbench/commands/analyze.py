"""``workbench analyze``: the sync analysis as a table, or as JSON for bots."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.commands import add_sync_options, sync_request

if TYPE_CHECKING:
    from workbench.sync import SyncRequest

HELP = "print the sync analysis (a table, or --json)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable workbench.analysis/1 JSON")
    parser.add_argument("--all", action="store_true", help="list every hunk, not only the risky ones")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from workbench.sync import analysis_json, open_sync

    pretty = 2 if sys.stdout.isatty() else None  # pretty for a person at a terminal; compact for pipes and bots
    request = sync_request(args)
    if args.json and request.result is None and not _has_journal(request):
        # Nothing the app decided, and no commit after the merge, can change the document
        # (``with_provenance`` would leave it as it is): the cached JSON text serves as it is.
        text = analysis_json(request)
        sys.stdout.write((json.dumps(json.loads(text), indent=pretty) if pretty else text) + "\n")
        return 0
    from workbench.resolve.provenance import with_provenance

    repo, analysis = open_sync(request)
    analysis = with_provenance(repo, analysis)  # files the app decided keep their evidence and say so
    if args.json:
        from workbench.analysis.serialize import analysis_to_json

        sys.stdout.write(json.dumps(analysis_to_json(analysis), indent=pretty) + "\n")
    else:
        from workbench.analyze_view import print_analysis

        print_analysis(analysis, show_all=args.all)
    return 0


def _has_journal(request: SyncRequest) -> bool:
    """Whether the repository keeps any decision journal (whose written files would change the analysis)."""
    from workbench.git.repo import GitRepo
    from workbench.resolve.journal import journals_exist

    return journals_exist(GitRepo.open(request.repo).gitdir)
