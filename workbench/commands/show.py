"""``workbench show ID``: one item in full, with the exact ``decide`` command for each choice."""

from __future__ import annotations

import argparse

from workbench.commands.agent_args import add_agent_options, emit, request, rev_args


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the item's id, as `workbench queue` lists it")
    add_agent_options(parser)


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.context import open_agent
    from workbench.services.agent.state import Views
    from workbench.services.agent.text import show_text
    from workbench.services.agent.views import find, show_json

    sync = open_agent(request(args))
    views = Views(sync)
    item = find(sync, args.id)
    doc = show_json(sync, views, views.view(item), rev_args(args))
    emit(doc, args.json, show_text(doc))
    return 0
