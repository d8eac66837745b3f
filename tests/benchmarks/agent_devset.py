"""The first agent scorecard: the scripted agent (no model) on the development-set syncs.

For each of #4291, #4716 and #5430 it makes the sync as a person would start it, in a private shared clone:
dev checked out, ``git merge main`` left in progress with its conflicts.  The scripted agent of
``tests/helpers/agent.py`` decides every open item with the best ready ``decide`` line of ``show`` (a claim
that checks out, else a judgement), every item of a round in one ``decide --batch``, until the queue is
empty; then the gate.  What no take fixes (an API-audit failure: code to write) it edits as an agent would,
the maintainers' shipped file standing in for its editor; the verdicts before and after are both printed.

The scorecard compares each conflict hunk the agent decided with what the maintainers shipped there
(``workbench train megatron:N --answer-key --json``: main, dev, both or other).  Run it:
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/agent_devset.py [4291 ...]
(``ANSWER_KEYS=DIR``: answer keys saved before as ``DIR/PR.json``, instead of running ``train`` for each.)
(``test_agent_devset.py`` is the same run as a slow test.)
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.agent import Agent, workbench  # noqa: E402

DEVSET = Path(os.environ.get("DEVSET", "/work/shared/eval/devset.json"))
_HELD = {"main": "main", "dev": "dev", "both": "both", "both-main-first": "both", "file-dev": "dev",
         "file-main": "main", "custom": "other", "merged": "other", "result": "other"}
"""A take, folded onto what the answer key says shipped (main, dev, both, other); ``suggested`` is folded as
what the engine suggested there (a suggestion's own kinds, a word merge or a splice, are ``other``)."""


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=check)


def syncs() -> list[dict[str, Any]]:
    return list(json.loads(DEVSET.read_text())["syncs"])


def merge_in_progress(source: str, sync: dict[str, Any], repo: Path) -> None:
    """A shared clone of ``source`` with dev checked out and ``git merge main`` stopped on its conflicts."""
    git(repo.parent, "clone", "-q", "--shared", "--no-checkout", source, str(repo))
    git(repo, "checkout", "-q", "-b", "main2dev/agent", sync["dev"])
    merged = git(repo, "merge", "-q", "--no-edit", sync["main"], check=False)
    assert merged.returncode == 1 and (repo / ".git" / "MERGE_HEAD").exists(), merged.stderr


def answer_key(source: str, pr: int) -> dict[str, Any]:
    """``train megatron:PR --answer-key --json`` (``ANSWER_KEYS``: a folder of PR.json saved from it before)."""
    saved = Path(os.environ.get("ANSWER_KEYS", "/nonexistent"), f"{pr}.json")
    if saved.is_file():
        return dict(json.loads(saved.read_text()))
    ran = workbench("train", f"megatron:{pr}", "--repo", source, "--answer-key", "--json")
    assert ran.code == 0, ran.stderr
    return dict(ran.json())


EDITED = frozenset({"api-audit", "conflict-markers", "python-syntax", "duplicate-definition", "missing-file"})
"""What the gate blocks on that no take fixes: code to write (a file the result imports but lacks, too)."""


_TWICE = re.compile(r" twice \(lines (?P<lines>[0-9, ]+)\)")


def drop_repeats(data: bytes, details: list[str]) -> bytes:
    """The file without the later definitions the findings name (``NAME twice (lines A, B)``): each later
    statement, with the attribute docstring right after it, as an editor deletes a repeated block."""
    lines = data.splitlines(keepends=True)
    later = {int(n) for d in details for found in _TWICE.finditer(d) for n in found["lines"].split(",")[1:]}
    body: list[ast.stmt] = []
    for node in ast.walk(ast.parse(data)):
        if isinstance(node, (ast.Module, ast.ClassDef)):
            body.extend(node.body)
    drop: set[int] = set()
    ordered = sorted(body, key=lambda n: n.lineno)
    for k, node in enumerate(ordered):
        if node.lineno in later:
            end = node.end_lineno or node.lineno
            after = ordered[k + 1] if k + 1 < len(ordered) else None
            if (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str) and after.lineno == end + 1):
                end = after.end_lineno or end
            if end < len(lines) and not lines[end].strip():
                end += 1  # the blank line after the block
            drop.update(range(node.lineno, end + 1))
    return b"".join(line for n, line in enumerate(lines, start=1) if n not in drop)


