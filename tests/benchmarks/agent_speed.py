"""How fast are the agent's commands on a real sync: queue and show (warm) against `git merge-tree`, and decide
per decision, one command at a time and in a batch?

Megatron-LM sync #4291 needs MEGATRON_GIT, a clone with both branches; without it this prints a line and
skips.  It works in a private shared clone (never the given repository) in two situations: the bot's merge
commit 66e55f9884 checked out (decisions are written to the work tree, the analysis is keyed by commits),
and the same tips merged without `-X theirs`, in progress (decisions are written and staged).  Each decides
up to N open items with the ready line `show` gives (a verified claim where there is one, else a judgement).
Not a test: run it by hand,
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/agent_speed.py
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.agent import batch_request  # noqa: E402  (the tests' helpers, from the path set above)

MERGE_4291 = "66e55f9884"
PARENTS_4291 = ("7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
DECISIONS = int(os.environ.get("BENCH_DECISIONS", "12"))
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
WORKBENCH = [sys.executable, "-m", "workbench"]


def run(args: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False, env=env, input=stdin)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{shlex.join(args)} failed ({proc.returncode}): {proc.stderr[:300]}")
    return elapsed, proc.stdout


def ready(repo: Path, env: dict[str, str], limit: int) -> list[str]:
    """Up to ``limit`` ready decide lines, one per open item (a verified claim first)."""
    _t, out = run([*WORKBENCH, "queue", "--json"], repo, env)
    lines = []
    for item in json.loads(out)["items"][:limit]:
        _t, shown = run([*WORKBENCH, "show", item["id"], "--json"], repo, env)
        commands = json.loads(shown)["item"]["commands"]
        commands.sort(key=lambda c: (c["status"] != "verified", c["take"].startswith("both")))
        if commands:
            lines.append(commands[0]["command"])
    return lines


def as_batch(lines: list[str]) -> str:
    """``show``'s ready decide lines as one ``decide --batch`` input (the scripted agent's reading of them)."""
    return "".join(json.dumps(batch_request(line)) + "\n" for line in lines)


@dataclass
class Figures:
    """One situation's figures, seconds (``merge_tree`` measured between the others, in the same run)."""

    label: str
    merge_tree: list[float] = field(default_factory=list)
    queue: list[float] = field(default_factory=list)
    show: list[float] = field(default_factory=list)
    decide: list[float] = field(default_factory=list)
    """Each ``decide`` command's wall time (its sync's analysis warm or not, as the previous command left it)."""
    after: list[float] = field(default_factory=list)
    """The ``queue`` right after each ``decide``: the state changed, the analysis is made again."""
    batch: tuple[float, int] = (0.0, 0)

    def ratio(self, found: list[float]) -> float:
        return statistics.median(found) / statistics.median(self.merge_tree)

    def lines(self) -> list[str]:
        mt = statistics.median(self.merge_tree)
        out = [f"{self.label}: git merge-tree {mt:.2f} s; warm queue {statistics.median(self.queue):.2f} s "
               f"({self.ratio(self.queue):.1f}x), warm show {statistics.median(self.show):.2f} s "
               f"({self.ratio(self.show):.1f}x)"]
        if self.decide:
            out.append(f"  decide, one command each: median {statistics.median(self.decide):.2f} s over "
                       f"{len(self.decide)} ({self.ratio(self.decide):.1f}x; min {min(self.decide):.2f}, "
                       f"max {max(self.decide):.2f}); the queue after each: median {statistics.median(self.after):.2f} s "
                       f"({self.ratio(self.after):.1f}x)")
        total, count = self.batch
        if count:
            out.append(f"  decide --batch: {total:.2f} s for {count}, {total / count:.2f} s per decision")
        return out


def merge_tree_seconds(repo: Path, env: dict[str, str]) -> float:
    """``git merge-tree`` of #4291's tips in ``repo``: the yardstick every figure is a ratio of."""
    return run(["git", "merge-tree", "--write-tree", *PARENTS_4291], repo, env)[0]


def situation(repo: Path, env: dict[str, str], label: str, runs: int = RUNS, decisions: int = DECISIONS) -> Figures:
    """Warm queue and show interleaved with merge-tree, then decisions one command each (with the queue an agent
    reads after each), then a batch."""
    found = Figures(label)

    def merge_tree() -> None:
        found.merge_tree.append(merge_tree_seconds(repo, env))

    run([*WORKBENCH, "queue", "--json"], repo, env)  # fills the cache
    _t, out = run([*WORKBENCH, "queue", "--json"], repo, env)
    first = json.loads(out)["items"][0]["id"]
    run([*WORKBENCH, "show", first, "--json"], repo, env)
    for _ in range(runs):
        merge_tree()
        found.queue.append(run([*WORKBENCH, "queue", "--json"], repo, env)[0])
        merge_tree()
        found.show.append(run([*WORKBENCH, "show", first, "--json"], repo, env)[0])
    lines = ready(repo, env, 2 * decisions)
    one, batch = lines[:decisions], lines[decisions:]
    for line in one:
        merge_tree()
        found.decide.append(run(WORKBENCH + shlex.split(line)[1:], repo, env)[0])
        found.after.append(run([*WORKBENCH, "queue", "--json"], repo, env)[0])
    if batch:
        total, _out = run([*WORKBENCH, "decide", "--batch", "-"], repo, env, as_batch(batch))
        found.batch = (total, len(batch))
    return found


def in_progress(source: str, scratch: Path, env: dict[str, str]) -> Path:
    """A private shared clone of ``source`` with #4291's tips merged without ``-X theirs``, in progress."""
    repo = Path(scratch, "meg")
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", source, str(repo)], check=True)
    subprocess.run(["git", "checkout", "-q", PARENTS_4291[0]], cwd=repo, check=True)
    subprocess.run(["git", "merge", "-q", "--no-edit", PARENTS_4291[1]], cwd=repo, capture_output=True, check=False,
                   env={**env, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
                        "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"})
    return repo


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT not set: skipping Megatron-LM #4291")
        return 0
    with tempfile.TemporaryDirectory(prefix="workbench-agent-bench-") as scratch:
        env = {**CHILD_ENV, "XDG_CACHE_HOME": str(Path(scratch, "cache"))}
        repo = Path(scratch, "meg")
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", source, str(repo)], check=True)
        subprocess.run(["git", "checkout", "-q", MERGE_4291], cwd=repo, check=True)
        print("\n".join(situation(repo, env, f"#4291 merge commit {MERGE_4291}").lines()), flush=True)
        merging = in_progress(source, Path(scratch, "merging"), env)
        print("\n".join(situation(merging, env, "#4291 merged without -X theirs, in progress").lines()), flush=True)
    print(f"load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
