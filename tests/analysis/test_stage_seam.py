"""The stage seam: every stage gives the same analysis in one process or shared with a forked child,
whoever claims its units; the scheduler groups stages into waves by what they read and write; and a
new stage is one module plus one entry in the list."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import pytest

from workbench.analysis import engine, forked
from workbench.analysis.forked import Runner
from workbench.analysis.model import FileAnalysis, Level, Signal, SignalKind, SyncAnalysis
from workbench.analysis.pipeline import IN_PROCESS, StageProgress, run_stages, waves
from workbench.analysis.seam import AnalysisContext, AnyStage, Fact, Stage, Unit
from workbench.analysis.serialize import analysis_to_json
from workbench.analysis.stages import DEFAULT_STAGES
from workbench.cli import main
from workbench.git.repo import GitRepo
from workbench.git.repo_files import RepoFiles
from workbench.git.snapshot import load_sync
from workbench.sample import RepoBuilder, SampleSync


@dataclass(frozen=True)
class _Given:
    """What the engine hands the stages: the analysis before them, and their context."""

    analysis: SyncAnalysis
    context: AnalysisContext


@pytest.fixture
def given(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> _Given:
    """The sample's engine output and stage context, as ``workbench analyze`` builds them (policy, whole-tree reader)."""
    seen: list[_Given] = []

    def recorded(analysis: SyncAnalysis, context: AnalysisContext, stages: Sequence[AnyStage],
                 runner: Runner = IN_PROCESS, report: StageProgress = lambda _name, _done, _total: None) -> SyncAnalysis:
        seen.append(_Given(analysis, context))
        return run_stages(analysis, context, stages, runner, report)

    monkeypatch.setenv(forked.JOBS_VARIABLE, "1")
    monkeypatch.setattr(engine, "run_stages", recorded)
    assert main(["analyze", "--json", "--no-cache", "--policy", "megatron", "--repo", str(sample_merge_commit.path)]) == 0
    capsys.readouterr()
    (found,) = seen
    assert found.context.repo_files is not None and found.context.policy is not None
    return found


def _text(analysis: SyncAnalysis) -> str:
    return json.dumps(analysis_to_json(analysis), sort_keys=True)


def _claimed_only_by(monkeypatch: pytest.MonkeyPatch, who: str) -> None:
    """``parent`` or ``child``: only that process claims units; ``alternate``: each keeps every other run it reads."""
    parent, take = os.getpid(), forked.Claims.take

    def claimed(self: forked.Claims) -> Iterator[int]:
        if who == "alternate":
            for n, k in enumerate(take(self)):
                if (n % 2 == 0) == (os.getpid() == parent):
                    yield k
            return
        if (os.getpid() == parent) == (who == "parent"):
            yield from take(self)

    monkeypatch.setattr(forked.Claims, "take", claimed)


Answer = tuple[dict[int, object], object]
"""A forked child's answer: what it computed by unit index, and its state as it left it."""


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[Answer | None]:
    """What each forked child answered (None: no answer, the parent computed everything)."""
    seen: list[Answer | None] = []
    result = forked.Forked.result

    def recorded(self: forked.Forked[Answer]) -> Answer | None:
        value = result(self)
        seen.append(value)
        return value

    monkeypatch.setattr(forked.Forked, "result", recorded)
    return seen


@pytest.mark.parametrize("who", ["parent", "child", "alternate"])
@pytest.mark.parametrize("index", range(len(DEFAULT_STAGES)), ids=[stage.name for stage in DEFAULT_STAGES])
def test_every_stage_gives_the_same_analysis_in_one_process_or_forked(
    given: _Given, answers: list[Answer | None], monkeypatch: pytest.MonkeyPatch, index: int, who: str
) -> None:
    stage = DEFAULT_STAGES[index]
    before = run_stages(given.analysis, given.context, DEFAULT_STAGES[:index])
    alone = _text(run_stages(before, given.context, (stage,)))
    assert alone == _text(stage(before, given.context))  # a stage called alone is the same stage
    _claimed_only_by(monkeypatch, who)
    monkeypatch.setattr(forked, "FORK_MIN_FILES", 1)
    units = stage.units(stage.prepare(before, given.context))
    assert _text(run_stages(before, given.context, (stage,), Runner(fork=True))) == alone
    if len(units) < 2:
        assert answers == []  # nothing worth a child
        return
    (answer,) = answers
    assert answer is not None
    found, state = answer
    assert state is None
    if who == "alternate":  # each keeps some of what it reads; what neither kept, the parent computes after
        assert set(found) <= set(range(len(units)))
    else:
        assert sorted(found) == (list(range(len(units))) if who == "child" else [])


def test_the_default_stages_work_in_two_waves() -> None:
    """Only the signals of files without hunks read what a stage writes (the deleted files), and the worklist
    reads the risk: risk's, the edits', the duplicates' and the suggestions' menus' work is done beside the
    policy, the audit and the deleted files, their folds after; the worklist's once risk is folded."""
    assert {stage.name: wave for stage, wave in zip(DEFAULT_STAGES, waves(DEFAULT_STAGES), strict=True)} == {
        "apply_policy": 0, "audit_api": 0, "find_deleted": 0, "find_duplicates": 0, "score_files": 1,
        "score_risk": 0, "score_edits": 0, "suggest_resolutions": 0, "build_worklist": 2,
    }


