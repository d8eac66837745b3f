"""``workbench decide ID... --take T --claim K --reason TEXT``: decide items with a claim checked first.

Exit 0 when decided (or a dry run), 1 when the claim is contradicted or the
writer refuses a file (nothing is written), 2 for bad input.  ``--batch
FILE`` reads one JSON request per line (``-`` for stdin) and prints one JSON
answer per line; every request is checked as input before any is applied.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from workbench.commands.agent_args import add_agent_options, dumps, split_targets

if TYPE_CHECKING:
    from workbench.services.agent.decide import DecideRequest

TAKES = ("main", "dev", "both", "both-main-first", "merged", "result", "file-main", "file-dev", "custom", "suggested")
CLAIMS = ("intentional-removal", "superseded", "moved", "policy", "restored", "judgement")
_BATCH_KEYS = frozenset({"id", "ids", "take", "claim", "evidence", "reason", "text", "text_file", "dry_run"})


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("positionals", nargs="*", metavar="ID",
                        help="items (KIND-hex, as queue lists them) or members (ID:N); then optionally the sync's REV")
    add_agent_options(parser, rev=False)
    parser.add_argument("--take", choices=TAKES, metavar="TAKE", help="what to keep: " + ", ".join(TAKES))
    parser.add_argument("--text-file", metavar="F", help="--take custom: the text to put in place of the hunk (- for stdin)")
    parser.add_argument("--claim", choices=CLAIMS, metavar="CLAIM",
                        help="why what stays lost may be lost: " + ", ".join(CLAIMS) + " (checked before anything is written)")
    parser.add_argument("--evidence", nargs="+", action="extend", default=[], metavar="E",
                        help="what the claim cites: commit ids (intentional-removal), PATH:LINE places (moved)")
    parser.add_argument("--reason", metavar="TEXT", help="why, in words (recorded for reviewers)")
    parser.add_argument("--dry-run", action="store_true", help="check and answer, write nothing")
    parser.add_argument("--batch", metavar="FILE", help="one JSON request per line (- for stdin): "
                        '{"id": ID or "ids": [...], "take", "claim", "evidence": [...], "reason", "text" or "text_file", '
                        '"dry_run"}; one JSON answer per line out')


def run(args: argparse.Namespace) -> int:
    from workbench.commands.agent_args import rendered, request
    from workbench.errors import WorkbenchError
    from workbench.services.agent.api import decide_doc, decide_docs
    from workbench.services.agent.decide import refused_status

    ids, args.rev = split_targets(args.positionals)
    if args.batch is not None:
        if ids or args.take or args.claim or args.reason or args.evidence or args.text_file:
            raise WorkbenchError("--batch reads every request from FILE: give no ID, --take, --claim or --reason")
        requests = [_request(spec, n) for n, spec in enumerate(_batch_lines(args.batch), start=1)]
    else:
        requests = [_request({"ids": ids, "take": args.take, "claim": args.claim, "evidence": args.evidence,
                              "reason": args.reason, "text_file": args.text_file, "dry_run": args.dry_run}, 0)]
    answers = decide_docs(request(args), requests, numbered=args.batch is not None)
    if args.batch is not None:
        for n, answer in enumerate(answers, start=1):
            sys.stdout.write(dumps(decide_doc(answer, n)) + "\n")
    else:
        sys.stdout.write(rendered(decide_doc(answers[0]), args.json, lambda _doc: _text(answers[0].to_json())))
    return refused_status(answers)


def _batch_lines(source: str) -> list[dict[str, Any]]:
    import json

    from workbench.errors import WorkbenchError

    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()  # noqa: SIM115
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkbenchError(f"cannot read --batch {source}: {exc}") from None
    found: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            spec = json.loads(line)
        except ValueError as exc:
            raise WorkbenchError(f"--batch line {n} is not JSON: {exc}") from None
        if not isinstance(spec, dict):
            raise WorkbenchError(f"--batch line {n} is not a JSON object")
        unknown = sorted(set(spec) - _BATCH_KEYS)
        if unknown:
            raise WorkbenchError(f"--batch line {n} has unknown keys: {', '.join(unknown)}")
        found.append(spec)
    if not found:
        raise WorkbenchError("--batch has no request")
    return found


def _request(spec: dict[str, Any], line: int) -> DecideRequest:
    from workbench.errors import WorkbenchError
    from workbench.resolve.claims import ClaimKind
    from workbench.services.agent.decide import DecideRequest, run_id
    from workbench.services.agent.takes import Take

    where = f"line {line}: " if line else ""
    ids = spec.get("ids") if spec.get("ids") is not None else ([spec["id"]] if spec.get("id") is not None else [])
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise WorkbenchError(f"{where}name the items to decide (ID, or ID:N for one member)")
    take, claim, reason = spec.get("take"), spec.get("claim"), spec.get("reason")
    if take not in TAKES:
        raise WorkbenchError(f"{where}--take is one of {', '.join(TAKES)}")
    if claim not in CLAIMS:
        raise WorkbenchError(f"{where}--claim is one of {', '.join(CLAIMS)}")
    if not isinstance(reason, str) or not reason.strip():
        raise WorkbenchError(f"{where}--reason must say why (it is what reviewers read)")
    evidence = spec.get("evidence") or []
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise WorkbenchError(f"{where}evidence is a list of strings")
    text = _text_of(spec, where)
    if (take == "custom") != (text is not None):
        raise WorkbenchError(f"{where}--take custom, and only it, takes --text-file")
    return DecideRequest(tuple(ids), Take(take), ClaimKind(claim), reason, tuple(evidence), text,
                         bool(spec.get("dry_run")), run_id())


def _text_of(spec: dict[str, Any], where: str) -> bytes | None:
    from workbench.errors import WorkbenchError

    if isinstance(spec.get("text"), str):
        return str(spec["text"]).encode("utf-8")
    source = spec.get("text_file")
    if source is None:
        return None
    if not isinstance(source, str):
        raise WorkbenchError(f"{where}text_file is a path")
    try:
        if source == "-":
            return sys.stdin.buffer.read()
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise WorkbenchError(f"{where}cannot read --text-file {source}: {exc.strerror or exc}") from None


def _text(answer: dict[str, Any]) -> str:
    from workbench.textsafe import visible

    claim = answer["claim"]
    lines = []
    targets = ", ".join(answer["targets"])
    if answer["outcome"] == "refused":
        lines.append(f"refused {targets}: {visible(answer['refusal'])}. Nothing was written.")
    else:
        verb = "would decide" if answer["outcome"] == "dry-run" else "decided"
        lines.append(f"{verb} {targets}: take {answer['take']}, claim {claim['claim']} {claim['status']} "
                     f"({visible(claim['reason'])})")
    lost = answer["still_lost"]
    lines.append(f"still lost: {lost['dev']} of dev's lines, {lost['main']} of main's")
    for finding in answer["findings"]:
        lines.append(f"new finding: {visible(finding['detail'])}")
    for path in answer.get("pending", []):
        lines.append(f"{visible(path)}: journaled; it is written once its other conflicts are decided")
    for message in answer["message"]:
        lines.append(visible(message))
    if answer["record"]:
        lines.append(f"recorded in {visible(answer['record'])}: commit it with the sync")
    return "\n".join(lines) + "\n"
