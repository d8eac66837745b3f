"""One very long line must not hang the analysis (issue 18.10).

git merges a one-line data file or an unwrapped sequence in milliseconds; the
analysis reads the same text with regular expressions, and one of them that
backtracks turns a megabyte into hours.  Each file below is one conflicted
line of about a megabyte shaped against one family of patterns: a run of word
characters (keys), a dotted run and spaces after an annotation (Python
definitions), a run of dots after ``from`` (imports), and a commit subject
padded with spaces (squash titles).
"""

from __future__ import annotations

import subprocess
import sys
import time

from helpers import pace

from workbench.analysis.risk.line_compare import is_data
from workbench.analysis.risk.twins import title_key
from workbench.sample import RepoBuilder

SIZE = 1_000_000
LIMIT = 15.0
"""Seconds for the whole ``analyze --json`` (quadratic patterns took hours; linear ones take about 2 s)."""

_SHAPES = {
    "seq.txt": "ACGT" * (SIZE // 4),
    "dotted.py": "x = " + "self." * (SIZE // 5),
    "annotated.py": "x: int" + " " * SIZE + "y",
    "imports.py": "from " + "." * SIZE + " x",
}


def _one_line_conflicts(b: RepoBuilder) -> None:
    for path, line in _SHAPES.items():
        b.write(path, line + "\n")
    b.commit("base")
    b.branch("dev").checkout("dev")
    for path, line in _SHAPES.items():
        b.write(path, "dev" + line + "\n")
    b.commit("dev work (#2)")
    b.checkout("main")
    for path, line in _SHAPES.items():
        b.write(path, line + "main\n")
    b.git("add", "-A")
    subject = b.path.parent / "subject"
    subject.write_text("main work" + " " * 200_000 + "(#3)x\n")
    b.git("commit", "-q", "--no-verify", "-F", str(subject))
    b.checkout("dev")


def test_a_megabyte_on_one_line_analyses_in_seconds(builder: RepoBuilder) -> None:
    _one_line_conflicts(builder)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "workbench", "analyze", "--dev", "dev", "--main", "main", "--json"],
        cwd=builder.path, capture_output=True, check=False, timeout=4 * pace.limit(LIMIT),
    )
    took = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    assert took < pace.limit(LIMIT), f"analyze took {took:.1f} s (load {pace.busy_factor():.1f}x)"
    print(f"analyze --json of {len(_SHAPES)} one-line megabyte conflicts: {took:.2f} s")
    for path in _SHAPES:
        assert f'"path": "{path}"'.encode() in proc.stdout


def test_the_patterns_over_long_runs_keep_their_meaning() -> None:
    """Linear patterns, same answers: keys are still keys, titles still lose their PR number."""
    assert is_data(b"foo.bar-baz = 3") and is_data(b'x: "y"') and is_data(b"[[tool.uv]]")
    assert not is_data(b"foo = bar") and not is_data(b"a" * SIZE)
    assert title_key("Fix the loader   (#123)  ") == "fix the loader"
    assert title_key("[dev] Fix" + " " * SIZE + "x") == "fix x"
