"""Finish Megatron-LM #4291's merge in progress in a real terminal, as a user would, and count the keys.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/finish_sync_tmux.py [--size 160x45]
[--clone DIR]`` (without MEGATRON_GIT or tmux it says so and exits 0).

It makes its own clone (``git clone --shared``; never touches MEGATRON_GIT),
checks out dev's tip and runs the merge the sync bot ran, so the merge is in
progress with git's conflicts.  Then, in tmux, ``workbench open`` with
``advance = true`` in a private config.toml:

1. the first screen offers the Megatron-LM preset (no policy is configured): ``p``;
2. ``A enter``: take main for every low-risk hunk of the sync (one bulk move);
3. ``A 2 enter``: take main for the medium-risk ones left;
4. the high-risk hunks one by one: ``d`` (keep dev's side; the advance setting moves on), each key
   pressed once the previous decision is on screen;
5. ``w`` writes and stages every file, ``q`` quits.

It prints the keys pressed and the wall time from the command's start to
"written and staged", and checks ``git diff --diff-filter=U`` lists no
conflict left.  Not a test: the figures go in the closing note.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

DEV, MAIN = "7ff046b1c8", "28e13c484b"
"""#4291's bot merge: its first and second parents."""
ROOT = Path(__file__).resolve().parents[2]
UNDECIDED = re.compile(r"(\d+) undecided")


class Session:
    """The workbench in a private tmux server; every key pressed is counted."""

    def __init__(self, tmp: Path, command: str, size: tuple[int, int]) -> None:
        self.tmux = ["tmux", "-S", str(tmp / "tmux.sock"), "-f", "/dev/null"]
        self.keys = 0
        subprocess.run([*self.tmux, "new-session", "-d", "-x", str(size[0]), "-y", str(size[1]),
                        "sh", "-c", f"unset COLUMNS LINES; {command}; sleep 600"], check=True)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p"], capture_output=True, check=False).stdout.decode()

    def press(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*self.tmux, "send-keys", key], check=True)
            self.keys += 1
            time.sleep(0.15)

    def wait(self, predicate: Callable[[str], bool], what: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(0.05)
        raise SystemExit(f"timed out waiting for {what}:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


def undecided(screen: str) -> int | None:
    if "all decided" in screen:
        return 0
    match = UNDECIDED.search(screen)
    return int(match.group(1)) if match else None


def prepare(source: str, clone: Path) -> None:
    if clone.exists():
        shutil.rmtree(clone)
    subprocess.run(["git", "clone", "-q", "--shared", source, str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", DEV], check=True)
    merge = subprocess.run(["git", "-C", str(clone), "merge", "-q", MAIN], capture_output=True, check=False)
    if merge.returncode != 1:
        raise SystemExit(f"expected the merge to stop on conflicts, got status {merge.returncode}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="160x45")
    parser.add_argument("--clone", type=Path, help="where to clone (default: a temporary directory)")
    args = parser.parse_args()
    source = os.environ.get("MEGATRON_GIT")
    if not source or shutil.which("tmux") is None:
        print("MEGATRON_GIT is not set or tmux is missing: skipped")
        return 0
    size = tuple(int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="finish-sync-") as tmp_name:
        tmp = Path(tmp_name)
        clone = args.clone or tmp / "megatron"
        prepare(source, clone)
        config = tmp / "config" / "workbench"
        config.mkdir(parents=True)
        (config / "config.toml").write_text("advance = true\n")
        command = (f'cd "{ROOT}" && XDG_CONFIG_HOME="{tmp / "config"}" uv run --frozen workbench open '
                   f'--repo "{clone}"')
        start = time.monotonic()
        session = Session(tmp, command, size)  # type: ignore[arg-type]
        try:
            screen = session.wait(lambda s: "Use the preset" in s or undecided(s) is not None and "hunk " in s,
                                  "the analysis")
            if "Use the preset" in screen:
                session.press("p")
                session.wait(lambda s: "loading" in s, "the analysis to start again")
                session.wait(lambda s: "loading" not in s and "hunk " in s and undecided(s) is not None,
                             "the analysis with the preset")
            loaded = time.monotonic() - start
            before = undecided(session.screen()) or 0
            session.press("A")
            session.wait(lambda s: "enter: do it" in s, "the bulk dialog")
            session.press("Enter")
            session.wait(lambda s: (undecided(s) or 0) < before and "enter: do it" not in s, "the low-risk bulk move")
            after_low = undecided(session.screen()) or 0
            session.press("A")
            session.wait(lambda s: "enter: do it" in s, "the bulk dialog")
            session.press("2", "Enter")
            session.wait(lambda s: "enter: do it" not in s, "the medium-risk bulk move")
            time.sleep(0.3)
            high = left = undecided(session.screen()) or 0
            while left:
                session.press("d")

                def fewer(s: str, n: int = left) -> bool:
                    now = undecided(s)
                    return (now if now is not None else n) < n

                session.wait(fewer, "the decision", timeout=15)
                left = undecided(session.screen()) or 0
            session.press("w")
            session.wait(lambda s: "written and staged" in s, "the write", timeout=300)
            wall = time.monotonic() - start
            session.press("q")
            time.sleep(1)
        finally:
            session.close()
        conflicts = subprocess.run(["git", "-C", str(clone), "diff", "--name-only", "--diff-filter=U"],
                                   capture_output=True, text=True, check=True).stdout.split()
        print(f"size {args.size}: {before} undecided at start; {before - after_low} by the low-risk bulk move, "
              f"{after_low - high} by the medium one, {high} high-risk one by one")
        print(f"keys pressed: {session.keys}")
        print(f"wall time: {wall:.1f} s to 'written and staged' ({loaded:.1f} s of it loading)")
        print(f"conflicts left in git: {len(conflicts)}")
        return 0 if not conflicts else 1


if __name__ == "__main__":
    sys.exit(main())