def test_a_stage_waits_for_every_earlier_writer_of_what_it_reads_to_be_folded() -> None:
    """A stage is folded once it and every stage before it are done, so a reader of the second writer below
    waits for the reader of the first, done in wave 1, to be folded."""
    def stage(name: str, reads: set[Fact], writes: set[Fact]) -> Stage[None, None, None]:
        return Stage(name, frozenset(reads), frozenset(writes), lambda _a, _c: None, lambda _p: (),
                     lambda _p, _k: None, lambda analysis, _found, _p: analysis)

    chain = [stage("a", set(), {Fact.POLICY}), stage("b", {Fact.POLICY}, set()), stage("c", set(), {Fact.RISK}),
             stage("d", {Fact.RISK}, set()), stage("e", set(), set())]
    assert waves(chain) == [0, 1, 0, 2, 0]


def test_the_folds_run_in_stage_order_each_seeing_the_earlier_ones(given: _Given) -> None:
    """Run one by one or in waves, the stages give the same analysis."""
    one_by_one = given.analysis
    for stage in DEFAULT_STAGES:
        one_by_one = stage(one_by_one, given.context)
    assert _text(run_stages(given.analysis, given.context, DEFAULT_STAGES)) == _text(one_by_one)


# -- a new stage: one module (below, as it would be in analysis/stages/) plus one entry --------------------------

_DEFINITION = re.compile(rb"^def (\w+)\(", re.MULTILINE)


def _prepare(analysis: SyncAnalysis, _context: AnalysisContext) -> SyncAnalysis:
    return analysis


def _units(analysis: SyncAnalysis) -> list[Unit[int]]:
    return [Unit(k) for k, entry in enumerate(analysis.files) if entry.is_python]


def _find(analysis: SyncAnalysis, index: int) -> tuple[str, tuple[str, ...]]:
    """A file's top-level functions the result defines twice (pure: the result's bytes only)."""
    entry = analysis.files[index]
    names = _DEFINITION.findall(entry.result_bytes or b"")
    return entry.path, tuple(sorted({name.decode() for name in names if names.count(name) > 1}))


def _fold(analysis: SyncAnalysis, found: Sequence[tuple[str, tuple[str, ...]]], _prepared: SyncAnalysis) -> SyncAnalysis:
    twice = {path: names for path, names in found if names}

    def flagged(entry: FileAnalysis) -> FileAnalysis:
        if entry.path not in twice:
            return entry
        signal = Signal(SignalKind.POLICY_NOTE, f"defined twice: {', '.join(twice[entry.path])}", (), 35)
        return replace(entry, signals=(*entry.signals, signal))

    return replace(analysis, files=tuple(flagged(entry) for entry in analysis.files))


TOY = Stage("find_twice", frozenset(), frozenset({Fact.SIGNALS}), _prepare, _units, _find, _fold)
"""A toy stage (it borrows an existing signal kind; a real one adds its own to kinds.py and risk/signals.py)."""


def _defined_twice(b: RepoBuilder) -> str:
    """A sync whose bot resolution kept both sides' copy of a function in a conflicted file."""
    b.write("pkg/ops.py", "def scale(x):\n    return x\n").commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write("pkg/ops.py", "def scale(x):\n    return 2 * x\n").commit("[dev] Scale by two (#11)")
    b.checkout("main")
    b.write("pkg/ops.py", "def scale(x):\n    return 3 * x\n").commit("Scale by three (#21)")
    b.checkout("dev")
    assert b.merge("main", no_commit=True) == 1
    b.write("pkg/ops.py", "def scale(x):\n    return 2 * x\n\n\ndef scale(x):\n    return 3 * x\n")
    b.git("add", "-A")
    return b.commit("Merge main into dev (bot resolution)")


def test_a_new_stage_is_one_module_plus_one_entry(
    builder: RepoBuilder, answers: list[Answer | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scheduler does the toy's work in the first wave (it reads nothing a stage writes); listed before
    risk, its signal's weight is folded into the file's risk like any earlier stage's."""
    merge = _defined_twice(builder)
    stages = (*DEFAULT_STAGES[:3], TOY, *DEFAULT_STAGES[3:])
    assert waves(stages) == [0, 0, 0, 0, 0, 1, 0, 0, 0, 2]  # done beside the first stages, folded before risk's
    monkeypatch.setattr(forked, "FORK_MIN_FILES", 1)

    def analysed(runner_forks: bool) -> SyncAnalysis:
        repo = GitRepo.open(str(builder.path))
        snapshot = load_sync(repo, rev=merge)
        monkeypatch.setattr(Runner, "for_files", classmethod(lambda cls, count: cls(runner_forks)))
        return engine.analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes,
                              repo_files=RepoFiles(repo, snapshot), stages=stages)

    alone = analysed(False)
    (entry,) = alone.files
    assert [s.message for s in entry.signals if s.kind is SignalKind.POLICY_NOTE] == ["defined twice: scale"]
    assert entry.level is Level.HIGH  # 15 + 35: the toy's weight, folded in by risk
    assert answers == []
    assert _text(analysed(True)) == _text(alone)
    assert answers  # the forked runs shared the waves with a child
