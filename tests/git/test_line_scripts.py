"""git's batched diff-tree scripts equal the Python xdiff's, pair for pair."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.texts import edited, texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.analysis.xdiff import Algorithm, Edit, diff_lines, merge_lines, split_lines
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
    for (before, after), script in zip(pairs_text, scripts, strict=True):
        expected = diff_lines(split_lines(before or b""), split_lines(after), Algorithm.HISTOGRAM)
        assert script == expected


def test_every_source_of_an_edit_script_gives_edit_runs(tmp_path: Path) -> None:
    """git's diff-tree, libgit2's patch, xdiff's diff and the merge's own scripts: one record, by field name."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    repo = GitRepo.open(tmp_path)
    old, new = b"a\nb\nc\nd\n", b"a\nB\nc\nd\ne\n"
    old_oid, new_oid = _store(tmp_path, old), _store(tmp_path, new)
    expected = (Edit(1, 1, 1, 1), Edit(4, 0, 4, 1))
    (batched,) = histogram_scripts(repo, [(old_oid, new_oid)])
    merged = merge_lines(split_lines(old), split_lines(new), split_lines(b"a\nb\nc\nD\n"))
    for script in (batched, repo.line_changes(old_oid, new_oid), diff_lines(split_lines(old), split_lines(new)),
                   merged.ours_script):
        assert script == expected and all(type(run) is Edit for run in script)
    assert [(run.i2, run.chg2) for run in expected] == [(1, 1), (4, 1)]
