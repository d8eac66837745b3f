"""``workbench ack``: acknowledge a risky hunk ("reviewed, keep it this way") so the CI gate accepts it.

Writes ``.workbench/acks.toml`` at the top of the work tree (commit it with
the PR); ``report --fail-on`` then does not fail on that hunk and every report
says it was acknowledged, by whom and why.
"""

from __future__ import annotations

import argparse
import sys

from workbench.commands import add_sync_options, sync_request

DECISIONS = ("main", "dev", "both", "both-main-first", "custom", "result", "merged")


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument("--file", required=True, metavar="PATH", help="the file of the hunk (as analyze lists it)")
    parser.add_argument("--hunk", required=True, type=int, metavar="N", help="the hunk's number in the file (1 = first)")
    parser.add_argument("--reason", required=True, metavar="TEXT", help="why it is right as it is (shown in reports)")
    parser.add_argument("--decision", choices=DECISIONS, metavar="CHOICE",
                        help="what is kept: main, dev, both, both-main-first or custom; for an edit outside git's conflicts "
                             "also result or merged (default: what the result holds)")


def run(args: argparse.Namespace) -> int:
    from workbench.analysis.model import HunkKind
    from workbench.errors import WorkbenchError
    from workbench.resolve.acks import Ack, fingerprint, held_choice, hunk_holds, now_iso, record_ack, who_am_i
    from workbench.resolve.splice import Choice
    from workbench.services.sync import open_sync
    from workbench.textsafe import visible

    if not args.reason.strip():
        raise WorkbenchError("--reason must say why (it is what reviewers and CI read)")
    repo, analysis = open_sync(sync_request(args))
    if repo.workdir is None:
        raise WorkbenchError("acknowledgements are written to the work tree, and this repository has none")
    entry = analysis.file(args.file)
    if entry is None:
        raise WorkbenchError(f"{args.file} has no hunks in this sync (see `workbench analyze`)")
    hunks = entry.all_hunks
    if not 1 <= args.hunk <= len(hunks):
        raise WorkbenchError(f"{args.file} has {len(hunks)} hunk(s): --hunk goes from 1 to {len(hunks)}")
    hunk = hunks[args.hunk - 1]
    if args.decision in ("result", "merged") and hunk.kind is not HunkKind.EDIT:
        raise WorkbenchError(f"hunk {args.hunk} of {args.file} is one of git's conflicts: "
                             f"--decision {args.decision} is for edits outside them")
    decision = Choice(args.decision) if args.decision else held_choice(hunk)
    if decision is None:
        raise WorkbenchError(f"hunk {args.hunk} of {args.file} is still conflicted: decide it, or give --decision")
    ack = Ack(entry.path, fingerprint(entry.path, hunk), decision, args.reason.strip(), who_am_i(repo), now_iso())
    target = record_ack(repo.workdir, ack)
    print(f"acknowledged hunk {args.hunk} of {visible(entry.path)} ({hunk.level.value} risk {hunk.risk}): "
          f"keep {decision.value}. Commit {visible(str(target.relative_to(repo.workdir)))} with the PR.")
    if not hunk_holds(hunk, decision):
        print(f"workbench: note: hunk {args.hunk} of {visible(entry.path)} holds {_HELD[hunk.taken]}, not "
              f"{decision.value}: `report --fail-on` keeps it open until the file holds it", file=sys.stderr)
    return 0


_HELD = {"main": "main's text", "dev": "dev's text", "both": "both sides", "other": "an edit of its own",
         "unresolved": "conflict markers"}
