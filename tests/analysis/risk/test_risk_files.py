"""File-level signals for files without hunks: one side deleted the file, or both changed a binary."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers.signals import only_file
from helpers.syncs import analyze_preview, analyze_repo

from workbench.analysis.engine import analyze
from workbench.analysis.model import FileAnalysis, Level, Signal, SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.git.snapshot import load_sync
from workbench.sample import RepoBuilder, Risk, SampleSync
from workbench.sample.bot import finish_sync
from workbench.sample.structure import HYBRID_NORM, IMAGE, RMS_NORM, SHIM

_LEVEL = {Risk.HIGH: Level.HIGH, Risk.MEDIUM: Level.MEDIUM, Risk.LOW: Level.LOW}

Template = Callable[[str], SampleSync]


def _analysis(sample: SampleSync) -> SyncAnalysis:
    return analyze_repo(sample.path, sample.merge)


def _only_signal(entry: FileAnalysis) -> Signal:
    assert not entry.hunks
    (found,) = entry.signals
    return found


def test_main_deleted_a_file_the_result_still_imports(sample_template: Template) -> None:
    sample = sample_template("merge-commit")
    truth = sample.truth(RMS_NORM)
    entry = only_file(_analysis(sample), RMS_NORM)
    found = _only_signal(entry)
    assert found.kind == "main-deleted-file"
    assert found.message == (
        "main's #251 deleted this file (\u201cRemove the unused legacy RMSNorm (#251)\u201d); "
        "dev's #151 changed it since the base, and the result lacks it; "
        f"the result still imports it ({HYBRID_NORM}:3)"
    )
    assert found.commits == (*truth.carriers, *truth.dropped_commits)
    assert entry.level is Level.HIGH is _LEVEL[truth.risk]


def test_dev_deleted_a_file_the_bot_brought_back(sample_template: Template) -> None:
    sample = sample_template("merge-commit")
    truth = sample.truth(SHIM)
    entry = only_file(_analysis(sample), SHIM)
    found = _only_signal(entry)
    assert found.kind == "dev-deleted-file"
    assert found.message == (
        "dev's #152 deleted this file (\u201c[dev] Remove the deprecated custom_layers shim (#152)\u201d); "
        "main's #252 changed it since the base, and the result has main's copy again; "
        "nothing in the result imports it"
    )
    assert found.commits == (truth.evidence, *truth.carriers)
    assert entry.level is Level.MEDIUM is _LEVEL[truth.risk]


def test_a_binary_changed_on_both_sides_asks_for_a_comparison(sample_template: Template) -> None:
    entry = only_file(_analysis(sample_template("merge-commit")), IMAGE)
    found = _only_signal(entry)
    assert found.kind == "binary-changed-both"
    assert found.message == (
        "both sides changed this binary file (dev's #154, main's #254) and the result has main's version: "
        "compare the two versions"
    )
    assert entry.level is Level.MEDIUM


def test_a_merge_in_progress_speaks_of_taking_mains_side(sample_template: Template) -> None:
    analysis = analyze_repo(sample_template("in-progress").path)
    norm = only_file(analysis, RMS_NORM)
    assert "; the file is still conflicted, and taking main's side deletes it; the result still imports it" in (
        _only_signal(norm).message
    )
    assert norm.level is Level.HIGH
    shim = only_file(analysis, SHIM)
    assert "; the file is still conflicted, and taking main's side brings main's copy back" in (
        _only_signal(shim).message
    )
    assert shim.level is Level.MEDIUM


KNOWN = {
    "pyproject.toml": (Level.HIGH, "dev's hand-written pin is lost: scored like code even without a policy"),
    "uv.lock": (Level.LOW, "keep-dev policy file: the sample has no policy (--policy megatron makes it high)"),
    "megatron/training/training.py": (Level.HIGH, "override-from-main file: the sample has no policy, so dev's lost line reads high"),
    "docker/Dockerfile.ci.dev": (Level.HIGH, "keep-dev file: dev's lost pin, with no sign main saw it, reads high"),
    ".github/CODEOWNERS": (Level.HIGH, "keep-dev file: dev's lost owner line, with no sign main saw it, reads high"),
    "megatron/core/nvtx_utils.py": (Level.HIGH, "a whole function dev wrote, dropped beside main's squash of it"),
    IMAGE: (Level.MEDIUM, "nothing in either history says which version is newer: a person has to compare them"),
    "examples/run_simple_mcore_train_loop.py": (Level.HIGH, "a contested literal (10 iterations vs 5): dev's value is lost"),
}
"""Where the analysis disagrees with the sample's ground truth, and why (each is checked to stay so)."""


