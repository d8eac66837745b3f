"""A scripted sync agent (no model): it reads ``queue``, decides every item with the claim the evidence supports,
and runs ``gate``, through the real command line (in this process, so a test runs in seconds).

Its policy ranks the ready ``decide`` lines ``show`` hands out: the engine's suggestion first, then a take whose
claim rests on evidence, a side that loses nothing, both sides only where they add different things, then a
judgement; a refused line (a contradicted claim, a file the writer refuses) makes it try the next.  A code fact
the gate blocks on (an API failure, a duplicate definition) it first tries to fix with the item's other takes;
what no take fixes it fixes the way an agent edits code: ``fix(repo)`` stands in for its editor.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.cli import main
from workbench.sample import SampleSync


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def workbench(*args: str, stdin: str | None = None) -> Run:
    """``workbench ARGS`` in this process (argparse's own exits, ``--help`` and usage errors, included)."""
    import sys

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.stdin = saved
    return Run(code, out.getvalue(), err.getvalue())


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def one_file_merge(repo: Path, path: str, base: str, dev: str, main: str,
                   messages: tuple[str, str] = ("dev (#2)", "main (#3)")) -> None:
    """A new repository at ``repo``: ``path`` at ``base``, changed to ``dev`` on dev and ``main`` on main (commit
    subjects ``messages``), and dev's merge of main stopped on its conflicts."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / path).write_text(base)
    git(repo, "add", path)
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "dev")
    (repo / path).write_text(dev)
    git(repo, "commit", "-q", "-am", messages[0])
    git(repo, "checkout", "-q", "main")
    (repo / path).write_text(main)
    git(repo, "commit", "-q", "-am", messages[1])
    git(repo, "checkout", "-q", "dev")
    subprocess.run(["git", "merge", "-q", "main"], cwd=repo, capture_output=True, check=False)  # stops on conflicts


REPAIRABLE = frozenset({"api-audit", "duplicate-definition"})
"""Code facts the gate blocks on that another take may fix, before an editor writes code."""
_EVIDENCE = frozenset({"intentional-removal", "superseded", "moved", "policy"})
"""Claims that rest on evidence (a commit, a place, a policy), not on nothing being lost."""


def _tier(command: dict[str, Any]) -> int:
    """The engine's suggestion with a verified claim; a side or the kept result with evidence; a side that loses
    nothing; the suggestion on a judgement; both sides where they add different things (``restored`` holds only
    there); then judgements."""
    take, claim, verified = command["take"], command["claim"], command["status"] == "verified"
    both = take.startswith("both")
    if take == "suggested":
        return 0 if verified else 3
    if verified and not both:
        return 1 if claim in _EVIDENCE else 2
    return 4 if verified else 5


def _priced(detail: dict[str, Any]) -> dict[str, int]:
    """What each take that applies to a ``show``n item loses, in lines of both sides (``_ranked``'s ties)."""
    return {c["take"]: sum(c["lost_lines"].values()) for c in detail["choices"] if c["applies"]}


def _ranked(commands: list[dict[str, Any]], lost: dict[str, int] | None = None,
            first: str | None = None) -> list[dict[str, Any]]:
    """``first`` (a take) first when given; then by ``_tier``; ties: a kept result first, then the take that loses
    fewest lines (``lost``, the item's priced choices), a side before both."""
    priced = lost or {}

    def key(c: dict[str, Any]) -> tuple[int, int, int, int, int]:
        return (0 if c["take"] == first else 1, _tier(c), 0 if c["take"] == "result" else 1, priced.get(c["take"], 0),
                1 if c["take"].startswith("both") else 0)

    return sorted(commands, key=key)


def batch_request(command: str) -> dict[str, Any]:
    """A ready ``workbench decide ...`` line of ``show`` as one ``--batch`` request (its situation options dropped:
    the batch names the sync once)."""
    argv = shlex.split(command)[2:]
    request: dict[str, Any] = {"ids": []}
    flags = {"--take": "take", "--claim": "claim", "--reason": "reason"}
    skip = {"--repo", "--result", "--dev", "--main", "--policy"}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in flags:
            request[flags[word]] = argv[i + 1]
            i += 2
        elif word in skip:
            i += 2
        elif word == "--evidence":
            i += 1
            while i < len(argv) and not argv[i].startswith("--"):
                request.setdefault("evidence", []).append(argv[i])
                i += 1
        else:
            request["ids"].append(word)
            i += 1
    return request


@dataclass
class Agent:
    repo: Path
    fix: Callable[[Path], Iterable[str] | None] | None = None
    """The agent's editor, for what no take fixes; it may return the paths it wrote (then kept: see ``edited``)."""
    decided: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    rounds: int = 0
    batch: bool = False
    """Decide through ``decide --batch`` (one analysis per batch) instead of one command per item."""
    batches: int = 0
    edited: set[str] = field(default_factory=set)
    """Files the editor wrote: the agent keeps what they hold (``--take result``) when it decides their items."""
    requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each decided item's ``--batch`` request, as last decided."""
    repaired: set[str] = field(default_factory=set)
    """Items whose code fact (an API failure, a duplicate definition) another take fixed (``repair``)."""
    suggestions: dict[tuple[str, int], str] = field(default_factory=dict)
    """What the engine suggests for each hunk it suggests something for (``suggestion.take`` of the queue): what a
    ``suggested`` take put there."""

    def opts(self) -> list[str]:
        return ["--repo", str(self.repo)]

    def decide_all(self) -> int:
        """One pass over the open queue; how many items it decided."""
        return self.decide_batched() if self.batch else self.decide_each()

    def plans(self) -> list[list[dict[str, Any]]]:
        """Each open item's ready ``decide`` lines (of ``show``), best first."""
        queue = workbench("queue", "--json", *self.opts())
        assert queue.code == 0, queue.stderr
        found: list[list[dict[str, Any]]] = []
        for item in queue.json()["items"]:
            for m in item["members"]:
                if m["hunk"] is not None and m.get("suggestion"):
                    self.suggestions[(m["path"], m["hunk"])] = m["suggestion"]["take"]
            shown = workbench("show", item["id"], "--json", *self.opts())
            assert shown.code == 0, shown.stderr
            detail = shown.json()["item"]
            lost = _priced(detail)
            edited = bool(self.edited) and {m["path"] for m in item["members"]} <= self.edited
            first = "result" if edited else None
            found.append(_ranked(detail["commands"], lost, first))
        return found

    def decide_each(self) -> int:
        done = 0
        for commands in self.plans():
            for command in commands:
                argv = shlex.split(command["command"])[1:]
                if "--repo" not in argv:
                    argv += self.opts()
                ran = workbench(*argv, "--json")
                assert ran.code in (0, 1), (argv, ran.code, ran.stderr)
                if ran.code == 0:
                    self.decided.append(ran.json())
                    done += 1
                    break
                self.refused.append(ran.json()["refusal"])
        return done

    def _batch(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One ``decide --batch``: an answer per request."""
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
            handle.write("".join(json.dumps(r) + "\n" for r in requests))
        try:
            ran = workbench("decide", "--batch", handle.name, *self.opts())
        finally:
            Path(handle.name).unlink()
        self.batches += 1
        assert ran.code in (0, 1), (ran.code, ran.stderr)
        answers = [json.loads(line) for line in ran.stdout.splitlines()]
        assert len(answers) == len(requests), ran.stdout
        return answers

    def _keep(self, answer: dict[str, Any], request: dict[str, Any]) -> None:
        """A decided answer that replaces its items' earlier decisions (all their members: ``repair`` names items)."""
        items = set(answer["items"])
        self.decided = [a for a in self.decided if not items & set(a["items"])] + [answer]
        for item in items:
            self.requests[item] = request

    def decide_batched(self) -> int:
        """Every open item's best line in one ``decide --batch`` (one analysis for many decisions); the items it
        refuses go again with their next line, in another batch."""
        pending = [[batch_request(c["command"]) for c in commands] for commands in self.plans()]
        pending = [p for p in pending if p]
        done = 0
        while pending:
            answers = self._batch([p[0] for p in pending])
            again: list[list[dict[str, Any]]] = []
            for plan, answer in zip(pending, answers, strict=True):
                if answer["outcome"] == "decided":
                    self.decided.append(answer)
                    self.requests.update(dict.fromkeys(answer["items"], plan[0]))
                    done += 1
                else:
                    self.refused.append(answer["refusal"])
                    if plan[1:]:
                        again.append(plan[1:])
            pending = again
        return done

    def _facts(self) -> set[str]:
        """The items the gate names for a code fact a take may fix (``REPAIRABLE``)."""
        verdict = workbench("gate", "--json", *self.opts()).json()
        return {f["item"] for f in verdict["blocking"] if f["rule"] in REPAIRABLE and f["item"]}

    def repair(self, tries: int = 3) -> None:
        """Code facts a take may fix (an API failure where one side's code fits, a duplicate a take made): each such
        item's other lines are tried, best first, one batch for all the items at a time, and a line is kept where
        the gate no longer names the item; an item no line fixes gets its first decision back (its editor's work)."""
        failing = self._facts()
        if not failing:
            return
        first = {item: self.requests[item] for item in failing if item in self.requests}
        plans: dict[str, list[dict[str, Any]]] = {}
        for item in failing:
            shown = workbench("show", item, "--json", *self.opts())
            if shown.code != 0:
                continue
            detail = shown.json()["item"]
            lost = _priced(detail)
            taken = first[item]["take"] if item in first else ""
            lines = [c for c in _ranked(detail["commands"], lost) if c["take"] not in ("result", taken)]
            plans[item] = [batch_request(c["command"]) for c in lines[:tries]]
        while plans:
            trying = {item: lines.pop(0) for item, lines in plans.items() if lines}
            if not trying:
                break
            answers = dict(zip(trying, self._batch(list(trying.values())), strict=True))
            failing = self._facts()
            for item, answer in answers.items():
                if answer["outcome"] != "decided":
                    self.refused.append(answer["refusal"])
                elif item not in failing:
                    self._keep(answer, trying[item])
                    self.repaired.add(item)
            plans = {item: lines for item, lines in plans.items() if item in failing and lines}
        back = [request for item, request in first.items() if item in failing]
        if back:
            for request, answer in zip(back, self._batch(back), strict=True):
                if answer["outcome"] == "decided":
                    self._keep(answer, request)
                else:
                    self.refused.append(answer["refusal"])

    def _commit(self, commit: bool) -> None:
        if commit:
            git(self.repo, "add", "-A")
            if git(self.repo, "status", "--porcelain"):
                git(self.repo, "commit", "-q", "--no-edit", "-m", f"agent round {self.rounds}")

    def finish(self, *, commit: bool, rounds: int = 4) -> dict[str, Any]:
        """Decide until the queue is empty (committing each round when ``commit``), then the gate's verdict."""
        for self.rounds in range(1, rounds + 1):
            done = self.decide_all()
            if self.batch:
                self.repair()
            if self.fix is not None:
                self.edited.update(self.fix(self.repo) or ())
            self._commit(commit)
            if not done and not workbench("queue", "--json", *self.opts()).json()["items"]:
                break
        if self.edited and self.decide_all():  # what the last edit left open, decided on what it wrote
            self._commit(commit)
        verdict = workbench("gate", "--json", *self.opts())
        assert verdict.code in (0, 1), verdict.stderr
        return dict(verdict.json())


def truth_fix(sample: SampleSync) -> Callable[[Path], None]:
    """The code edits an agent makes for what no take fixes (an API failure): each file the gate's API findings
    name, written as the sample's ground truth says it ships (its ``expected`` bytes, or no file)."""
    truth = {f.path: f for f in sample.files}

    def fix(repo: Path) -> None:
        verdict = workbench("gate", "--json", "--repo", str(repo)).json()
        for finding in verdict["blocking"]:
            if finding["rule"] != "api-audit":
                continue
            for path in {finding["path"], *(p for p in truth if p in finding["detail"])}:
                known = truth.get(path)
                if known is None:
                    continue
                target = repo / path
                if known.expected is None:
                    target.unlink(missing_ok=True)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(known.expected)

    return fix
