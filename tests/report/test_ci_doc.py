"""The CI job in docs/ci.md, its shell steps run as written on a sync branch with a fix commit."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from workbench.sample import RepoBuilder, SampleSync
from workbench.sample.dropped_lines import SPECS

DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"
SCRIPTS = Path(sys.executable).parent


def _steps() -> dict[str, str]:
    """Each named step's ``run:`` command from the YAML block."""
    block = DOC.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    return dict(re.findall(r"- name: (.+)\n(?:\s+#.*\n|\s+if: .*\n)*\s+run: (.+)\n", block))


def test_the_documented_job_runs_on_a_sync_pr(sample_merge_commit: SampleSync, tmp_path: Path) -> None:
    steps = _steps()
    assert list(steps) == ["Find the sync merge", "Review report (job summary)",
                           "Risky hunks (annotations, fails on open high-risk hunks)"]
    b = RepoBuilder.open(sample_merge_commit.path)
    fixed = b.read(SPECS, sample_merge_commit.dev)
    b.write(SPECS, fixed).commit("fix: restore dev's qk_l2_norm in gpt_layer_specs.py")
    env_file, summary = tmp_path / "github_env", tmp_path / "summary.md"
    env = dict(os.environ, PATH=f"{SCRIPTS}{os.pathsep}{os.environ['PATH']}",
               GITHUB_ENV=str(env_file), GITHUB_STEP_SUMMARY=str(summary))

    def run(command: str) -> subprocess.CompletedProcess[str]:
        command = command.replace("uv run workbench", "workbench")  # the venv's script, as uv run finds it
        return subprocess.run(["bash", "-c", command], cwd=b.path, env=env, capture_output=True, text=True)

    assert run(steps["Find the sync merge"]).returncode == 0
    key, value = env_file.read_text().strip().split("=", 1)
    assert (key, value) == ("SYNC_MERGE", sample_merge_commit.merge)
    env[key] = value
    assert run(steps["Review report (job summary)"]).returncode == 0
    assert summary.read_text().startswith(f"## Sync report for merge {value[:10]}")
    gate = run(steps["Risky hunks (annotations, fails on open high-risk hunks)"])
    assert gate.stdout.splitlines()[-1].startswith("workbench report: ")
    truth = run('workbench report "$SYNC_MERGE" --result HEAD --format json --fail-on high')
    assert gate.returncode == (1 if json.loads(truth.stdout)["gate"]["failed"] else 0)
    specs = [h for h in json.loads(run('workbench report "$SYNC_MERGE" --result HEAD --format json --fail-on low')
                                   .stdout)["gate"]["open"] if h["path"] == SPECS]
    # The fix commit put dev's whole file back: dev's lines are there, main's qk_clip line is now lost, so the
    # hunk waits in the other direction.
    assert [h["taken"] for h in specs] == ["dev"]


def test_a_branch_without_a_merge_is_bad_input(sample_merge_commit: SampleSync) -> None:
    """``git rev-list --merges`` finds nothing: SYNC_MERGE is empty, and the step exits 2."""
    env = dict(os.environ, PATH=f"{SCRIPTS}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run(["workbench", "report", "", "--result", "HEAD", "--format", "github"],
                          cwd=sample_merge_commit.path, env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
