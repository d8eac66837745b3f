"""``workbench show ID``: one item in full, with the exact ``decide`` command for each choice."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from workbench.commands.agent_args import add_agent_options, request, rev_args

if TYPE_CHECKING:
    from workbench.git.repo import GitRepo
    from workbench.services.agent.warm import Reads


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the item's id, as `workbench queue` lists it")
    add_agent_options(parser)


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.warm import warm_output

    given, repeated = request(args), rev_args(args)

    def make(reads: Reads) -> tuple[str, GitRepo]:
        from workbench.commands.agent_args import rendered
        from workbench.services.agent.api import show_of
        from workbench.services.agent.context import open_agent
        from workbench.services.agent.text import show_text

        sync = open_agent(given, reads=reads)
        doc = show_of(sync, args.id, repeated)
        return rendered(doc, args.json, show_text), sync.repo

    options = {"id": args.id, "rev_args": repeated, "json": args.json}
    sys.stdout.write(warm_output(given, "show", options, make))
    return 0
