"""Files main has that the result lacks: restore when imported, leave when dev deleted them."""

from __future__ import annotations

import pytest
from helpers.syncs import analyze

from workbench.analysis.model import DeletedFile, SyncAnalysis
from workbench.analysis.serialize import analysis_to_json
from workbench.git.repo_files import LOGS_AT_ONCE
from workbench.sample import RepoBuilder
from workbench.sample.bot import finish_sync, start_sync


def _deleted(analysis: SyncAnalysis) -> dict[str, DeletedFile]:
    return {d.path: d for d in analysis.deleted_files}


def _history(b: RepoBuilder) -> dict[str, str]:
    """Dev deletes two modules; main's new code imports one of them; main adds a notes file."""
    b.write("pkg/__init__.py", "")
    b.write("pkg/schedule.py", "def plan():\n    return 1\n")
    b.write("pkg/legacy.py", "OLD = 1\n")
    b.write("pkg/core.py", "X = 1\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.delete("pkg/schedule.py")
    removed_schedule = b.commit("[dev] Replace the schedule (#11)")
    b.delete("pkg/legacy.py")
    removed_legacy = b.commit("[dev] Drop legacy (#12)")
    b.checkout("main")
    b.write("pkg/schedule.py", "def plan():\n    return 2\n")
    b.write("pkg/runner.py", "# uses pkg.schedule in a comment\nfrom pkg import schedule\n\nRUN = schedule.plan()\n")
    b.write("pkg/legacy.py", "OLD = 2\n")
    b.write("docs/notes.md", "notes\n")
    b.commit("Main's runner (#21)")
    return {"schedule": removed_schedule, "legacy": removed_legacy}


def test_restore_an_imported_file_and_leave_one_dev_deleted(builder: RepoBuilder) -> None:
    commits = _history(builder)
    start_sync(builder, "main2dev/sync", dev="dev", main="main")
    merge = finish_sync(builder, "main2dev/sync", main="main")
    builder.git("rm", "-q", "pkg/schedule.py", "pkg/legacy.py", "docs/notes.md")
    builder.commit("A careless fix")
    found = _deleted(analyze(builder.path, rev=merge, result="HEAD"))
    assert set(found) == {"pkg/schedule.py", "pkg/legacy.py", "docs/notes.md"}
    schedule = found["pkg/schedule.py"]
    assert schedule.verdict == "restore-file" and [(i.path, i.line) for i in schedule.importers] == [("pkg/runner.py", 2)]
    assert schedule.deleted_by is not None and schedule.deleted_by.sha == commits["schedule"]
    assert f"git checkout {builder.rev('main')} -- pkg/schedule.py" in schedule.message
    legacy = found["pkg/legacy.py"]
    assert legacy.verdict == "leave-deleted" and legacy.importers == ()
    assert legacy.deleted_by is not None and legacy.deleted_by.sha == commits["legacy"] and "(#12)" in legacy.message
    notes = found["docs/notes.md"]
    assert notes.verdict == "check" and not notes.in_base and not notes.dev_present


def test_a_plain_sync_lists_devs_deletions_in_json(builder: RepoBuilder) -> None:
    _history(builder)
    analysis = analyze(builder.path, dev="dev", main="main")
    doc = analysis_to_json(analysis)
    entries = {d["path"]: d for d in doc["deleted_files"]}
    assert doc["summary"]["deleted_files"] == len(entries)
    assert entries["pkg/schedule.py"]["verdict"] == "restore-file"
    assert entries["pkg/schedule.py"]["importers"] == [{"path": "pkg/runner.py", "line": 2}]
    assert entries["pkg/schedule.py"]["deleted_by"]["pr"] == 11


def test_nothing_missing_nothing_listed(builder: RepoBuilder) -> None:
    builder.write("a.py", "A = 1\n")
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write("a.py", "A = 2\n")
    builder.commit("[dev] two (#1)")
    builder.checkout("main")
    builder.write("b.py", "B = 1\n")
    builder.commit("b (#2)")
    assert analyze(builder.path, dev="dev", main="main").deleted_files == ()


def test_a_relative_import_from_a_sibling_package_is_found(builder: RepoBuilder) -> None:
    """``from ..legacy import model`` names neither ``legacy.model`` nor ``pkg.legacy``: the deleted-files audit
    still parses it (it says "restore" only when something imports the file)."""
    builder.write("pkg/__init__.py", "").write("pkg/legacy/__init__.py", "").write("pkg/legacy/model.py", "M = 1\n")
    builder.write("pkg/train/__init__.py", "").commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.delete("pkg/legacy/model.py").commit("[dev] Drop the legacy model (#11)")
    builder.checkout("main")
    builder.write("pkg/legacy/model.py", "M = 2\n")
    builder.write("pkg/train/loop.py", "from ..legacy import model\n\nRUN = model.M\n").commit("Main's loop (#21)")
    start_sync(builder, "main2dev/sync", dev="dev", main="main")
    merge = finish_sync(builder, "main2dev/sync", main="main")
    builder.git("rm", "-q", "pkg/legacy/model.py")
    builder.commit("A careless fix")
    found = _deleted(analyze(builder.path, rev=merge, result="HEAD"))
    model = found["pkg/legacy/model.py"]
    assert [(i.path, i.line) for i in model.importers] == [("pkg/train/loop.py", 1)]
    assert model.verdict == "restore-file"


def test_pathspec_settings_in_the_environment_change_nothing(
    builder: RepoBuilder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GIT_LITERAL_PATHSPECS=1`` would read the tool's ``:(literal)PATH`` as a file of that name."""
    commits = _history(builder)
    monkeypatch.setenv("GIT_LITERAL_PATHSPECS", "1")
    found = _deleted(analyze(builder.path, dev="dev", main="main"))
    assert found["pkg/legacy.py"].deleted_by is not None and found["pkg/legacy.py"].deleted_by.sha == commits["legacy"]


def test_each_of_many_deletions_names_its_own_commit(builder: RepoBuilder) -> None:
    """More files than ``deletions`` runs git logs at once: each still gets the commit that deleted it."""
    count = LOGS_AT_ONCE * 2 + 1
    for k in range(count):
        builder.write(f"data/f{k}.txt", f"{k}\n")
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    deleting = {}
    for k in reversed(range(count)):  # deleted in another order than the paths sort in
        builder.delete(f"data/f{k}.txt")
        deleting[f"data/f{k}.txt"] = builder.commit(f"[dev] Drop f{k} (#{100 + k})")
    builder.checkout("main")
    for k in range(count):
        builder.write(f"data/f{k}.txt", f"{k} on main\n")
    builder.commit("Main edits every file (#1)")
    found = _deleted(analyze(builder.path, dev="dev", main="main"))
    assert {path: d.deleted_by.sha if d.deleted_by else None for path, d in found.items()} == deleting
    assert all(d.verdict == "leave-deleted" for d in found.values())


def test_a_file_the_sync_itself_deleted_is_to_check_not_devs_intent(builder: RepoBuilder) -> None:
    """An earlier sync merged main into dev and a fix on its branch deleted main's new file: not dev's doing."""
    builder.write("pkg/core.py", "X = 1\n")
    builder.commit("Initial import")
    builder.branch("dev")
    builder.write("pkg/extra.py", "EXTRA = 1\n")
    builder.commit("Main's extra (#21)")
    builder.checkout("dev")
    builder.write("pkg/core.py", "X = 2\n")
    builder.commit("[dev] two (#11)")
    builder.branch("sync1").checkout("sync1")
    assert builder.merge("main", check=True) == 0
    builder.delete("pkg/extra.py")
    fix = builder.commit("fix: post-CI corrections (unused modules)")
    builder.checkout("dev")
    builder.git("merge", "-q", "--no-ff", "-m", "Merge the sync (#30)", "sync1")
    builder.checkout("main")
    builder.write("pkg/core.py", "X = 1\nY = 3\n")
    builder.commit("Main's Y (#22)")
    found = _deleted(analyze(builder.path, dev="dev", main="main"))
    extra = found["pkg/extra.py"]
    assert extra.deleted_by is not None and extra.deleted_by.sha == fix
    assert extra.verdict == "check" and "the sync itself deleted it" in extra.message
