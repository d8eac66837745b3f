"""Display helpers: aligned rows reproduce every side, folds hide only context, diffs match git."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.syncs import open_analysis
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.display.align import align3
from workbench.analysis.display.folds import Fold, HunkHeader, RowRef, fold_layout
from workbench.analysis.display.layout import Region, merge_layout
from workbench.analysis.display.safe_text import display_text
from workbench.analysis.display.unified import DiffKind, unified_rows
from workbench.analysis.display.word_diff import word_changes
from workbench.analysis.xdiff import split_lines
from workbench.sample import SampleSync


def test_display_text_neutralises_terminal_controls() -> None:
    assert display_text(b"x = 1\r\n") == "x = 1"
    assert display_text(b"\tx\n") == "    x"
    assert display_text(b"\x1b]0;pwned\x07 ok") == "\\x1b]0;pwned\\x07 ok"
    assert display_text("caf\u00e9".encode("latin-1")) == "caf\u00e9"
    assert display_text("a\u202eb".encode()) == "a\\u202eb"


def test_word_changes_mark_only_the_words_that_differ() -> None:
    a, b = word_changes("self.cuda_graph_scope = x", "self.cuda_graph_modules = x")
    assert [("self.cuda_graph_scope = x")[s:e] for s, e in a] == ["cuda_graph_scope"]
    assert [("self.cuda_graph_modules = x")[s:e] for s, e in b] == ["cuda_graph_modules"]
    assert word_changes("same", "same") == ((), ())


def test_align3_pairs_replacements_on_the_base_line() -> None:
    base = [b"a\n", b"b\n", b"c\n"]
    dev = [b"a\n", b"B1\n", b"c\n"]
    main = [b"a\n", b"B2\n", b"extra\n", b"c\n"]
    assert align3(base, dev, main) == [(0, 0, 0), (1, 1, 1), (None, None, 2), (2, 2, 3)]


def test_layout_of_every_sample_file_reproduces_both_sides(sample_in_progress: SampleSync) -> None:
    _repo, analysis = open_analysis(sample_in_progress.path)
    checked = 0
    for entry in analysis.files:
        if entry.merge is None:
            continue
        layout = merge_layout(entry.merge, entry.hunks)
        dev = [r.dev.text for r in layout.rows if r.dev]
        main = [r.main.text for r in layout.rows if r.main]
        assert dev == [display_text(line) for line in entry.merge.ours]
        assert main == [display_text(line) for line in entry.merge.theirs]
        for hunk in entry.hunks:
            start, end = layout.hunk_rows[hunk.index]
            rows = layout.rows[start:end]
            assert all(r.region is Region.HUNK and r.hunk == hunk.index for r in rows)
            assert [r.dev.no for r in rows if r.dev] == list(range(hunk.dev.start, hunk.dev.end + 1))
            assert [r.main.text for r in rows if r.main] == [display_text(t) for t in hunk.main_text]
        checked += 1
    assert checked >= 10


def test_folds_hide_only_rows_outside_hunks_and_expand_on_request(sample_in_progress: SampleSync) -> None:
    _repo, analysis = open_analysis(sample_in_progress.path)
    entry, merge = max(((f, f.merge) for f in analysis.files if f.merge), key=lambda pair: len(pair[1].ours))
    layout = merge_layout(merge, entry.hunks)
    entries = fold_layout(layout, context=1)
    folds = [e for e in entries if isinstance(e, Fold)]
    shown = [e.index for e in entries if isinstance(e, RowRef)]
    hidden = [i for f in folds for i in range(f.start, f.end)]
    assert sorted(shown + hidden) == list(range(len(layout.rows)))
    assert all(layout.rows[i].region is not Region.HUNK for i in hidden)
    assert [e.hunk for e in entries if isinstance(e, HunkHeader)] == [h.index for h in entry.hunks]
    assert folds, "the longest sample file has context worth folding"
    opened = fold_layout(layout, context=1, expanded=frozenset({folds[0].start}))
    assert folds[0] not in opened and len(opened) == len(entries) - 1 + folds[0].lines


def _git_diff_body(tmp_path: Path, a: bytes, b: bytes) -> list[str]:
    (tmp_path / "a").write_bytes(a)
    (tmp_path / "b").write_bytes(b)
    out = subprocess.run(
        # The display uses xdiff as merges do: no indent heuristic (porcelain
        # `git diff` slides ambiguous groups with it by default).
        ["git", "diff", "--no-index", "--histogram", "--no-indent-heuristic", "-U3", "--no-color", "a", "b"],
        cwd=tmp_path, capture_output=True, check=False,
    ).stdout.decode()
    lines = []
    for line in out.splitlines():
        if line.startswith("@@"):
            lines.append(line.split(" @@")[0] + " @@")
        elif line[:1] in (" ", "+", "-") and not line.startswith(("+++", "---")):
            lines.append(line)
    return lines


def _ours(a: bytes, b: bytes) -> list[str]:
    prefix = {DiffKind.CONTEXT: " ", DiffKind.DELETE: "-", DiffKind.INSERT: "+"}
    return [
        row.text if row.kind is DiffKind.HEADER else prefix[row.kind] + row.text
        for row in unified_rows(split_lines(a), split_lines(b))
    ]


_LINES = st.lists(st.sampled_from(["a", "b", "c", "d", "x = 1", "", "def f():"]), max_size=30)


@settings(max_examples=60, deadline=None)
@given(_LINES, _LINES)
def test_unified_rows_match_git_diff(tmp_path_factory: pytest.TempPathFactory, a: list[str], b: list[str]) -> None:
    tmp = tmp_path_factory.mktemp("diff")
    old = "".join(f"{line}\n" for line in a).encode()
    new = "".join(f"{line}\n" for line in b).encode()
    assert _ours(old, new) == _git_diff_body(tmp, old, new)
