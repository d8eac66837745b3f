"""How much does the unit memo save: the analysis after one decision on a merge in progress, against a cold
analysis and `git merge-tree` in the same run.

Megatron-LM #4291's tips merged without `-X theirs`, in progress, in a private shared clone: after each of N
decisions (`decide` with the ready line `show` gives), the `decide` command itself (its answer re-analyses the
changed state) and the `queue` after it, against `queue --no-cache` on the same state (a cold analysis).
Needs MEGATRON_GIT (a clone with both branches); without it this prints a line and skips.  Not a test: run
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/unit_memo.py
"""

from __future__ import annotations

import os
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agent_speed import CHILD_ENV, WORKBENCH, in_progress, merge_tree_seconds, ready, run  # noqa: E402

DECISIONS = int(os.environ.get("BENCH_DECISIONS", "6"))


@dataclass
class Figures:
    """Seconds per measurement; ratios are against the median of ``merge_tree`` of the same run."""

    label: str
    merge_tree: list[float] = field(default_factory=list)
    timed: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.timed.setdefault(name, []).append(seconds)

    def lines(self) -> list[str]:
        mt = statistics.median(self.merge_tree)
        out = [f"{self.label}: git merge-tree median {mt:.2f} s over {len(self.merge_tree)}"]
        for name, found in self.timed.items():
            median = statistics.median(found)
            out.append(f"  {name}: median {median:.2f} s over {len(found)} ({median / mt:.1f}x merge-tree; "
                       f"min {min(found):.2f}, max {max(found):.2f})")
        return out


def decisions(source: str, scratch: Path, env: dict[str, str], count: int = DECISIONS) -> Figures:
    """Each decision's own command, the queue after it (memo warm), and a cold queue on the same state."""
    repo = in_progress(source, scratch, env)
    found = Figures(f"#4291 in progress, {count} decisions")
    run([*WORKBENCH, "queue", "--json"], repo, env)  # the analysis and the memo of the state before
    for line in ready(repo, env, count):
        found.merge_tree.append(merge_tree_seconds(repo, env))
        found.add("decide (its answer re-analyses)", run(WORKBENCH + shlex.split(line)[1:], repo, env)[0])
        found.add("queue after it, memo", run([*WORKBENCH, "queue", "--json"], repo, env)[0])
        found.add("queue on that state, cold (--no-cache)", run([*WORKBENCH, "queue", "--json", "--no-cache"], repo,
                                                                 env)[0])
    return found


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT not set: skipping Megatron-LM #4291")
        return 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="workbench-memo-bench-") as scratch:
        cache = Path(scratch, "cache")
        env = {**CHILD_ENV, "XDG_CACHE_HOME": str(cache)}
        print("\n".join(decisions(source, Path(scratch, "merging"), env).lines()), flush=True)
    print(f"load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
