"""git's batched diff-tree scripts equal the Python xdiff's, pair for pair."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_xdiff_against_git import edited, texts

from workbench.analysis.xdiff import Algorithm, diff_lines, split_lines
from workbench.git.line_scripts import histogram_scripts
from workbench.git.repo import GitRepo


def _store(repo_dir: Path, data: bytes) -> str:
    return subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo_dir, input=data, capture_output=True, check=True
    ).stdout.decode().strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_batched_scripts_match_python(tmp_path: Path, data: st.DataObject) -> None:
    repo_dir = tmp_path / "r"
    if not repo_dir.exists():
        subprocess.run(["git", "init", "-q", str(repo_dir)], check=True)
    repo = GitRepo.open(repo_dir)
    pairs_text = []
    for _ in range(data.draw(st.integers(1, 4))):
        old = data.draw(texts())
        new = data.draw(edited(old))
        with_base = data.draw(st.booleans())
        pairs_text.append((old if with_base else None, new))
    pairs = [(None if old is None else _store(repo_dir, old), _store(repo_dir, new)) for old, new in pairs_text]
    scripts = histogram_scripts(repo, pairs)
    for (old, new), script in zip(pairs_text, scripts, strict=True):
        expected = diff_lines(split_lines(old or b""), split_lines(new), Algorithm.HISTOGRAM)
        assert script == tuple((c.i1, c.chg1, c.i2, c.chg2) for c in expected)
