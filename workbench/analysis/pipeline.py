"""The scheduler of the enrichment stages: waves of stages, each wave's work on one ``Runner``.

Stages are given in order (``stages.DEFAULT_STAGES``); the answer is the
one running them in that order gives.  Consecutive stages whose
computations read nothing an earlier one of them writes (``Stage.reads``,
``Stage.writes``) form a wave: each is prepared on the analysis as the wave
starts, all their units go to the runner together (shared with a forked
child when it pays), and their folds then run in stage order, each seeing
the folds before it.  Nothing here knows what a stage does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from workbench.analysis.forked import Runner
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.seam import AnalysisContext, AnyStage, Fact

StageProgress = Callable[[str, int, int], None]
"""Hears (stage name, stages done, stages in all) before each stage."""

IN_PROCESS = Runner(fork=False)


def waves(stages: Sequence[AnyStage]) -> list[list[AnyStage]]:
    """``stages`` cut into runs none of whose stages reads what an earlier stage of its run writes."""
    found: list[list[AnyStage]] = []
    written: set[Fact] = set()
    for stage in stages:
        if not found or stage.reads & written:
            found.append([])
            written = set()
        found[-1].append(stage)
        written |= stage.writes
    return found


def run_stages(
    analysis: SyncAnalysis,
    context: AnalysisContext,
    stages: Sequence[AnyStage],
    runner: Runner = IN_PROCESS,
    report: StageProgress = lambda _name, _done, _total: None,
) -> SyncAnalysis:
    """``analysis`` after every stage, in order, each wave's units computed by ``runner``."""
    done = 0
    for wave in waves(stages):
        analysis = _wave(analysis, context, wave, runner, lambda stage, n: report(stage.name, n, len(stages)), done)
        done += len(wave)
    return analysis


def _wave(
    analysis: SyncAnalysis, context: AnalysisContext, wave: list[AnyStage], runner: Runner,
    report: Callable[[AnyStage, int], None], done: int,
) -> SyncAnalysis:
    """``analysis`` after one wave; its stages' prepared states go with the call (an audit's caches are large)."""
    report(wave[0], done)
    found = _found(analysis, context, wave, runner)
    for n, stage in enumerate(wave):
        if n:
            report(stage, done + n)
        analysis = stage.fold(analysis, found[n][1], found[n][0])
    return analysis


def _found(
    analysis: SyncAnalysis, context: AnalysisContext, wave: list[AnyStage], runner: Runner
) -> list[tuple[Any, list[Any]]]:
    """Each stage's prepared state and findings (in its units' order), the wave's units computed together."""
    prepared = [stage.prepare(analysis, context) for stage in wave]
    units = [(n, unit) for n, stage in enumerate(wave) for unit in stage.units(prepared[n])]

    def find(k: int) -> object:
        n, unit = units[k]
        return wave[n].find(prepared[n], unit.key)

    answers, _ = runner.run(len(units), find, lambda k: units[k][1].cost)
    return [(state, [a for (m, _), a in zip(units, answers, strict=True) if m == n]) for n, state in enumerate(prepared)]
