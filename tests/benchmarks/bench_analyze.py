"""How fast is `workbench analyze --json`, cold and warm, next to `git merge-tree` in the same run?

Two workloads:
  * Megatron-LM sync #4291 (needs MEGATRON_GIT, a clone with both branches), the
    merge alone, the PR as it stands (``--result``: every change beyond git's merge),
    and the merge in progress (a shared clone where ``git merge`` stopped on the conflicts);
  * the synthetic large sync (BENCH_LARGE_FILES files, all conflicting; default 10,000,
    as the speed issue asks; building it takes minutes, so BENCH_LARGE_FILES=0 skips it
    and BENCH_LARGE_REPO=PATH reuses one built before, with its `dev` and `main` branches).
For each, interleaved runs of three commands, medians of BENCH_RUNS (default 5):
  * cold: `analyze --json --no-cache` (computes everything; the API audit in a forked child
    when two cores are free), and the same in one process (WORKBENCH_JOBS=1);
  * warm: `analyze --json` with the cache primed once (a private XDG_CACHE_HOME);
  * git: `git merge-tree --write-tree DEV MAIN`, git's own merge of the same sync;
and `report --format json` warm (the review report after `analyze` or `open`).
BENCH_BEFORE=DIR adds cold and warm `analyze --json` and `report --format json` of another checkout's ``workbench`` package
(e.g. `git archive BASE workbench | tar -x -C DIR`), for before/after in one run.
Printed: wall and CPU seconds (user + system, the process and the git it runs),
each as a ratio to merge-tree's, and peak RSS (of the largest process: the
forked child shares most of its pages with the parent).  On a shared machine the wall
ratio moves with the load (printed, from the load average); the CPU ratio much less.
Not a test: run it by hand,
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/bench_analyze.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SYNC_4291 = ("66e55f9884", "7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2")
PR_HEAD_4291 = "01b70a14cb"
"""The sync PR as merged: 24 commits after the merge (fixes, takes of one side's files)."""
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
LARGE_FILES = int(os.environ.get("BENCH_LARGE_FILES", "10000"))
LARGE_RUNS = int(os.environ.get("BENCH_LARGE_RUNS", "1"))
# A user's install keeps bytecode caches; where the environment forbids writing
# them, every run would time the compiler instead of workbench.
BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    rss_mb: int


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """Wall and CPU seconds and peak RSS (MB) of one child process (with the children it waited for)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        assert proc.stderr is not None
        raise SystemExit(f"{' '.join(args)} failed ({code}): {proc.stderr.read().decode()[:300]}")
    return Run(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024)


def _median(runs: list[Run]) -> Run:
    return Run(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        max(r.rss_mb for r in runs),
    )


def compare(label: str, repo: Path, rev_args: list[str], dev: str, main: str, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="workbench-bench-cache-") as cache:
        env = {**BASE_ENV, "XDG_CACHE_HOME": cache}
        workbench = [sys.executable, "-m", "workbench"]
        commands = {
            "git merge-tree": ["git", "merge-tree", "--write-tree", dev, main],
            "cold analyze --json --no-cache": [*workbench, "analyze", "--json", "--no-cache", "--repo", str(repo), *rev_args],
            "cold, one process (JOBS=1)": [
                "env", "WORKBENCH_JOBS=1", *workbench, "analyze", "--json", "--no-cache", "--repo", str(repo), *rev_args
            ],
            "warm analyze --json": [*workbench, "analyze", "--json", "--repo", str(repo), *rev_args],
            "warm report --format json": [*workbench, "report", "--format", "json", "--repo", str(repo), *rev_args],
        }
        before = os.environ.get("BENCH_BEFORE")
        if before:
            commands["before: cold analyze --no-cache"] = [
                "env", f"PYTHONPATH={before}", *workbench, "analyze", "--json", "--no-cache", "--repo", str(repo), *rev_args
            ]
            commands["before: analyze --json"] = [
                "env", f"PYTHONPATH={before}", *workbench, "analyze", "--json", "--repo", str(repo), *rev_args
            ]
            commands["before: report --format json"] = [
                "env", f"PYTHONPATH={before}", *workbench, "report", "--format", "json", "--repo", str(repo), *rev_args
            ]
        timed(commands["warm analyze --json"], repo, env)  # primes the cache (and the page cache)
        timed(commands["warm report --format json"], repo, env)
        seen: dict[str, list[Run]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, args in commands.items():
                seen[name].append(timed(args, repo, env))
    git = _median(seen["git merge-tree"])
    print(f"{label} ({runs} runs each, interleaved; load average {_load()}):")
    for name, runs_of in seen.items():
        m = _median(runs_of)
        print(
            f"  {name:32s} wall {m.wall:7.3f} s ({m.wall / git.wall:5.1f}x)   "
            f"CPU {m.cpu:7.3f} s ({m.cpu / git.cpu:5.1f}x)   peak RSS {m.rss_mb} MB"
        )


def _merge_in_progress(source: Path, path: Path, dev: str, main: str) -> Path:
    """A shared clone of ``source`` with dev checked out and ``git merge main`` stopped on its conflicts."""
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(source), str(path)], check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", dev], cwd=path, check=True)
    merging = subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", "merge",
                              "--no-edit", main], cwd=path, capture_output=True, check=False)
    if not (path / ".git" / "MERGE_HEAD").is_file():
        raise SystemExit(f"git merge did not stop on conflicts: {merging.stderr.decode(errors='replace')}")
    time.sleep(4)  # files written this second are too recent for the cache to store (git's racy-git rule)
    return path


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if source:
        merge, dev, main_ = SYNC_4291
        compare("Megatron-LM #4291", Path(source), [merge], dev, main_, RUNS)
        compare("Megatron-LM #4291 --result PR head", Path(source), [merge, "--result", PR_HEAD_4291], dev, main_, RUNS)
        with tempfile.TemporaryDirectory() as tmp:
            stopped = _merge_in_progress(Path(source), Path(tmp) / "in-progress", dev, main_)
            compare("Megatron-LM #4291 merge in progress", stopped, [], dev, main_, RUNS)
    else:
        print("MEGATRON_GIT not set: skipping Megatron-LM #4291")
    reuse = os.environ.get("BENCH_LARGE_REPO")
    if reuse:
        path = Path(reuse)
        dev, main_ = (subprocess.run(["git", "rev-parse", name], cwd=path, capture_output=True, text=True,
                                     check=True).stdout.strip() for name in ("dev", "main"))
        compare("synthetic large sync (reused)", path, ["--dev", dev, "--main", main_], dev, main_, LARGE_RUNS)
    elif LARGE_FILES:
        from workbench.sample.large import build_large_sync

        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            large = build_large_sync(Path(tmp) / "large", files=LARGE_FILES, conflicting=LARGE_FILES)
            print(f"synthetic sync built in {time.perf_counter() - start:.1f} s "
                  f"({len(large.conflicting)} conflicting files, {large.conflict_hunks} conflict hunks)")
            compare("synthetic large sync", large.path, ["--dev", large.dev, "--main", large.main],
                    large.dev, large.main, LARGE_RUNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
