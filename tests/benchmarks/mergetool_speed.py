"""How soon ``git mergetool --tool=workbench`` shows a file: Megatron-LM #4291, merge in progress.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/mergetool_speed.py [FILE...]``
(skips, exit 0, without MEGATRON_GIT or tmux).  A shared clone in a temporary
directory (the clone named by MEGATRON_GIT is only read) checks out #4291's
dev parent and merges its main parent, stopping on conflicts.  Then, in a
terminal (tmux), for each FILE:

* ``workbench mergetool BASE LOCAL REMOTE MERGED`` with git's index stages
  (the history, risk, policy and audit of the merge in progress, for that one
  path), and the same with LOCAL and REMOTE swapped (not the merge's stages:
  the three versions alone), from the command's start to the hunk on screen;
* ``git mergetool --tool=workbench FILE``, from git's start to the hunk on screen.

With the merge's stages the hunk first shows as a first look (its risk
pending) while the merge's evidence is read; the time to that evidence on
screen (the hunk's risk level in its title) is printed beside it.

Then the service alone, in a fresh process of its own (no terminal, no app):
``read_mergetool`` and ``analyse_mergetool`` on the merge's stages, wall
and CPU time (git's processes' apart), what the child process behind the
app computes.

Median of a few runs each, wall time, with ``git merge-tree --write-tree`` of the
same sync timed in the same run for the ratio.  Every run has an analysis
cache of its own, empty (cold: as right after ``git merge`` stops); then
``workbench mergetool`` on the merge's stages once more with the cache a
first run filled (warm: the same file opened again).  Not a test: it prints
figures, it asserts nothing about time.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Protocol

DEV, MAIN = "7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2"
FILES = ("megatron/core/optimizer/__init__.py", "megatron/core/ssm/gated_delta_net.py", "megatron/training/training.py")
RUNS = 5
SHOWN = re.compile(rb"hunk \d+/\d+")
"""A hunk's title (the file opens on its riskiest hunk, not always the first)."""
RACY = 3.5
"""Seconds after which the merge's files are old enough for an analysis of them to be stored (git/work_state.py)."""
EVIDENCE = re.compile(rb"hunk \d+/\d+ +[HML] +\d+ (high|medium|low) risk")
"""A hunk's title once its risk is in (a first look says "risk pending")."""
TOOL = 'workbench mergetool "$BASE" "$LOCAL" "$REMOTE" "$MERGED"'
BIN = Path(sys.executable).parent
_SOCKETS = itertools.count()
"""A fresh tmux server per run: the last one may still be shutting down."""


def main(files: list[str]) -> int:
    source = os.environ.get("MEGATRON_GIT")
    tmux = shutil.which("tmux")
    if not source or not Path(source).is_dir() or tmux is None or not (BIN / "workbench").exists():
        print("skipped: set MEGATRON_GIT to a Megatron-LM clone (and install tmux)")
        return 0
    with tempfile.TemporaryDirectory(prefix="workbench-mergetool-") as tmp:
        work = Path(tmp)
        env = _env(work)
        repo = work / "mega"
        git = _git(repo, env)
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", source, str(repo)], env=env, check=True)
        git("checkout", "-q", DEV)
        git("merge", "--no-edit", MAIN, ok=(1,))
        git("config", "mergetool.workbench.cmd", TOOL)
        git("config", "mergetool.workbench.trustExitCode", "true")
        git("config", "mergetool.keepBackup", "false")
        git_runs = []
        for _ in range(RUNS):
            start = time.perf_counter()
            subprocess.run(["git", "merge-tree", "--write-tree", DEV, MAIN], cwd=repo, env=env, capture_output=True)
            git_runs.append(time.perf_counter() - start)
        mt = statistics.median(git_runs)
        print(f"git merge-tree --write-tree: median {mt:.3f} s (load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")
        for path in files or FILES:
            stages = _stages(git, repo, path)
            _time_to_hunk(work, {**env, "XDG_CACHE_HOME": str(work / "untimed")}, repo,
                          ["workbench", "mergetool", *stages, path])  # Python's bytecode written, files read once
            swapped = [stages[0], stages[2], stages[1]]
            direct, evidence = _medians(work, env, repo, ["workbench", "mergetool", *stages, path])
            alone, _ = _medians(work, env, repo, ["workbench", "mergetool", *swapped, path])
            through_git, git_evidence = _medians(work, env, repo,
                                                 ["git", "mergetool", "--no-prompt", "--tool=workbench", path])
            print(f"{path}:")
            print(f"  workbench mergetool, merge's stages: {direct:.2f} s to the hunk on screen "
                  f"({direct / mt:.1f}x merge-tree), {evidence:.2f} s to its history and risk ({evidence / mt:.1f}x)")
            print(f"  workbench mergetool, LOCAL/REMOTE swapped (three versions alone): {alone:.2f} s ({alone / mt:.1f}x)")
            print(f"  git mergetool --tool=workbench: {through_git:.2f} s to the hunk ({through_git / mt:.1f}x), "
                  f"{git_evidence:.2f} s to its history and risk ({git_evidence / mt:.1f}x)")
            wall, cpu, git_cpu = _service(work, env, repo, stages, path)
            print(f"  the service alone (read_mergetool + analyse_mergetool, own process): {wall:.2f} s "
                  f"({wall / mt:.1f}x), CPU {cpu:.2f} s + git's {git_cpu:.2f} s "
                  f"(load {os.getloadavg()[0]:.1f})")
            warm_env = {**env, "XDG_CACHE_HOME": str(work / f"warm-{next(_SOCKETS)}")}
            time.sleep(RACY)  # the merge's files are older than the cache's racy window: the first run stores
            _time_to_hunk(work, warm_env, repo, ["workbench", "mergetool", *stages, path])
            _until_stored(Path(warm_env["XDG_CACHE_HOME"]))  # stored behind the app, once it had the answer
            warm, warm_evidence = _medians(work, env, repo, ["workbench", "mergetool", *stages, path], warm_env)
            print(f"  warm (the cache filled by a first run): {warm:.2f} s to the hunk ({warm / mt:.1f}x), "
                  f"{warm_evidence:.2f} s to its history and risk ({warm_evidence / mt:.1f}x)")
    return 0


