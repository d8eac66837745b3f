"""How fast is `workbench analyze --json`, next to `git merge-tree` in the same run?

Two workloads:
  * Megatron-LM sync #4291 (needs MEGATRON_GIT, a clone with both branches), the
    merge alone and the PR as it stands (``--result``: every change beyond git's merge);
  * a synthetic large sync (2000 files, 300 conflicting, 300 dev commits).
For each: the median wall time of N runs of both commands, their ratio, and
the analyze process's peak RSS.  Not a test: run it by hand,
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/bench_analyze.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SYNC_4291 = ("66e55f9884", "7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2")
PR_HEAD_4291 = "01b70a14cb"
"""The sync PR as merged: 24 commits after the merge (fixes, takes of one side's files)."""
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# A user's install keeps bytecode caches; where the environment forbids writing
# them, every run would time the compiler instead of workbench.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(args: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr.read().decode()[:300]}")
    return elapsed, usage.ru_maxrss // 1024


def compare(label: str, repo: Path, rev_args: list[str], dev: str, main: str) -> None:
    workbench = [sys.executable, "-m", "workbench", "analyze", "--json", "--repo", str(repo), *rev_args]
    merge_tree = ["git", "merge-tree", "--write-tree", dev, main]
    timed(workbench, repo)  # warm the page cache once
    ours = [timed(workbench, repo) for _ in range(RUNS)]
    git = [timed(merge_tree, repo) for _ in range(RUNS)]
    ours_median = statistics.median(t for t, _ in ours)
    git_median = statistics.median(t for t, _ in git)
    peak = max(m for _, m in ours)
    print(
        f"{label}: analyze --json median {ours_median:.3f} s, git merge-tree median {git_median:.3f} s, "
        f"ratio {ours_median / git_median:.1f}x, analyze peak RSS {peak} MB ({RUNS} runs each)"
    )


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if source:
        merge, dev, main_ = SYNC_4291
        compare("Megatron-LM #4291", Path(source), [merge], dev, main_)
        compare("Megatron-LM #4291 --result PR head", Path(source), [merge, "--result", PR_HEAD_4291], dev, main_)
    else:
        print("MEGATRON_GIT not set: skipping Megatron-LM #4291")
    from workbench.sample.large import build_large_sync

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        large = build_large_sync(Path(tmp) / "large")
        print(f"synthetic sync built in {time.perf_counter() - start:.1f} s "
              f"({len(large.conflicting)} conflicting files)")
        compare("synthetic large sync", large.path, ["--dev", large.dev, "--main", large.main], large.dev, large.main)
    return 0


if __name__ == "__main__":
    sys.exit(main())
