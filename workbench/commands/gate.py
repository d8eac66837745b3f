"""``workbench gate [--hook] [--advisory]``: the pre-push gate (exit 1 when it blocks, 0 when it passes).

``--hook`` reads what git's pre-push hook (or the pre-commit framework) is
pushing and gates the sync merge in each pushed commit: the newest
first-parent merge of main, with the pushed commit as the result.
``--advisory`` prints the same verdict and always exits 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from workbench.commands.agent_args import add_agent_options, emit, request


def configure(parser: argparse.ArgumentParser) -> None:
    add_agent_options(parser)
    parser.add_argument("--hook", action="store_true",
                        help="read git's pre-push input (or the pre-commit framework's) and gate the sync merge in each "
                             "pushed commit; --main names main's tip (default: the remote's main)")
    parser.add_argument("--advisory", action="store_true", help="print the verdict but always exit 0 (a trial period)")


def run(args: argparse.Namespace) -> int:
    from workbench.services.agent.jsonout import document

    if args.hook:
        results = _hook(args)
        blocked = any(r["verdict"] == "blocked" or r["verdict"] == "advisory" for r in results)
        doc = document("gate", hook=True, refs=results)
        emit(doc, args.json, "".join(_text(r) for r in results) or "workbench gate: nothing to check in this push\n")
    else:
        result = _one(request(args), args.advisory)
        blocked = result["verdict"] != "pass"
        emit(document("gate", hook=False, **result), args.json, _text(result))
    return 1 if blocked and not args.advisory else 0


def _one(req: Any, advisory: bool, ref: str | None = None) -> dict[str, Any]:
    from workbench.services.agent.api import gate_doc

    return gate_doc(req, advisory, ref)


def _hook(args: argparse.Namespace) -> list[dict[str, Any]]:
    from dataclasses import replace

    from workbench.errors import WorkbenchError
    from workbench.git.repo import GitRepo
    from workbench.services.agent.hook import pushed, remote_name
    from workbench.services.agent.locate import main_tip, sync_merge

    if args.rev or args.dev or args.result:
        raise WorkbenchError("--hook finds the sync merge in what is pushed: give no REV, --dev or --result")
    stdin = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    refs = pushed(stdin)
    if not refs:
        return []
    base = request(args)
    repo = GitRepo.open(base.repo)
    if args.main:
        main = main_tip(repo, args.main)
    else:
        try:
            main = main_tip(repo, f"refs/remotes/{remote_name()}/main")
        except WorkbenchError:
            main = main_tip(repo, None)
    results = []
    for ref in refs:
        merge = sync_merge(repo, ref.sha, main)
        if merge is None:
            continue
        req = replace(base, main=None, rev=merge, result=ref.sha if ref.sha != merge else None)
        results.append(_one(req, args.advisory, ref.local_ref))
    return results


def _text(result: dict[str, Any]) -> str:
    from workbench.textsafe import visible

    sync = result["sync"]
    where = f" ({visible(result['ref'])})" if result.get("ref") else ""
    head = (f"workbench gate{where}: merge {(sync['merge'] or '')[:10]}" if sync["merge"]
            else f"workbench gate{where}: the {sync['mode']} sync")
    if sync.get("result") and sync["result"] != sync["merge"]:
        head += f", result {sync['result'][:10]}"
    lines = [f"{head}: {result['verdict']}, {len(result['blocking'])} blocking, {len(result['for_human'])} for a person "
             f"({result['items']} items)"]
    for finding in result["blocking"]:
        item = f" [{finding['item']}]" if finding["item"] else ""
        lines.append(f"  BLOCKS {finding['rule']}{item}: {visible(finding['detail'])}")
    for finding in result["for_human"]:
        item = f" [{finding['item']}]" if finding["item"] else ""
        lines.append(f"  for a person {finding['rule']}{item}: {visible(finding['detail'])}")
    return "\n".join(lines) + "\n"
