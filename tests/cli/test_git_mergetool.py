"""``git mergetool --tool=workbench`` for real: git runs our command in a terminal (tmux), we press keys.

The repository is configured with exactly the two lines docs/mergetool.md
gives; git decides from our exit status whether the file is resolved and
stages it itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.terminal import TMUX, WORKBENCH, Terminal

from workbench.sample import RepoBuilder, SampleSync
from workbench.sample.truth import Pathology

BASE = "".join(f"v{i} = {i}\n" for i in range(10))
CMD = 'workbench mergetool "$BASE" "$LOCAL" "$REMOTE" "$MERGED"'

pytestmark = pytest.mark.skipif(TMUX is None or WORKBENCH is None, reason="needs tmux and the installed workbench")


@pytest.fixture
def conflict(builder: RepoBuilder) -> RepoBuilder:
    """dev and main both changed v2 and v7; ``git merge main`` stopped with x.py conflicted."""
    builder.write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev")
    builder.write("x.py", BASE.replace("v2 = 2", "v2 = 20").replace("v7 = 7", "v7 = 70")).commit("dev")
    builder.checkout("main")
    builder.write("x.py", BASE.replace("v2 = 2", "v2 = 200").replace("v7 = 7", "v7 = 700")).commit("main")
    builder.checkout("dev").merge("main")
    _configure(builder)
    assert _unmerged(builder) == ["x.py"]
    return builder


def _configure(b: RepoBuilder) -> None:
    """The two lines docs/mergetool.md gives, and no backup files."""
    b.git("config", "mergetool.workbench.cmd", CMD)
    b.git("config", "mergetool.workbench.trustExitCode", "true")
    b.git("config", "mergetool.keepBackup", "false")


def _unmerged(b: RepoBuilder) -> list[str]:
    return sorted(set(b.git("diff", "--name-only", "--diff-filter=U").decode().split()))


def _mergetool(tmp: Path, repo: Path, env: dict[str, str], path: str = "x.py") -> Terminal:
    """``git mergetool`` on ``path`` in a terminal, with ``env`` and the installed workbench on PATH."""
    exports = " ".join(f'{k}="{v}"' for k, v in env.items())
    return Terminal(tmp, f'cd "{repo}" && env {exports} PATH="{Path(str(WORKBENCH)).parent}:$PATH" '
                         f'git mergetool --no-prompt --tool=workbench "{path}"')


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(tmp / "cfg"),
           "EDITOR": "", "VISUAL": "", "GIT_EDITOR": ""}
    env.update({k: v for k, v in os.environ.items() if k.startswith("GIT_AUTHOR") or k.startswith("GIT_COMMITTER")})
    env.update(extra)
    return env


def test_deciding_and_writing_resolves_the_file_and_git_stages_it(conflict: RepoBuilder, tmp_path: Path) -> None:
    term = _mergetool(tmp_path, conflict.path, _env(tmp_path))
    try:
        term.wait_for("git mergetool", "LOCAL", "REMOTE", "hunk 1/2", "high risk")  # the evidence is in: keys decide
        term.keys("d", "n", "m", "w")
        term.wait_for("written to the work tree")
        term.keys("q")
        assert term.exit_status() == 0, term.screen()
    finally:
        term.close()
    assert _unmerged(conflict) == [], "git took our exit status 0 as resolved and staged x.py"
    staged = conflict.git("show", ":x.py").decode()
    assert "v2 = 20\n" in staged and "v7 = 700\n" in staged and "<<<<<<<" not in staged
    assert (conflict.path / "x.py").read_text() == staged


def test_quitting_unresolved_leaves_the_conflict_to_git(conflict: RepoBuilder, tmp_path: Path) -> None:
    before = (conflict.path / "x.py").read_bytes()
    term = _mergetool(tmp_path, conflict.path, _env(tmp_path))
    try:
        term.wait_for("hunk 1/2", "high risk")
        term.keys("d", "q")  # one of two hunks decided, nothing written: the app asks (and cannot write it yet)
        term.wait_for("Nothing can be written yet", "Quit (q)")
        term.keys("q")
        assert term.exit_status() != 0
    finally:
        term.close()
    assert _unmerged(conflict) == ["x.py"], "git keeps the file unmerged"
    assert (conflict.path / "x.py").read_bytes() == before, "MERGED untouched"


def test_no_color_draws_in_monochrome(conflict: RepoBuilder, tmp_path: Path) -> None:
    term = _mergetool(tmp_path, conflict.path, _env(tmp_path, NO_COLOR="1", TERM="xterm-256color"))
    try:
        term.wait_for("hunk 1/2")
        painted = term.screen(escapes=True)
        term.keys("q")
        assert term.exit_status() != 0
    finally:
        term.close()
    import re

    colours = set(re.findall(r"\x1b\[[0-9;]*?(?:38|48);(?:5;(\d+)|2;(\d+);(\d+);(\d+))", painted))
    grey = all(not five or _grey_256(int(five)) for five, *_ in colours) and all(
        r == g == b for five, r, g, b in colours if not five)
    assert colours and grey, f"colours under NO_COLOR: {sorted(colours)[:10]}"


def test_the_merge_in_progress_gives_the_files_history_and_risk(sample_branches: SampleSync, tmp_path: Path) -> None:
    """A squash chain in the demo sample: the Why and History panes show what ``workbench open`` shows."""
    merging = RepoBuilder.open(sample_branches.path)
    assert merging.merge("main") == 1
    _configure(merging)
    path = next(t.path for t in sample_branches.files if t.pathology is Pathology.SQUASH_CHAIN_DEV_AHEAD)
    term = _mergetool(tmp_path, merging.path, _env(tmp_path), path)
    try:
        screen = term.wait_for("hunk 1/2", "a squash of", "dev · 3 commits since the merge base",
                               "main · 2 commits since the merge base")
        assert "H high risk (79)" in screen and "no history" not in screen
        term.keys("q")
        assert term.exit_status() == 1
    finally:
        term.close()
    assert path in _unmerged(merging)


def _grey_256(index: int) -> bool:
    """Whether xterm colour ``index`` is a grey (the greyscale ramp, black, white, or the cube's diagonal)."""
    if index in (0, 7, 8, 15) or index >= 232:
        return True
    if 16 <= index <= 231:
        n = index - 16
        return n // 36 == (n // 6) % 6 == n % 6
    return False
