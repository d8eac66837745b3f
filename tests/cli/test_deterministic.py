"""Same input, same output, byte for byte, whatever the hash seed (issue 18.11).

Python randomises the iteration order of sets of strings per process
(``PYTHONHASHSEED``); wherever that order leaks into a result (which hunk gets
a finding, the order of two messages), runs of the same ``analyze --json``
differ.  The demo sample has every kind of evidence (API mismatches, dropped
lines, squash chains, policy files); its report and analysis must not move.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.sample import SampleSync

SEEDS = ("1", "2", "3")


def _outputs(path: Path, *args: str) -> dict[str, bytes]:
    outputs = {}
    for seed in SEEDS:
        proc = subprocess.run(
            [sys.executable, "-m", "workbench", *args], cwd=path, capture_output=True, check=False,
            env={**os.environ, "PYTHONHASHSEED": seed}, timeout=300,
        )
        assert proc.returncode in (0, 1), proc.stderr
        outputs[seed] = proc.stdout
    return outputs


@pytest.mark.parametrize(
    "args",
    [
        ("analyze", "--json"),
        ("analyze", "--json", "--dev", "dev", "--main", "main"),
        ("report", "--format", "md"),
    ],
    ids=["merge-commit", "preview", "report"],
)
def test_the_same_sync_gives_the_same_bytes_under_every_hash_seed(
    sample_merge_commit: SampleSync, args: tuple[str, ...]
) -> None:
    outputs = _outputs(sample_merge_commit.path, *args)
    first = outputs[SEEDS[0]]
    assert b"risk" in first
    differing = [seed for seed, out in outputs.items() if out != first]
    assert not differing, f"output differs under PYTHONHASHSEED={differing} from {SEEDS[0]}"


def test_a_merge_in_progress_gives_the_same_bytes_under_every_hash_seed(sample_in_progress: SampleSync) -> None:
    outputs = _outputs(sample_in_progress.path, "analyze", "--json")
    assert len(set(outputs.values())) == 1, "output differs between hash seeds"
