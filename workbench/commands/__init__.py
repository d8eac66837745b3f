"""One module per CLI command: ``configure(parser)`` and ``run(args) -> int``.

Modules import heavy dependencies inside ``run`` so ``workbench --help`` and
the other commands start fast.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.services.sync import SyncRequest


def add_sync_options(parser: argparse.ArgumentParser) -> None:
    """The options every command that reads a sync shares (same names everywhere)."""
    parser.add_argument("rev", nargs="?", metavar="REV", help="a sync merge commit (default: the merge in progress)")
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the one containing the current directory)")
    parser.add_argument("--dev", metavar="A", help="preview: dev tip (with --main)")
    parser.add_argument("--main", metavar="B", help="preview: main tip (with --dev)")
    parser.add_argument("--result", metavar="R", help="take the result from commit R (e.g. the sync PR head) instead of REV")
    parser.add_argument("--policy", metavar="NAME", help="sync policy preset or file (default: the repository's configuration)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the analysis cache")


def sync_request(args: argparse.Namespace) -> SyncRequest:
    """The SyncRequest the shared options describe."""
    from workbench.git.runner import honoured_repository
    from workbench.services.sync import SyncRequest

    return SyncRequest(
        repo=honoured_repository(args.repo), rev=args.rev, dev=args.dev, main=args.main, result=args.result, policy=args.policy,
        cache=not args.no_cache,
    )
