"""How long does `workbench report` take on a real sync, per format, next to `analyze --json`?

Megatron-LM sync #4291 (bot merge 66e55f9884) needs MEGATRON_GIT, a clone
with both branches; without it this prints a line and skips.  For each
format: the median wall time of N runs and the output's size.  Not a test:
run it by hand,
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/report_speed.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

MERGE_4291 = "66e55f9884"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# A user's install keeps bytecode caches; where the environment forbids writing
# them, every run would time the compiler instead of workbench.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(args: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and output size (bytes) of one child process."""
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, capture_output=True, check=False, env=CHILD_ENV)
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
        "analyze --json": [*base, "analyze", MERGE_4291, "--json", "--repo", str(repo)],
        **{
            f"report --format {fmt}": [*base, "report", MERGE_4291, "--format", fmt, "--repo", str(repo)]
            for fmt in ("md", "json", "text", "github")
        },
    }
    timed(runs["analyze --json"], repo)  # warm the page cache once
    for label, args in runs.items():
        results = [timed(args, repo) for _ in range(RUNS)]
        median = statistics.median(t for t, _ in results)
        print(f"Megatron-LM #4291 {label}: median {median:.3f} s, {results[0][1]} bytes ({RUNS} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
