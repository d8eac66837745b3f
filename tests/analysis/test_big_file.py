"""A 50 MB text file: analysed exactly (it only degrades in the app's highlighting)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import Taken
from workbench.sample import RepoBuilder


@pytest.mark.slow
def test_fifty_megabytes_stay_exact(builder: RepoBuilder) -> None:
    lines = [f"row {i} = compute({i % 97}, {i // 7})\n" for i in range(1_560_000)]
    builder.write("big.txt", "".join(lines)).commit("base")
    assert Path(builder.path, "big.txt").stat().st_size > 50_000_000
    builder.branch("dev").checkout("dev")
    dev = list(lines)
    dev[500_000], dev[900_000] = "dev change\n", "dev only\n"
    builder.write("big.txt", "".join(dev)).commit("dev (#2)")
    builder.checkout("main")
    main = list(lines)
    main[500_000], main[1_200_000] = "main change\n", "main only\n"
    builder.write("big.txt", "".join(main)).commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    _, analysis = open_analysis(builder.path)
    (entry,) = analysis.files
    assert entry.exact is True
    (hunk,) = entry.hunks
    assert (hunk.dev.start, hunk.main.start) == (500_001, 500_001) and hunk.taken is Taken.MAIN
