"""git 2.54's re-diff of shifted change groups (histogram), against git's own expectations.

git 2.54 re-diffs a change group that grew while being slid (xdiff's
``xdl_change_compact``), so a one-line change inside repeated lines stays a
one-line change.  The workbench follows whichever git it runs with
(``rediff_shifted``); the cases and their scripts are those of git's test
``t4074-diff-shifted-matched-group.sh``, and the installed git must agree
with the mode that matches its version.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from workbench.analysis.xdiff import Algorithm, diff_lines
from workbench.git.runner import git_version
from workbench.git.types import REDIFF_SHIFTED_SINCE

Script = list[tuple[int, int, int, int]]

CASES: list[tuple[str, list[str], list[str], Script]] = [
    ("shifted group re-diffs to one changed line",
     "A x A A A x A A A".split(), "A x A Z A x A A A".split(), [(3, 1, 3, 1)]),
    ("merged group with no shift",
     "A Z B x".split(), "C D x Z E x".split(), [(0, 1, 0, 3), (2, 1, 4, 1)]),
    ("re-diff keeps lines that only look alike apart",
     "a b c a b c".split(), ["x", " b", "z", "a", "b", "c"], [(0, 3, 0, 3)]),
    ("shifting on one side",
     "a b c a b c a b c".split(), "a b c a1 a2 a3 b c1 a b c".split(), [(3, 1, 3, 3), (5, 1, 7, 1)]),
    ("shifting on the other side",
     "a b c a1 a2 a3 b c1 a b c".split(), "a b c a b c a b c".split(), [(3, 3, 3, 1), (7, 1, 5, 1)]),
]


def _lines(words: list[str]) -> list[bytes]:
    return [f"{w}\n".encode() for w in words]


def _script(a: list[str], b: list[str], rediff: bool) -> Script:
    return [(c.i1, c.chg1, c.i2, c.chg2) for c in diff_lines(_lines(a), _lines(b), Algorithm.HISTOGRAM, rediff)]


@pytest.mark.parametrize(("name", "a", "b", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rediff_gives_git_254s_script(name: str, a: list[str], b: list[str], expected: Script) -> None:
    assert _script(a, b, rediff=True) == expected


_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def _git_script(a: list[str], b: list[str], tmp: Path) -> Script:
    """The installed git's histogram diff of the two texts, as an edit script (0-based starts)."""
    (tmp / "a").write_bytes(b"".join(_lines(a)))
    (tmp / "b").write_bytes(b"".join(_lines(b)))
    out = subprocess.run(["git", "diff", "--no-index", "--histogram", "-U0", "a", "b"], cwd=tmp,
                         capture_output=True, check=False).stdout
    script = []
    for m in _HUNK.finditer(out):
        s1, c1 = int(m[1]), int(m[2] or 1)
        s2, c2 = int(m[3]), int(m[4] or 1)
        script.append((s1 - (c1 > 0), c1, s2 - (c2 > 0), c2))
    return script


@pytest.mark.parametrize(("name", "a", "b", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_mode_for_the_installed_git_agrees_with_it(
    name: str, a: list[str], b: list[str], expected: Script, tmp_path: Path
) -> None:
    rediff = git_version() >= REDIFF_SHIFTED_SINCE
    assert _script(a, b, rediff) == _git_script(a, b, tmp_path)
