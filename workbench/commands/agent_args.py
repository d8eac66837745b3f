"""What the agent's commands (queue, show, decide, gate, recall) share: the sync options, ``--json``, printing."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from workbench.commands import add_sync_options, sync_request

if TYPE_CHECKING:
    from workbench.services.sync import SyncRequest

ITEM_ID = re.compile(r"^[a-z][a-z-]*-[0-9a-f]{8,10}(:[0-9]+)?$")
"""An item id (``KIND-hex``, a prefix of its hex) or a member of one (``ID:N``)."""


def add_agent_options(parser: argparse.ArgumentParser, *, rev: bool = True) -> None:
    """The sync options and ``--json``; ``rev=False`` leaves REV to the command's own positionals."""
    if rev:
        add_sync_options(parser)
    else:
        parser.add_argument("--repo", metavar="PATH", help="repository (default: the one containing the current directory)")
        parser.add_argument("--dev", metavar="A", help="preview: dev tip (with --main)")
        parser.add_argument("--main", metavar="B", help="preview: main tip (with --dev)")
        parser.add_argument("--result", metavar="R", help="take the result from commit R (e.g. the sync PR head) instead "
                            "of REV")
        parser.add_argument("--policy", metavar="NAME", help="sync policy preset or file (default: the repository's "
                            "configuration)")
        parser.add_argument("--no-cache", action="store_true", help="neither read nor write the analysis cache")
    parser.add_argument("--json", action="store_true", help="print workbench.agent/1 JSON (repository text in the "
                        "fields its untrusted_fields names)")


def request(args: argparse.Namespace) -> SyncRequest:
    return sync_request(args)


def rev_args(args: argparse.Namespace) -> list[str]:
    """The situation options as given, for the commands printed back (``show``'s ready ``decide`` lines)."""
    found: list[str] = []
    if args.rev:
        found.append(args.rev)
    for flag, value in (("--dev", args.dev), ("--main", args.main), ("--result", args.result),
                        ("--policy", args.policy), ("--repo", args.repo)):
        if value:
            found += [flag, value]
    return found


def emit(doc: dict[str, Any], as_json: bool, text: str) -> None:
    """The document as JSON or its text, on stdout."""
    sys.stdout.write(rendered(doc, as_json, lambda _doc: text))


def rendered(doc: dict[str, Any], as_json: bool, text: Callable[[dict[str, Any]], str]) -> str:
    """What ``emit`` prints: the document as JSON, or ``text(doc)``."""
    from workbench.analysis.serialize import strict_json

    return strict_json(doc) + "\n" if as_json else text(doc)


def split_targets(positionals: list[str]) -> tuple[list[str], str | None]:
    """``ID... [REV]``: the item ids (and members) among the positionals, and at most one other, the sync's REV."""
    from workbench.errors import WorkbenchError

    ids = [p for p in positionals if ITEM_ID.match(p)]
    rest = [p for p in positionals if not ITEM_ID.match(p)]
    if len(rest) > 1:
        raise WorkbenchError(f"{rest[0]!r} and {rest[1]!r} are not item ids, and only one REV can be given")
    return ids, (rest[0] if rest else None)


def dumps(doc: dict[str, Any]) -> str:
    """One JSON line (``--batch``'s answers)."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def situation_args(repo: str | None, rev: str | None, result: str | None, policy: str | None, dev: str | None,
                   main: str | None) -> tuple[SyncRequest, list[str]]:
    """The request the situation options name, and the options as given (the MCP tools' arguments)."""
    given = argparse.Namespace(repo=repo, rev=rev, dev=dev, main=main, result=result, policy=policy, no_cache=False)
    return sync_request(given), rev_args(given)


def version() -> str:
    """The installed workbench's version (the guide and the MCP server name it)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("workbench")
    except PackageNotFoundError:
        return "0+unknown"