@pytest.mark.parametrize("state", ["merge-commit", "in-progress"])
def test_sample_files_against_their_ground_truth(sample_template: Template, state: str) -> None:
    sample = sample_template(state)
    analysis = _analysis(sample)
    wrong = []
    for truth in sample.files:
        entry = analysis.file(truth.path)
        scored = entry.level if entry is not None else Level.LOW
        expected = KNOWN[truth.path][0] if truth.path in KNOWN else _LEVEL[truth.risk]
        if scored is not expected:
            wrong.append((truth.path, scored.value, expected.value))
    assert not wrong


def _deleted_on_main(b: RepoBuilder, importer: str | None) -> None:
    """``pkg/old.py`` changed on dev (#11), deleted on main (#31); dev's ``importer`` file imports it."""
    b.write("pkg/__init__.py", "").write("pkg/old.py", "def thing():\n    return 1\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write("pkg/old.py", "def thing():\n    return 2\n")
    if importer is not None:
        b.write("pkg/user.py", importer)
    b.commit("[dev] Return two (#11)")
    b.checkout("main").delete("pkg/old.py")
    b.commit("Remove pkg.old (#31)")
    b.checkout("dev")
    assert b.merge("main", "theirs") == 1
    finish_sync(b, "sync", "main")


def test_main_deleted_a_file_nothing_imports(builder: RepoBuilder) -> None:
    _deleted_on_main(builder, None)
    entry = only_file(analyze_repo(builder.path, "HEAD"), "pkg/old.py")
    found = _only_signal(entry)
    assert found.message.endswith(
        "dev's #11 changed it since the base, and the result lacks it; nothing in the result imports it"
    )
    assert found.weight == 10 and entry.level is Level.LOW


def test_a_relative_import_counts_as_an_importer(builder: RepoBuilder) -> None:
    _deleted_on_main(builder, '"""Uses old."""\n\nfrom .old import thing\n\nVALUE = thing()\n')
    entry = only_file(analyze_repo(builder.path, "HEAD"), "pkg/old.py")
    assert _only_signal(entry).message.endswith("; the result still imports it (pkg/user.py:3)")
    assert entry.level is Level.HIGH


def test_without_a_repository_reader_importers_go_unsaid(builder: RepoBuilder) -> None:
    _deleted_on_main(builder, "from pkg.old import thing\n")
    repo = GitRepo.open(builder.path)
    snapshot = load_sync(repo, "HEAD")
    analysis = analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes)
    found = _only_signal(only_file(analysis, "pkg/old.py"))
    assert found.message.endswith("dev's #11 changed it since the base, and the result lacks it")


