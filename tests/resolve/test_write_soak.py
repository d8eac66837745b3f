"""Soak: random decisions written on random conflicted repositories, checked against git after every write.

Each repository has a few conflicted files (lines that end or not in a
newline, CRLF now and then), a random ``merge.conflictStyle`` and sometimes a
``conflict-marker-size`` attribute; ``git merge`` leaves the conflicts in the
work tree as a user would see them.  Each file is decided with one side
everywhere (hunk by hunk or with the whole-file key), or with a random mix
per hunk, and written; after every write no staged file may hold a conflict
marker, and every written file must equal what ``git merge -X ours``/``-X
theirs`` of the same commits gives it (for a mix: the merge rebuilt from the
stage blobs with those choices).
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.resolve.markers import any_markers
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision, splice_merge
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder

WORDS = ["alpha", "beta", "gamma", "}", "", "x = 1", "def f():", "    pass", "# note"]


def _text(rng: random.Random, lines: list[str]) -> str:
    eol = "\r\n" if rng.random() < 0.1 else "\n"
    body = eol.join(lines)
    return body + (eol if lines and rng.random() < 0.6 else "")


def _edit(rng: random.Random, lines: list[str]) -> list[str]:
    out = list(lines)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(out) + 1)
        op = rng.random()
        if op < 0.4 and pos < len(out):
            out[pos] = f"{rng.choice(WORDS)} {rng.randint(0, 9)}".strip()
        elif op < 0.75:
            out.insert(pos, f"{rng.choice(WORDS)} {rng.randint(0, 9)}".strip())
        elif pos < len(out):
            del out[pos]
    return out


def _repository(root: Path, rng: random.Random) -> tuple[RepoBuilder, int] | None:
    """A merge of main into dev stopped on content conflicts; None when the draw merged cleanly."""
    b = RepoBuilder.init(root)
    b.git("config", "core.autocrlf", "false")
    b.git("config", "merge.conflictStyle", rng.choice(["merge", "diff3", "zdiff3"]))
    size = rng.choice([7, 7, 3, 10, 12])
    if size != 7:
        b.write(".gitattributes", f"*.txt conflict-marker-size={size}\n")
    sides: dict[str, tuple[str, str, str]] = {}
    for n in range(rng.randint(1, 3)):
        base = [f"{rng.choice(WORDS)} {i}" for i in range(rng.randint(1, 12))]
        sides[f"f{n}.txt"] = (_text(rng, base), _text(rng, _edit(rng, base)), _text(rng, _edit(rng, base)))
    for path, (text, _, _) in sides.items():
        b.write(path, text)
    b.commit("base")
    b.branch("dev").checkout("dev")
    for path, (_, dev, _) in sides.items():
        b.write(path, dev)
    if b.run("commit", "-qam", "dev").returncode:
        return None
    b.checkout("main")
    for path, (_, _, main) in sides.items():
        b.write(path, main)
    if b.run("commit", "-qam", "main").returncode:
        return None
    b.checkout("dev")
    if b.merge("main") != 1:
        return None
    return b, size


def _favoured(b: RepoBuilder, favour: str, paths: list[str]) -> dict[str, bytes]:
    """``git merge -X favour`` of the same commits, in a worktree of its own."""
    where = b.path.parent / f"merge-{favour}"
    b.git("worktree", "add", "-q", "--detach", str(where), "HEAD")
    other = RepoBuilder.open(where)
    other.merge("main", favour, check=True)
    return {path: other.read(path) for path in paths}


def _staged_with_markers(b: RepoBuilder, sizes: tuple[int, ...]) -> list[str]:
    listing = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=b.path, capture_output=True, check=True).stdout
    found = []
    for record in filter(None, listing.split(b"\0")):
        head, _, path = record.partition(b"\t")
        _mode, oid, stage = head.split()
        if stage == b"0" and any_markers(b.git("cat-file", "blob", oid.decode()), sizes) is not None:
            found.append(path.decode())
    return found


def _soak(tmp_path: Path, seed: int, rounds: int) -> int:
    """Run ``rounds`` repositories; returns how many files were written and checked."""
    rng = random.Random(seed)
    checked = 0
    for n in range(rounds):
        made = _repository(tmp_path / f"r{n}" / "repo", rng)
        if made is None:
            continue
        b, size = made
        repo, analysis = open_analysis(b.path)
        session = Session(analysis, read_blob=repo.read_blob)
        paths = [f.path for f in analysis.files if f.hunks]
        expected = {"ours": _favoured(b, "ours", paths), "theirs": _favoured(b, "theirs", paths)}
        rng.shuffle(paths)
        for path in paths:
            entry = session.file(path)
            choice = rng.choice([Choice.MAIN, Choice.DEV, None])
            if choice is None:  # hunk by hunk, any mix: git has no answer, the merge rebuilt from the stages has
                vector = [Decision(rng.choice([Choice.MAIN, Choice.DEV, Choice.BOTH])) for _ in entry.hunks]
                for hunk, decision in zip(entry.hunks, vector, strict=True):
                    session.decide(path, hunk.index, decision)
                assert entry.merge is not None
                want = splice_merge(entry.merge, vector)
            else:
                if rng.random() < 0.5:
                    session.decide_file(path, choice)
                else:
                    for hunk in entry.hunks:
                        session.decide(path, hunk.index, Decision(choice))
                want = expected["theirs" if choice is Choice.MAIN else "ours"][path]
            outcome = write_file(repo, session, path)
            context = f"seed {seed} round {n} {path} {choice}: {outcome.message}"
            assert outcome.written and outcome.staged, context
            assert b.read(path) == want, context
            assert _staged_with_markers(b, (7, size)) == [], context
            checked += 1
    return checked


def test_soak_short(tmp_path: Path) -> None:
    assert _soak(tmp_path, seed=18, rounds=12) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_soak_long(tmp_path: Path, seed: int) -> None:
    assert _soak(tmp_path, seed=1000 + seed, rounds=40) > 0
