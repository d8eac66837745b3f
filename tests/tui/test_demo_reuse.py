"""``workbench demo`` keeps one sample per version and state in the temporary directory and says how to reopen it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from workbench.cli import main


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "tmp"
    home.mkdir()
    monkeypatch.setenv("TMPDIR", str(home))
    monkeypatch.setattr(tempfile, "tempdir", None)
    return home


def test_demo_reuses_one_sample_per_version(temp_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--print"]) == 0
    first = capsys.readouterr()
    assert "Reusing" not in first.err
    samples = list(temp_dir.glob("workbench-demo-*/megatron-sample"))
    assert len(samples) == 1 and f"workbench --repo {samples[0]}" in first.out
    marker = samples[0] / "marker-from-the-first-run"
    marker.write_text("kept")
    assert main(["demo", "--print"]) == 0
    second = capsys.readouterr()
    assert f"Reusing the sample repository at {samples[0]}" in second.err
    assert marker.exists() and len(list(temp_dir.glob("workbench-demo-*"))) == 1, "no new repository"
    assert main(["demo", "--print", "--fresh"]) == 0
    assert not marker.exists(), "--fresh builds it again"
    assert main(["demo", "--print", "--state", "merge-commit"]) == 0
    assert len(list(temp_dir.glob("workbench-demo-*"))) == 2, "one per state"


def test_a_finished_sample_is_rebuilt(temp_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--print"]) == 0
    (sample,) = temp_dir.glob("workbench-demo-*/megatron-sample")
    (sample / ".git" / "MERGE_HEAD").unlink()  # as if the user committed the merge
    capsys.readouterr()
    assert main(["demo", "--print"]) == 0
    assert "Reusing" not in capsys.readouterr().err
    assert (sample / ".git" / "MERGE_HEAD").is_file()