def test_dev_deleted_a_file_and_the_result_leaves_it_deleted(builder: RepoBuilder) -> None:
    builder.write("tool.sh", "echo one\n")
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev").delete("tool.sh")
    builder.commit("[dev] Drop tool.sh (#12)")
    builder.checkout("main").write("tool.sh", "echo two\n")
    builder.commit("Print two (#32)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 1
    builder.git("rm", "-q", "--", "tool.sh")
    builder.commit("Merge main into dev")
    entry = only_file(analyze_repo(builder.path, "HEAD"), "tool.sh")
    found = _only_signal(entry)
    assert found.message == (
        "dev's #12 deleted this file (\u201c[dev] Drop tool.sh (#12)\u201d); main's #32 changed it since the base, "
        "and the result leaves it deleted"
    )
    assert found.weight < 0 and entry.level is Level.LOW


def _png(seed: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00" + bytes((i * seed) % 256 for i in range(64))


def test_a_binary_main_took_from_an_older_dev_state(builder: RepoBuilder) -> None:
    builder.write("fig.png", _png(1))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev").write("fig.png", _png(2))
    first = builder.commit("[dev] Redraw the figure (#13)")
    builder.write("fig.png", _png(3))
    builder.commit("[dev] Fix the figure's colours (#14)")
    builder.checkout("main").write("fig.png", _png(2))
    builder.commit("Redraw the figure (#33)")
    entry = only_file(analyze_preview(builder.path), "fig.png")
    kinds = [s.kind for s in entry.signals]
    assert kinds == ["binary-changed-both", "older-dev-state"]
    assert entry.signals[1].message == (
        "main's version is this file as dev's #13 left it; dev's #14 changed it afterwards, "
        "and main's version undoes that"
    )
    assert entry.signals[1].commits[-1] == first
    assert entry.level is Level.HIGH


def test_a_binary_main_had_devs_version_then_changed(builder: RepoBuilder) -> None:
    builder.write("fig.png", _png(1))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev").write("fig.png", _png(2))
    builder.commit("[dev] Redraw the figure (#13)")
    builder.checkout("main").write("fig.png", _png(2))
    builder.commit("Redraw the figure (#33)")
    builder.write("fig.png", _png(4))
    builder.commit("Brighten the figure (#34)")
    entry = only_file(analyze_preview(builder.path), "fig.png")
    assert [s.kind for s in entry.signals] == ["binary-changed-both", "main-ahead"]
    assert "main's #34 changed it afterwards" in entry.signals[1].message
    assert entry.level is Level.LOW


@pytest.mark.parametrize("state", ["merge-commit", "in-progress", "branches"])
def test_importers_are_found_in_each_situation(sample_template: Template, state: str) -> None:
    """The result is a commit's tree, the work tree of a merge in progress, or merge-tree's tree in a preview."""
    sample = sample_template(state)
    analysis = analyze_preview(sample.path, sample.dev, sample.main) if state == "branches" else _analysis(sample)
    message = _only_signal(only_file(analysis, RMS_NORM)).message
    assert message.endswith(f"; the result still imports it ({HYBRID_NORM}:3)")


def test_dev_deleted_a_file_main_still_imports_keeps_the_audits_words(builder: RepoBuilder) -> None:
    """The deleted-files audit says the result imports it and weighs that; this stage adds who changed what."""
    builder.write("pkg/__init__.py", "").write("pkg/old.py", "def thing():\n    return 1\n")
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev").delete("pkg/old.py")
    builder.commit("[dev] Drop pkg.old (#12)")
    builder.checkout("main").write("pkg/old.py", "def thing():\n    return 2\n")
    builder.write("pkg/user.py", "from pkg.old import thing\n")
    builder.commit("Return two, and use it (#32)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 1
    builder.git("rm", "-q", "--", "pkg/old.py")
    builder.commit("Merge main into dev")
    analysis = analyze_repo(builder.path, "HEAD")
    (finding,) = analysis.deleted_files
    assert finding.path == "pkg/old.py" and finding.importers
    entry = only_file(analysis, "pkg/old.py")
    assert [s.kind for s in entry.signals] == ["deleted-imported", "dev-deleted-file"]
    mine = entry.signals[1]
    assert mine.message == (
        "dev's #12 deleted this file (\u201c[dev] Drop pkg.old (#12)\u201d); main's #32 changed it since the base, "
        "and the result leaves it deleted"
    )
    assert mine.weight == 0 and mine.commits[0] == builder.rev("dev~1")
    assert entry.level is Level.HIGH
