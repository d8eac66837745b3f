"""``workbench queue``: the sync's open work as worklist items, highest first (read-only; exit 0)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from workbench.commands.agent_args import add_agent_options, request

if TYPE_CHECKING:
    from workbench.git.repo import GitRepo
    from workbench.services.agent.warm import Reads


def configure(parser: argparse.ArgumentParser) -> None:
    add_agent_options(parser)
    parser.add_argument("--all", action="store_true", help="list decided items too (default: open and partly decided)")


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.warm import warm_output

    given = request(args)

    def make(reads: Reads) -> tuple[str, GitRepo]:
        from workbench.commands.agent_args import rendered
        from workbench.services.agent.api import queue_of
        from workbench.services.agent.context import open_agent
        from workbench.services.agent.text import queue_text

        sync = open_agent(given, reads=reads)
        doc = queue_of(sync, args.all)
        return rendered(doc, args.json, queue_text), sync.repo

    sys.stdout.write(warm_output(given, "queue", {"all": args.all, "json": args.json}, make))
    return 0
