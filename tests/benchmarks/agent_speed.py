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
from pathlib import Path

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
    requests = []
    for line in lines:
        argv = shlex.split(line)[2:]
        spec: dict[str, object] = {"ids": [a for a in argv if not a.startswith("-")][:1], "evidence": []}
        for flag, key in (("--take", "take"), ("--claim", "claim"), ("--reason", "reason")):
            spec[key] = argv[argv.index(flag) + 1]
        spec["evidence"] = [argv[k + 1] for k, a in enumerate(argv) if a == "--evidence"]
        requests.append(json.dumps(spec))
    return "\n".join(requests) + "\n"


def situation(repo: Path, env: dict[str, str], label: str) -> None:
    merge_tree = [run(["git", "merge-tree", "--write-tree", *PARENTS_4291], repo, env)[0] for _ in range(RUNS)]
    run([*WORKBENCH, "queue", "--json"], repo, env)  # fills the cache
    queue = [run([*WORKBENCH, "queue", "--json"], repo, env)[0] for _ in range(RUNS)]
    _t, out = run([*WORKBENCH, "queue", "--json"], repo, env)
    first = json.loads(out)["items"][0]["id"]
    show = [run([*WORKBENCH, "show", first, "--json"], repo, env)[0] for _ in range(RUNS)]
    mt = statistics.median(merge_tree)
    print(f"{label}: git merge-tree {mt:.2f} s; queue {statistics.median(queue):.2f} s "
          f"({statistics.median(queue) / mt:.1f}x); show {statistics.median(show):.2f} s "
          f"({statistics.median(show) / mt:.1f}x)")
    lines = ready(repo, env, 2 * DECISIONS)
    one, batch = lines[:DECISIONS], lines[DECISIONS:]
    each = [run(WORKBENCH + shlex.split(line)[1:], repo, env)[0] for line in one]
    if each:
        print(f"  decide, one command each: median {statistics.median(each):.2f} s over {len(each)} "
              f"(min {min(each):.2f}, max {max(each):.2f})")
    if batch:
        total, _out = run([*WORKBENCH, "decide", "--batch", "-"], repo, env, as_batch(batch))
        print(f"  decide --batch: {total:.2f} s for {len(batch)}, {total / len(batch):.2f} s per decision")


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
        situation(repo, env, f"#4291 merge commit {MERGE_4291}")
        subprocess.run(["git", "checkout", "-q", "-f", PARENTS_4291[0]], cwd=repo, check=True)
        subprocess.run(["git", "clean", "-qfd"], cwd=repo, check=True)
        subprocess.run(["git", "merge", "-q", "--no-edit", PARENTS_4291[1]], cwd=repo, capture_output=True, check=False)
        situation(repo, env, "#4291 merged without -X theirs, in progress")
    return 0


if __name__ == "__main__":
    sys.exit(main())
