"""Changes beyond git's own merge: files and regions the resolution changed outside any conflict.

Each test builds a small repository where git merges a file cleanly and the
resolution (the merge commit, a commit after it, or the user's work tree)
holds something else there; the analysis must list the file and point at
the region, against ``git merge-tree``'s automatic merge.
"""

from __future__ import annotations

from helpers.syncs import analyze_repo

from workbench.analysis.display.folds import HunkHeader, fold_layout
from workbench.analysis.display.layout import merge_layout, with_edits
from workbench.analysis.model import FileStatus, HunkKind, Level, Taken
from workbench.analysis.serialize import analysis_to_json
from workbench.sample import RepoBuilder

CLEAN = "pkg/clean.py"
CONFLICT = "pkg/conflict.py"


def _module(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


BASE = [f"def f{i}():\n    return {i}\n" for i in range(8)]


def _with(changes: dict[int, str]) -> str:
    return _module([changes.get(i, text) for i, text in enumerate(BASE)])


def _sync(b: RepoBuilder, dev_clean: dict[int, str], main_clean: dict[int, str]) -> None:
    """A base, dev and main that conflict in CONFLICT and both change CLEAN (git merges it cleanly)."""
    b.write(CLEAN, _with({})).write(CONFLICT, "value = 0\n").commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(CLEAN, _with(dev_clean)).write(CONFLICT, "value = 1\n").commit("[dev] Dev work (#11)")
    b.checkout("main")
    b.write(CLEAN, _with(main_clean)).write(CONFLICT, "value = 2\n").commit("Main work (#21)")
    b.checkout("dev")


MAIN_ADDITION = {5: "def f5():\n    return 5\n\n\ndef restore_offload(buffers):\n    return buffers.flush()\n"}
DEV_CHANGE = {1: "def f1():\n    return compute_dev_value(1)\n"}


def test_bot_keeping_devs_whole_file_drops_mains_clean_addition(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, MAIN_ADDITION)
    main_commit = builder.rev("main")
    assert builder.merge("main", no_commit=True) == 1
    builder.write(CONFLICT, "value = 1\n").git("checkout", "dev", "--", CLEAN)
    builder.git("add", "-A")
    merge = builder.commit("Merge main into dev (bot resolution)")

    analysis = analyze_repo(builder.path, merge)
    entry = analysis.file(CLEAN)
    assert entry is not None and entry.status is FileStatus.TOOK_DEV_FILE
    assert entry.hunks == () and len(entry.edits) == 1
    edit = entry.edits[0]
    assert edit.kind is HunkKind.EDIT and edit.taken is Taken.DEV
    main_lines = builder.read(CLEAN, "main").decode().splitlines()
    added = main_lines[edit.main.start - 1 : edit.main.end]
    assert "def restore_offload(buffers):" in added and edit.dev.empty
    assert main_commit in edit.main_commits
    assert edit.level is Level.HIGH
    assert any(s.kind == "resolution-dropped-main" and main_commit in s.commits for s in edit.signals)
    hunks = {f["path"]: f["hunks"] for f in analysis_to_json(analysis)["files"]}
    assert [h["kind"] for h in hunks[CLEAN]] == ["edit"]
    assert [h["kind"] for h in hunks[CONFLICT]] == ["conflict"]


def test_merge_commit_reverting_a_clean_main_change_is_an_edit(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, {3: "def f3():\n    return 33\n", 6: "def f6():\n    return fused_group_mlp(6)\n"})
    assert builder.merge("main", no_commit=True) == 1
    merged = builder.read(CLEAN).decode().replace("return fused_group_mlp(6)", "return 6")
    builder.write(CONFLICT, "value = 2\n").write(CLEAN, merged).git("add", "-A")
    merge = builder.commit("Merge main into dev")

    entry = analyze_repo(builder.path, merge).file(CLEAN)
    assert entry is not None and entry.status is FileStatus.RESOLUTION_EDITED
    (edit,) = entry.edits
    assert edit.taken is Taken.DEV
    assert [line.strip() for line in edit.main_text] == [b"return fused_group_mlp(6)"]
    assert [line.strip() for line in edit.result_text or ()] == [b"return 6"]
    assert edit.base.count == edit.dev.count == edit.main.count == 1


def test_commit_after_the_merge_taking_mains_copy_loses_devs_clean_change(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, MAIN_ADDITION)
    dev_commit = builder.rev("dev")
    builder.merge("main", "theirs", check=True)
    merge = builder.rev("HEAD")
    builder.git("checkout", "main", "--", CLEAN)
    head = builder.commit("fix: take main's clean.py")

    assert analyze_repo(builder.path, merge).file(CLEAN) is None  # git's merge itself is untouched
    entry = analyze_repo(builder.path, merge, result=head).file(CLEAN)
    assert entry is not None and entry.status is FileStatus.TOOK_MAIN_FILE
    (edit,) = entry.edits
    assert edit.taken is Taken.MAIN and dev_commit in edit.dev_commits
    assert b"compute_dev_value" in b"".join(edit.dev_text)
    assert any(s.kind == "resolution-dropped-dev" for s in edit.signals)
    assert edit.level is Level.HIGH


def test_users_edit_of_a_clean_region_during_a_merge_in_progress(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, MAIN_ADDITION)
    assert builder.merge("main") == 1
    merged = builder.read(CLEAN).decode()
    builder.write(CLEAN, merged.replace("return 3\n", "return 33  # tuned by hand\n"))

    analysis = analyze_repo(builder.path)
    assert analysis.file(CONFLICT) is not None
    entry = analysis.file(CLEAN)
    assert entry is not None and entry.status is FileStatus.RESOLUTION_EDITED
    (edit,) = entry.edits
    assert edit.taken is Taken.OTHER
    assert edit.result_text == (b"    return 33  # tuned by hand\n",)
    assert edit.dev_text == edit.main_text == edit.base_text == (b"    return 3\n",)


def test_edit_outside_a_conflict_in_a_conflicted_file(builder: RepoBuilder) -> None:
    builder.write(CONFLICT, _with({})).commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(CONFLICT, _with({0: "def f0():\n    return 'dev'\n"})).commit("[dev] Dev (#11)")
    builder.checkout("main")
    builder.write(CONFLICT, _with({0: "def f0():\n    return 'main'\n", 6: "def f6():\n    return 66\n"}))
    builder.commit("Main (#21)")
    builder.checkout("dev")
    assert builder.merge("main", no_commit=True) == 1
    builder.write(CONFLICT, _with({0: "def f0():\n    return 'main'\n"})).git("add", "-A")
    merge = builder.commit("Merge main into dev")

    entry = analyze_repo(builder.path, merge).file(CONFLICT)
    assert entry is not None and len(entry.hunks) == 1 and entry.hunks[0].kind is HunkKind.CONFLICT
    (edit,) = entry.edits
    assert edit.index == 1 and edit.taken is Taken.DEV
    assert edit.main_text == (b"    return 66\n",)


def test_newer_dev_merged_on_the_pr_branch_is_not_an_edit(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, MAIN_ADDITION)
    builder.branch("sync", "dev").checkout("sync")
    builder.merge("main", "theirs", check=True)
    merge = builder.rev("HEAD")
    builder.checkout("dev")
    later = builder.read(CLEAN).decode().replace("return 7\n", "return later_dev_work(7)\n")
    builder.write(CLEAN, later).commit("[dev] Later dev work (#12)")
    builder.checkout("sync")
    builder.merge("dev", check=True)
    head = builder.rev("HEAD")

    analysis = analyze_repo(builder.path, merge, result=head)
    assert analysis.file(CLEAN) is None, [(f.path, f.status) for f in analysis.files]


def test_the_layout_places_an_edit_hunk_on_the_merges_own_rows_after_the_conflict(builder: RepoBuilder) -> None:
    _sync(builder, DEV_CHANGE, {6: "def f6():\n    return fused_group_mlp(6)\n"})
    builder.write(CONFLICT, _with({0: "def f0():\n    return dev_zero()\n"}))
    builder.git("commit", "-qam", "[dev] conflicting f0")
    builder.checkout("main").write(CONFLICT, _with({0: "def f0():\n    return main_zero()\n"}))
    builder.git("commit", "-qam", "main conflicting f0")
    builder.checkout("dev")
    assert builder.merge("main", no_commit=True) == 1
    resolved = _with({0: "def f0():\n    return dev_zero()\n"})
    builder.write(CONFLICT, resolved.replace("return 6\n", "return 66\n")).git("add", "-A")
    merge = builder.commit("Merge main into dev")

    entry = analyze_repo(builder.path, merge).file(CONFLICT)
    assert entry is not None and entry.merge is not None
    assert len(entry.hunks) == 1 and len(entry.edits) == 1
    plain = merge_layout(entry.merge, entry.hunks)
    layout = with_edits(plain, entry.edits)
    assert layout.rows == plain.rows and layout.hunk_rows[0] == plain.hunk_rows[0]
    edit = entry.edits[0]
    start, end = layout.hunk_rows[edit.index]
    assert start >= plain.hunk_rows[0][1] and end > start
    dev_numbers = [row.dev.no for row in layout.rows[start:end] if row.dev is not None]
    assert dev_numbers == list(range(edit.dev.start, edit.dev.end + 1))
    headers = [e.hunk for e in fold_layout(layout) if isinstance(e, HunkHeader)]
    assert headers == [0, edit.index]
