"""The first agent scorecard: the scripted agent (no model) on the development-set syncs.

For each of #4291, #4716 and #5430 it replays the bot's `git merge -X theirs` in a private shared clone
(modify/delete conflicts settled main's way, as the bot did), runs the scripted agent of
`tests/helpers/agent.py` (queue, the ready `decide` lines of `show`, commit each round), and where the
gate names an API failure no take fixes it edits the file as the maintainers shipped it (the PR head's
version: the scorecard is about decisions, not about writing code).  It prints, per sync, the gate's
verdict (blocking items), and how often the agent's decision for a conflict hunk equals what the
maintainers shipped there (`workbench train megatron:N --answer-key --json`).  Not a test:
    MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/agent_devset.py [4291 ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.agent import Agent, workbench  # noqa: E402

DEVSET = Path(os.environ.get("DEVSET", "/work/shared/eval/devset.json"))
_HELD = {"main": "main", "dev": "dev", "both": "both", "both-main-first": "both", "file-dev": "dev",
         "file-main": "main", "custom": "other", "merged": "other"}


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=check)


def replay(source: str, sync: dict[str, str], repo: Path) -> None:
    """The bot's old merge: dev, then main with ``-X theirs``; what still conflicts favours main."""
    git(Path.cwd(), "clone", "-q", "--shared", "--no-checkout", source, str(repo))
    git(repo, "checkout", "-q", "-b", "main2dev/replay", sync["dev"])
    if git(repo, "merge", "-q", "--no-edit", "-X", "theirs", sync["main"], check=False).returncode:
        for line in git(repo, "diff", "--name-only", "--diff-filter=U").stdout.splitlines():
            has_main = git(repo, "cat-file", "-e", f"{sync['main']}:{line}", check=False).returncode == 0
            git(repo, "checkout", "--theirs", "--", line) if has_main else git(repo, "rm", "-q", "--", line)
            if has_main:
                git(repo, "add", "--", line)
        git(repo, "commit", "-q", "--no-edit")


def shipped_fix(shipped: str) -> Callable[[Path], None]:
    def fix(repo: Path) -> None:
        verdict = workbench("gate", "--json", "--repo", str(repo)).json()
        for finding in verdict["blocking"]:
            if finding["rule"] != "api-audit":
                continue
            path = finding["path"]
            found = git(repo, "show", f"{shipped}:{path}", check=False)
            target = repo / path
            if found.returncode == 0:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(subprocess.run(["git", "show", f"{shipped}:{path}"], cwd=repo, capture_output=True,
                                                  check=True).stdout)
    return fix


def scorecard(agent: Agent, key: dict[str, Any]) -> Counter[str]:
    """Per conflict hunk of the answer key the agent decided: equal to what shipped, or not."""
    shipped = {(h["path"], h["index"]): h["shipped"] for h in key["hunks"]}
    seen: dict[tuple[str, int], str] = {}
    for answer in agent.decided:
        for member in answer["members"]:
            if member["hunk"] is None:
                continue
            take = answer["take"]
            seen[(member["path"], member["hunk"])] = _HELD.get(take, "main" if take == "result" else take)
    counts: Counter[str] = Counter()
    for ref, choice in seen.items():
        if ref in shipped:
            counts["decided"] += 1
            counts["equal"] += choice == shipped[ref]
            counts[f"{choice}->{shipped[ref]}"] += 1
    counts["key"] = len(shipped)
    return counts


def main(argv: list[str]) -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT not set: skipping the development set")
        return 0
    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="workbench-devset-cache-"))
    syncs = json.loads(DEVSET.read_text())["syncs"]
    wanted = {int(a) for a in argv} or {s["pr"] for s in syncs}
    for sync in syncs:
        if sync["pr"] not in wanted:
            continue
        key = json.loads(subprocess.run([sys.executable, "-m", "workbench", "train", f"megatron:{sync['pr']}", "--repo",
                                         source, "--answer-key", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
        with tempfile.TemporaryDirectory(prefix="workbench-devset-") as scratch:
            repo = Path(scratch, "meg")
            replay(source, sync, repo)
            agent = Agent(repo, fix=shipped_fix(sync["pr_head"]))
            verdict = agent.finish(commit=True, rounds=int(os.environ.get("ROUNDS", "3")))
            counts = scorecard(agent, key)
        blocking = Counter(f["rule"] for f in verdict["blocking"])
        rate = counts["equal"] / counts["decided"] if counts["decided"] else 0.0
        print(f"#{sync['pr']}: gate {verdict['verdict']} ({sum(blocking.values())} blocking: {dict(blocking)}; "
              f"{len(verdict['for_human'])} for a person); {len(agent.decided)} decisions in {agent.rounds} rounds; "
              f"answer key: {counts['decided']} of {counts['key']} conflict hunks decided, {counts['equal']} equal to "
              f"what shipped ({rate:.0%})")
        print("   " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if "->" in k))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
