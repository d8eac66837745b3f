"""``workbench recall``: earlier syncs' decisions (the record in dev's history) that fit today's items, as
ready ``decide`` lines; each claim is checked now, as ``decide`` will check it again."""

from __future__ import annotations

import argparse

from workbench.commands.agent_args import add_agent_options, emit, request, rev_args


def configure(parser: argparse.ArgumentParser) -> None:
    add_agent_options(parser)


def run(args: argparse.Namespace) -> int:
    from workbench.analysis.display.safe_text import visible
    from workbench.services.agent.api import recall_doc

    doc = recall_doc(request(args), rev_args(args))
    found = doc["recalled"]
    lines = [f"{len(found)} earlier decision{'s' if len(found) != 1 else ''} fit today's open items."]
    for match in found:
        lines.append(f"# {match['item']} (members {', '.join(str(n) for n in match['members'])}): decided in "
                     f"{match['from_commit'][:10]} by {match['by']}; claim {match['claim']} {match['status']} now")
        lines.append(visible(match["command"]))
    emit(doc, args.json, "\n".join(lines) + "\n")
    return 0
