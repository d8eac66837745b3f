"""Scoring a file's hunks costs time linear in its hunks (issue 19.15: 2,000 hunks in one file took 20 s).

The lookups that were a scan per hunk (edit scripts, a version's lines,
the names on some lines, the words of the result) are indexed once per
file; property tests hold the indexes to the scans they replace.
"""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.risk.evidence import Blobs
from workbench.analysis.risk.line_compare import contains_block
from workbench.analysis.risk.script_index import holding, replaces_near, side_lines
from workbench.analysis.xdiff import Edit, Script
from workbench.sample import RepoBuilder
from workbench.services.sync import LoadProgress, SyncRequest, open_sync


@st.composite
def scripts(draw: st.DrawFn) -> Script:
    """A valid edit script: base and side ranges in order, disjoint, some of them empty."""
    base = side = 0
    out: list[Edit] = []
    for _ in range(draw(st.integers(0, 8))):
        base += draw(st.integers(0, 3))
        side += draw(st.integers(0, 3))
        count, size = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        if count == size == 0:
            continue
        out.append(Edit(base, count, side, size))
        base, side = base + count, side + size
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(ours=scripts(), theirs=scripts(), lo=st.integers(0, 30), span=st.integers(0, 12), line=st.integers(0, 30))
def test_bisected_lookups_agree_with_scans(ours: Script, theirs: Script, lo: int, span: int, line: int) -> None:
    scanned = [n for _, _, start, count in ours for n in range(max(lo, start), min(lo + span, start + count))]
    assert side_lines(ours, lo, lo + span) == scanned
    entry = next((e for e in ours if e[2] <= line < e[2] + e[3]), None)
    assert holding(ours, line) == entry
    if entry is not None:
        base, count = entry[0], entry[1]
        overlap = any(
            c and (count and b < base + count and base < b + c or not count and b < base < b + c)
            for b, c, _, _ in theirs
        )
        assert replaces_near(theirs, base, count) is overlap


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"", b"  ", b"a", b"b  c", b" a", b")", b"b c", b"b \t   c\r", b"\x0cb     c"]),
                     max_size=12),
       block=st.lists(st.sampled_from([b"", b"a", b"b c", b")", b" a ", b"b\t\tc"]), min_size=1, max_size=4))
def test_the_blob_line_index_agrees_with_the_scan(data: list[bytes], block: list[bytes]) -> None:
    blobs = Blobs(lambda _oid: b"\n".join(data))
    assert blobs.has_block("x", block) is contains_block(b"\n".join(data), block)


def _sync(root: Path, hunks: int) -> Path:
    """One Python file where dev and main changed every eighth line differently: ``hunks``
    conflicts, merged with ``-X theirs`` (dev's line is dropped from every hunk)."""
    builder = RepoBuilder.init(root)
    base = [f"value_{i} = compute({i})\n" for i in range(hunks * 8)]
    dev, main = base.copy(), base.copy()
    for h in range(hunks):
        dev[h * 8 + 1] = f"value_{h * 8 + 1} = compute_dev({h})\n"
        main[h * 8 + 1] = f"value_{h * 8 + 1} = compute_main({h})\n"
    builder.write("big.py", "".join(base)).commit("base")
    builder.branch("dev").checkout("dev").write("big.py", "".join(dev)).commit("dev (#2)")
    builder.checkout("main").write("big.py", "".join(main)).commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    return builder.path


def _risk_time(path: Path, hunks: int) -> float:
    """Seconds the risk stage takes (from its progress report to the end of the analysis), best of two."""
    best = float("inf")
    for _ in range(2):
        started: list[float] = []

        def seen(progress: LoadProgress, started: list[float] = started) -> None:
            if progress.phase == "score_risk":
                started.append(time.perf_counter())

        _repo, analysis = open_sync(SyncRequest(repo=path, cache=False), seen)  # a cached analysis reports no stages
        best = min(best, time.perf_counter() - started[0])
        assert len(analysis.files[0].hunks) == hunks
    return best


def test_risk_scoring_is_linear_in_a_files_hunks(tmp_path: Path) -> None:
    """Four times the hunks must take well under sixteen times as long: before, 400 -> 1,600 hunks
    went from 0.4 s to 8.9 s (20x); now about 4x."""
    small, large = _risk_time(_sync(tmp_path / "small", 400), 400), _risk_time(_sync(tmp_path / "large", 1600), 1600)
    assert large < 8 * small + 0.1, (small, large)
