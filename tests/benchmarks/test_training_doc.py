"""docs/training.md's figures for Megatron-LM #4291 are the program's (skipped without MEGATRON_GIT)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytestmark = [pytest.mark.skipif(not os.environ.get("MEGATRON_GIT"), reason="MEGATRON_GIT is not set"),
              pytest.mark.slow]
DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"
SENTENCE = re.compile(
    r"the key has (\d+) hunks: (\d+) shipped as main, (\d+) as dev,\s+(\d+) as both and (\d+) as other; of the (\d+)"
    r" the maintainers changed, (\d+) were scored\s+high by the workbench on the raw replay \((\d+) hunks are high"
    r" in all, so\s+`--risky` asks those \d+ and (\d+) low-risk ones\)")


def test_the_4291_figures_match_the_answer_key() -> None:
    found = SENTENCE.search(DOC.read_text(encoding="utf-8"))
    assert found, "the sentence with #4291's figures moved: update this test with it"
    proc = subprocess.run([sys.executable, "-m", "workbench", "train", "megatron:4291", "--repo",
                           os.environ["MEGATRON_GIT"], "--answer-key", "--json"], capture_output=True, text=True,
                          check=True, timeout=1800)
    hunks = json.loads(proc.stdout)["hunks"]
    shipped = Counter(h["shipped"] for h in hunks)
    changed = [h for h in hunks if h["shipped"] != "main"]
    high = sum(1 for h in hunks if h["level"] == "high")
    low = sum(1 for h in hunks if h["level"] == "low")
    figures = (len(hunks), shipped["main"], shipped["dev"], shipped["both"], shipped["other"], len(changed),
               sum(1 for h in changed if h["level"] == "high"), high, min(low, max(10, len(hunks) - low)))
    assert tuple(int(n) for n in found.groups()) == figures
