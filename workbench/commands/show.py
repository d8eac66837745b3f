"""``workbench show ID``: one item in full, with the exact ``decide`` command for each choice."""

from __future__ import annotations

import argparse

from workbench.commands.agent_args import add_agent_options, emit, request, rev_args


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the item's id, as `workbench queue` lists it")
    add_agent_options(parser)


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.api import show_doc
    from workbench.services.agent.text import show_text

    doc = show_doc(request(args), args.id, rev_args(args))
    emit(doc, args.json, show_text(doc))
    return 0
