"""The app's non-Textual parts: workspace navigation and texts, syntax spans, the external editor."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workbench.analysis.model import ConflictKind, FileStatus, Level, SyncAnalysis
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder, SampleSync
from workbench.sample.structure import RMS_NORM
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.actions.editing import built_in_editable
from workbench.tui.editor import EditorFailed, run_editor
from workbench.tui.glyphs import status_letters, status_words
from workbench.tui.presentation.file_list import outline_row, totals
from workbench.tui.presentation.worklist import why_lines
from workbench.tui.syntax import MAX_LINES, python_spans

LAYER = "megatron/core/transformer/transformer_layer.py"


@pytest.fixture
def ws(sample_in_progress: SampleSync) -> Workspace:
    return Workspace.open(SyncRequest(repo=sample_in_progress.path))


def test_hunk_result_follows_the_decision(ws: Workspace) -> None:
    hunk = ws.hunk(LAYER, 1)
    assert ws.hunk_result(LAYER, 1) == hunk.result_text
    ws.decide(LAYER, 1, Decision(Choice.BOTH))
    assert ws.hunk_result(LAYER, 1) == (*hunk.dev_text, *hunk.main_text)
    ws.decide(LAYER, 1, Decision(Choice.CUSTOM, b"x = 1\n"))
    assert ws.hunk_result(LAYER, 1) == (b"x = 1\n",)


def test_the_edit_seed_shows_all_three_sides_until_decided(ws: Workspace) -> None:
    seed = ws.edit_seed(LAYER, 0).decode()
    assert seed.startswith("<<<<<<< dev\n") and "\n||||||| base\n" in seed and seed.endswith(">>>>>>> main\n")
    ws.decide(LAYER, 0, Decision(Choice.DEV))
    assert ws.edit_seed(LAYER, 0) == b"".join(ws.hunk(LAYER, 0).dev_text)


def test_conflicted_hunks_show_their_markers_in_the_result(ws: Workspace) -> None:
    conflicted = [f for f in ws.files if f.status is FileStatus.CONFLICTED and f.hunks]
    for entry in conflicted:
        shown = ws.hunk_result(entry.path, 0)
        assert shown is not None and shown[0].startswith(b"<<<<<<<")


def test_a_conflicted_hunk_shows_the_block_the_work_tree_holds(builder: RepoBuilder) -> None:
    """git's own labels, diff3 base section and marker size, as "still conflicted in the work tree" says."""
    builder.git("config", "merge.conflictStyle", "diff3")
    builder.write(".gitattributes", "*.txt conflict-marker-size=9\n")
    builder.write("x.txt", "a\nb\nc\n").commit("base")
    builder.branch("dev").checkout("dev").write("x.txt", "a\nDEV\nc\n").commit("dev (#2)")
    builder.checkout("main").write("x.txt", "a\nMAIN\nc\n").commit("main (#3)")
    builder.checkout("dev").merge("main")
    ws = Workspace.open(SyncRequest(repo=builder.path))
    shown = ws.hunk_result("x.txt", 0)
    assert shown is not None and b"".join(shown) in builder.read("x.txt")
    assert shown[0] == b"<<<<<<<<< HEAD\n" and shown[2].startswith(b"||||||||| ") and shown[-1] == b">>>>>>>>> main\n"