SERVICE = """
import os, sys, time
from workbench.services.mergetool_file import analyse_mergetool, read_mergetool
start, cpu = time.perf_counter(), os.times()
analyse_mergetool(read_mergetool(*sys.argv[1:5]), [])
end = os.times()
print(time.perf_counter() - start, end.user + end.system - cpu.user - cpu.system,
      end.children_user + end.children_system - cpu.children_user - cpu.children_system)
"""
"""The service's run: seconds from reading git's files to the analysis (the store in the cache put off, as
the app's child process puts it off), its CPU and its git processes' CPU."""


def _service(work: Path, env: dict[str, str], repo: Path, stages: list[str], path: str) -> tuple[float, float, float]:
    """Medians of the service alone over ``RUNS`` runs, each with an empty cache of its own."""
    runs = []
    for _ in range(RUNS):
        cold = {**env, "XDG_CACHE_HOME": str(work / f"cold-{next(_SOCKETS)}")}
        out = subprocess.run([sys.executable, "-c", SERVICE, *stages, str(repo / path)], cwd=repo, env=cold,
                             capture_output=True, check=True, text=True).stdout.split()
        runs.append([float(x) for x in out])
    wall, cpu, git_cpu = (statistics.median(run[k] for run in runs) for k in range(3))
    return wall, cpu, git_cpu


def _env(work: Path) -> dict[str, str]:
    # Python's bytecode is written and read as on a user's machine (a run never compiles the modules anew).
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", XDG_CONFIG_HOME=str(work / "config"),
               XDG_CACHE_HOME=str(work / "cache"),
               PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", EDITOR="", VISUAL="", GIT_EDITOR="",
               GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
    return env


class Git(Protocol):
    """Runs git in one repository: its output; a failure (an exit status not in ``ok``) ends the benchmark."""

    def __call__(self, *args: str, ok: tuple[int, ...] = ()) -> bytes: ...


def _git(repo: Path, env: dict[str, str]) -> Git:
    def run(*args: str, ok: tuple[int, ...] = ()) -> bytes:
        proc = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, check=False)
        if proc.returncode and proc.returncode not in ok:
            raise SystemExit(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
        return proc.stdout

    return run


def _stages(git: Git, repo: Path, path: str) -> list[str]:
    """BASE, LOCAL and REMOTE as git mergetool writes them (``checkout-index --temp``)."""
    names = git("checkout-index", "--stage=all", "--temp", "--", path).decode().split("\t")[0].split()
    return [str(repo / name) for name in names]


def _until_stored(cache: Path) -> None:
    """Wait (at most 30 s) until the cache holds an analysis: the analysis process stores it after answering."""
    deadline = time.monotonic() + 30
    while not any(cache.glob("workbench/analyses/*.entry")):
        if time.monotonic() > deadline:
            raise SystemExit("mergetool_speed: the first run never stored its analysis")
        time.sleep(0.02)


def _medians(work: Path, env: dict[str, str], repo: Path, command: list[str],
             warm: dict[str, str] | None = None) -> tuple[float, float]:
    """Medians of (to the hunk, to its evidence) over ``RUNS`` runs: each with an empty cache of its own, or
    all with ``warm``'s environment."""
    runs = [_time_to_hunk(work, warm or {**env, "XDG_CACHE_HOME": str(work / f"cold-{next(_SOCKETS)}")}, repo, command)
            for _ in range(RUNS)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def _time_to_hunk(work: Path, env: dict[str, str], repo: Path, command: list[str]) -> tuple[float, float]:
    """Seconds from starting ``command`` in a fresh terminal to the first hunk on screen, and to its risk level
    (the same moment without a first look); then q."""
    tmux = [str(shutil.which("tmux")), "-S", str(work / f"tmux{next(_SOCKETS)}.sock"), "-f", "/dev/null"]
    start = time.monotonic()
    subprocess.run([*tmux, "new-session", "-d", "-x", "160", "-y", "45", "-c", str(repo), *command],
                   env=env, check=True)
    shown = None
    try:
        while time.monotonic() - start < 60:
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, check=False).stdout
            now = time.monotonic() - start
            if shown is None and SHOWN.search(screen):
                shown = now
            if EVIDENCE.search(screen) or (shown is not None and b"no history:" in screen):
                return shown if shown is not None else now, now
            time.sleep(0.005)
        raise SystemExit(f"{command} never showed a hunk with its evidence:\n{screen.decode(errors='replace')}")
    finally:
        subprocess.run([*tmux, "send-keys", "q"], check=False, capture_output=True)
        time.sleep(0.5)
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