@dataclass
class ShippedEditor:
    """The agent's editor, played by the maintainers: each file the gate's code findings name (an API failure's
    callee's file too) is written as it shipped (``shipped``: the PR head) and staged.  Where the shipped file has
    the same duplicate definition (the maintainers shipped it), the editor does what an agent would: it deletes
    the later one (``repeats``: those files).  ``first``: the gate's verdict before it first edited."""

    shipped: str
    first: dict[str, Any] | None = None
    edited: set[str] = field(default_factory=set)
    repeats: set[str] = field(default_factory=set)

    def __call__(self, repo: Path) -> list[str]:
        verdict = workbench("gate", "--json", "--repo", str(repo)).json()
        if self.first is None:
            self.first = verdict
        written: list[str] = []
        for path in dict.fromkeys(f["path"] for f in verdict["blocking"] if f["rule"] == "duplicate-definition"):
            if path in self.edited and (repo / path).is_file():  # shipped with the duplicates: delete the later ones
                details = [f["detail"] for f in verdict["blocking"] if f["rule"] == "duplicate-definition" and f["path"] == path]
                (repo / path).write_bytes(drop_repeats((repo / path).read_bytes(), details))
                git(repo, "add", "--", path)
                self.repeats.add(path)
                written.append(path)
        named = [p for f in verdict["blocking"] if f["rule"] in EDITED for p in (f["path"], f.get("callee_path")) if p]
        for path in dict.fromkeys(named):  # an API failure's callee too: the fix may be there
            if path in written:
                continue
            found = subprocess.run(["git", "show", f"{self.shipped}:{path}"], cwd=repo, capture_output=True, check=False)
            target = repo / path
            if found.returncode == 0:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(found.stdout)
                git(repo, "add", "--", path)
            else:
                git(repo, "rm", "-q", "--ignore-unmatch", "--", path)
            self.edited.add(path)
            written.append(path)
        return written


@dataclass
class Scorecard:
    """One sync's run: what the agent decided, the gate before and after the editor, and the answer key."""

    pr: int
    agent: Agent
    seconds: float
    before: dict[str, Any]
    after: dict[str, Any]
    edited: set[str]
    key: dict[str, Any]
    repeats: set[str] = field(default_factory=set)
    """Files whose shipped version had the duplicate too: the editor deleted the later definitions."""
    counts: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        shipped = {(h["path"], h["index"]): h["shipped"] for h in self.key["hunks"]}
        seen: dict[tuple[str, int], str] = {}
        for answer in self.agent.decided:
            for member in answer["members"]:
                if member["hunk"] is not None:
                    ref = (member["path"], member["hunk"])
                    take = self.agent.suggestions.get(ref, "") if answer["take"] == "suggested" else answer["take"]
                    seen[ref] = _HELD.get(take, "other")
        self.counts["key"] = len(shipped)
        for ref, choice in seen.items():
            if ref in shipped:
                self.counts["decided"] += 1
                self.counts["equal"] += choice == shipped[ref]
                self.counts[f"{choice}->{shipped[ref]}"] += 1

    @property
    def claims(self) -> Counter[str]:
        return Counter(f"{a['claim']['claim']} ({a['claim']['status']})" for a in self.agent.decided)

    @property
    def members(self) -> int:
        return sum(len(a["members"]) for a in self.agent.decided)

    @property
    def rate(self) -> float:
        return self.counts["equal"] / self.counts["decided"] if self.counts["decided"] else 0.0

    def lines(self) -> list[str]:
        def rules(verdict: dict[str, Any]) -> str:
            found = Counter(f["rule"] for f in verdict["blocking"])
            return f"{sum(found.values())} blocking {dict(found)}" if found else "0 blocking"

        return [
            f"#{self.pr}: {len(self.agent.decided)} decisions ({self.members} members) in {self.agent.rounds} rounds, "
            f"{self.agent.batches} batches, {len(self.agent.refused)} refused lines, {self.seconds:.0f} s",
            "   by claim: " + ", ".join(f"{k} {v}" for k, v in sorted(self.claims.items())),
            f"   gate after the first round: {self.before['verdict']}, {rules(self.before)}; at the end, the editor "
            f"having written {len(self.edited)} files as shipped (deleting repeated definitions in {len(self.repeats)}), "
            f"another take having fixed {len(self.agent.repaired)} items' code facts: {self.after['verdict']}, "
            f"{rules(self.after)}; {len(self.after['for_human'])} listed for a person",
            f"   answer key: {self.counts['decided']} of {self.counts['key']} conflict hunks decided, "
            f"{self.counts['equal']} equal to what shipped ({self.rate:.0%}); "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()) if "->" in k),
            *(f"   still blocking: {f['rule']} {f['path']}: {f['detail'][:160]}" for f in self.after["blocking"]),
        ]


def run_sync(source: str, sync: dict[str, Any], scratch: Path, rounds: int = 4) -> Scorecard:
    """The scripted agent on one sync, started as a merge in progress in ``scratch``."""
    key = answer_key(source, int(sync["pr"]))
    repo = scratch / f"meg-{sync['pr']}"
    merge_in_progress(source, sync, repo)
    started = time.monotonic()
    editor = ShippedEditor(sync["pr_head"])
    agent = Agent(repo, fix=editor, batch=True)
    after = agent.finish(commit=False, rounds=rounds)
    seconds = time.monotonic() - started
    return Scorecard(int(sync["pr"]), agent, seconds, editor.first or after, after, editor.edited, key, editor.repeats)


def main(argv: list[str]) -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT not set: skipping the development set")
        return 0
    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="workbench-devset-cache-"))
    wanted = {int(a) for a in argv if a.isdigit()} or {int(s["pr"]) for s in syncs()}
    for sync in syncs():
        if int(sync["pr"]) in wanted:
            with tempfile.TemporaryDirectory(prefix="workbench-devset-") as scratch:
                print("\n".join(run_sync(source, sync, Path(scratch)).lines()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
