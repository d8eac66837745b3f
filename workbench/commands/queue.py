"""``workbench queue``: the sync's open work as worklist items, highest first (read-only; exit 0)."""

from __future__ import annotations

import argparse

from workbench.commands.agent_args import add_agent_options, emit, request


def configure(parser: argparse.ArgumentParser) -> None:
    add_agent_options(parser)
    parser.add_argument("--all", action="store_true", help="list decided items too (default: open and partly decided)")


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.context import open_agent
    from workbench.services.agent.state import State, Views
    from workbench.services.agent.text import queue_text
    from workbench.services.agent.views import queue_json

    sync = open_agent(request(args))
    views = Views(sync).all()
    if not args.all:
        views = [v for v in views if v.state is not State.DECIDED]
    doc = queue_json(sync, views)
    emit(doc, args.json, queue_text(doc))
    return 0
