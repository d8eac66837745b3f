"""``workbench queue``: the sync's open work as worklist items, highest first (read-only; exit 0)."""

from __future__ import annotations

import argparse

from workbench.commands.agent_args import add_agent_options, emit, request


def configure(parser: argparse.ArgumentParser) -> None:
    add_agent_options(parser)
    parser.add_argument("--all", action="store_true", help="list decided items too (default: open and partly decided)")


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.api import queue_doc
    from workbench.services.agent.text import queue_text

    doc = queue_doc(request(args), args.all)
    emit(doc, args.json, queue_text(doc))
    return 0
