"""How long does `workbench report` take on a real sync, per format, next to `analyze --json` and git's merge?

Megatron-LM sync #4291 (bot merge 66e55f9884) needs MEGATRON_GIT, a clone
with both branches; without it this prints a line and skips.  The runs are
warm (the first `analyze --json` fills a private cache).  For each format:
the median wall time of N runs, its ratio to `git merge-tree --write-tree`
of the same sync timed in the same run, and the output's size.  Not a test:
run it by hand,
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/report_speed.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MERGE_4291 = "66e55f9884"
PARENTS_4291 = ("7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# A user's install keeps bytecode caches; where the environment forbids writing
# them, every run would time the compiler instead of workbench.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and output size (bytes) of one child process."""
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, capture_output=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode()[:300]}")
    return elapsed, len(proc.stdout)


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT not set: skipping Megatron-LM #4291")
        return 0
    repo = Path(source)
    base = [sys.executable, "-m", "workbench"]
    runs = {
        "git merge-tree --write-tree": ["git", "merge-tree", "--write-tree", *PARENTS_4291],
        "analyze --json": [*base, "analyze", MERGE_4291, "--json", "--repo", str(repo)],
        **{
            f"report --format {fmt}": [*base, "report", MERGE_4291, "--format", fmt, "--repo", str(repo)]
            for fmt in ("md", "json", "text", "github")
        },
    }
    with tempfile.TemporaryDirectory(prefix="workbench-bench-cache-") as cache:
        env = {**CHILD_ENV, "XDG_CACHE_HOME": cache}
        for args in runs.values():
            timed(args, repo, env)  # fills the cache (and the page cache)
        seen: dict[str, list[tuple[float, int]]] = {label: [] for label in runs}
        for _ in range(RUNS):  # interleaved, so a change in the machine's load touches every command alike
            for label, args in runs.items():
                seen[label].append(timed(args, repo, env))
    git = statistics.median(t for t, _ in seen["git merge-tree --write-tree"])
    print(f"Megatron-LM #4291, warm ({RUNS} runs each, medians; load average {_load()}):")
    for label, results in seen.items():
        median = statistics.median(t for t, _ in results)
        print(f"  {label:28s} {median:6.3f} s ({median / git:4.2f}x merge-tree)   {results[0][1]} bytes")
    return 0


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