def test_editor_precedence_follows_git(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GIT_EDITOR", "VISUAL", "EDITOR"):
        monkeypatch.delenv(var, raising=False)
    assert ws.editor(None) is None
    monkeypatch.setenv("EDITOR", "ed")
    monkeypatch.setenv("VISUAL", "vis")
    assert ws.editor(None) == "vis"
    monkeypatch.setenv("GIT_EDITOR", "giteditor")
    assert ws.editor(None) == "giteditor"
    assert ws.editor("configured") == "configured"


def test_run_editor_returns_what_the_editor_saved(tmp_path: Path) -> None:
    script = tmp_path / "fake_editor.py"
    script.write_text("import sys\np = sys.argv[-1]\nopen(p, 'a').write('# edited\\n')\n")
    command = f"{sys.executable} {script}"
    assert run_editor(command, b"x = 1\n", ".py") == b"x = 1\n# edited\n"
    failing = tmp_path / "fail.py"
    failing.write_text("raise SystemExit(1)\n")
    with pytest.raises(EditorFailed, match="exited with status 1"):
        run_editor(f"{sys.executable} {failing}", b"x\n", ".py")
    with pytest.raises(EditorFailed, match="'/no/such/editor' could not be started"):
        run_editor("/no/such/editor --wait", b"x\n", ".py")
    with pytest.raises(EditorFailed, match="cannot be read"):
        run_editor("vim 'unclosed", b"x\n", ".py")


def test_python_spans_colour_keywords_strings_and_comments() -> None:
    spans = python_spans(b"def f():\n    return 'x'  # done\n\tif y: pass\n")
    assert (0, 3, "keyword") in spans[0] and (4, 5, "function") in spans[0]
    kinds = {kind for _s, _e, kind in spans[1]}
    assert {"keyword", "string", "comment"} <= kinds
    assert 2 not in spans, "lines with tabs display differently: left plain"
    assert python_spans(b"x = 1\n" * (MAX_LINES + 1)) == {}, "very large files are not highlighted"


def test_python_spans_count_characters_not_bytes() -> None:
    spans = python_spans("s = 'héllo'  # ok\n".encode())
    assert (4, 11, "string") in spans[0] and (13, 17, "comment") in spans[0]


def test_an_unresolved_modify_delete_reads_as_modify_delete(ws: Workspace) -> None:
    entry = ws.entry(RMS_NORM)
    assert entry.status is FileStatus.CONFLICTED and entry.kind is ConflictKind.MODIFY_DELETE
    assert status_letters(entry) == "D "
    assert status_words(entry) == "modify/delete, unresolved"


def test_outline_rows_do_not_guess_a_content_file_status(sample_merge_commit: SampleSync) -> None:
    seen: list[SyncAnalysis | None] = []
    Workspace.open(SyncRequest(repo=sample_merge_commit.path, rev="HEAD"),
                   lambda p: seen.append(p.analysis) if p.phase == "outline" else None)
    outline = seen[0]
    assert outline is not None
    content = [f for f in outline.files if f.kind is ConflictKind.CONTENT]
    assert content and all(outline_row(f).status == "· " for f in content)
    deleted = [f for f in outline.files if f.kind is ConflictKind.MODIFY_DELETE]
    assert deleted and all(outline_row(f).status.startswith("D") for f in deleted)


def test_the_editor_gets_a_file_whatever_the_extension(tmp_path: Path) -> None:
    """Issue 19.10: ``e`` on a file with a very long extension raised OSError (name too long)."""
    script = tmp_path / "name_editor.py"
    script.write_text("import sys\nopen(sys.argv[-1], 'a').write(sys.argv[-1].rpartition('.')[2] + '\\n')\n")
    command = f"{sys.executable} {script}"
    assert run_editor(command, b"x\n", "." + "e" * 300) == b"x\ntxt\n"
    assert run_editor(command, b"x\n", ".py") == b"x\npy\n"
    assert run_editor(command, b"x\n", ".a\nb") == b"x\ntxt\n"


@pytest.mark.parametrize("seed", [
    b"dev = 1  # \x1b[31mred\x1b]0;TITLE\x07\n",  # an escape sequence would act on the terminal
    b"a = 1\r\nb = 2\r\n",  # the TextArea would rewrite the CRs
    b"name = '\xe9t\xe9'\n",  # Latin-1: not UTF-8
    b"x = '\xc2\x9b2J'\n",  # a C1 control (CSI), valid UTF-8
])
def test_the_built_in_editor_refuses_text_it_would_not_show_or_keep_as_it_is(seed: bytes) -> None:
    with pytest.raises(EditorFailed, match="built-in editor"):
        built_in_editable(seed)


def test_the_built_in_editor_takes_plain_text_as_it_is() -> None:
    assert built_in_editable("x = 'é'\n\tpass\n".encode()) == "x = 'é'\n\tpass\n"


def test_a_high_risk_file_without_hunks_counts_as_high_risk_until_chosen(ws: Workspace) -> None:
    """The counters above the list: choosing such a file lowers "undecided" and "high risk" alike."""
    entry = ws.entry(RMS_NORM)
    assert not entry.all_hunks and entry.level is Level.HIGH
    before = totals(ws)
    ws.choose_file(RMS_NORM, FileChoice.TAKE_MAIN)
    after = totals(ws)
    assert before.high is not None and after.high is not None, "the risk is known"
    assert (before.undecided - after.undecided, before.high - after.high) == (1, 1)


def test_an_items_sentence_breaks_between_words_and_shows_its_cut() -> None:
    """The worklist's rows wrap an item's sentence at words ("1 hun" / "k of" read badly), within the row."""
    sentence = ("_is_distopt_quantized_param fails in 1 hunk of megatron/core/optimizer/distrib_optimizer.py: dev's "
                "code calls it, but main's class has no such method")
    lines = why_lines(sentence, 42)
    assert lines == ["_is_distopt_quantized_param fails in 1", "hunk of megatron/core/optimizer/distrib_o…"]
    assert all(len(line) <= 42 for line in lines)
    assert why_lines("a path/that/is/far/longer/than/one/line/of/the/list", 20) == [
        "a path/that/is/far/l", "onger/than/one/line…"], "a word longer than a line is broken inside"
    assert why_lines("short", 42) == ["short"]
