"""The scheduler of the enrichment stages: their work in waves, each wave on one ``Runner``, the folds in order.

Stages are given in order (``stages.DEFAULT_STAGES``); the answer is the one
running them in that order gives.  A stage's work (``prepare``, ``find``)
needs only the facts it reads (``Stage.reads``), so it is done in the first
wave after every earlier stage writing one of them is folded; all the units
of a wave go to the runner together (shared with a forked child when it
pays); after each wave, the stages whose work is done are folded, in stage
order, each seeing the folds before it.  Nothing here knows what a stage does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from workbench.analysis.forked import Runner
from workbench.analysis.memo import Fingerprint, run_memoized
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.seam import AnalysisContext, AnyStage

StageProgress = Callable[[str, int, int], None]
"""Hears (stage name, stages done, stages in all) before each stage."""

IN_PROCESS = Runner(fork=False)


def waves(stages: Sequence[AnyStage]) -> list[int]:
    """The wave in which each stage's work is done: after the wave that folds the last earlier writer of
    what it reads (a stage is folded once it and every stage before it are done)."""
    found: list[int] = []
    folded: list[int] = []
    for n, stage in enumerate(stages):
        found.append(max((folded[k] + 1 for k in range(n) if stages[k].writes & stage.reads), default=0))
        folded.append(max(found[n], folded[-1] if folded else 0))
    return found


def run_stages(
    analysis: SyncAnalysis,
    context: AnalysisContext,
    stages: Sequence[AnyStage],
    runner: Runner = IN_PROCESS,
    report: StageProgress = lambda _name, _done, _total: None,
) -> SyncAnalysis:
    """``analysis`` after every stage, in order, each wave's units computed by ``runner``."""
    plan = waves(stages)
    done: dict[int, tuple[Any, list[Any]]] = {}
    folded = told = 0
    for wave in range(max(plan, default=-1) + 1):
        if told <= folded:  # the next stage to fold is what the wave works towards
            report(stages[folded].name, folded, len(stages))
            told = folded + 1
        done.update(_found(analysis, context, {n: stages[n] for n, at in enumerate(plan) if at == wave}, runner))
        while folded in done:
            if told <= folded:
                report(stages[folded].name, folded, len(stages))
                told = folded + 1
            prepared, found = done.pop(folded)  # its prepared state goes with it (an audit's caches are large)
            analysis = stages[folded].fold(analysis, found, prepared)
            folded += 1
    return analysis


def _found(
    analysis: SyncAnalysis, context: AnalysisContext, wave: dict[int, AnyStage], runner: Runner
) -> dict[int, tuple[Any, list[Any]]]:
    """Each stage's prepared state and findings (in its units' order), the wave's units computed together."""
    prepared = {n: stage.prepare(analysis, context) for n, stage in wave.items()}
    units = {n: list(stage.units(prepared[n])) for n, stage in wave.items()}
    keys = [(n, unit) for n in wave for unit in units[n]]

    def find(k: int) -> object:
        n, unit = keys[k]
        return wave[n].find(prepared[n], unit.key)

    memo = context.memo
    fingerprints: list[Fingerprint | None] = [None] * len(keys)
    if memo is not None:
        for k, (n, unit) in enumerate(keys):
            inputs = wave[n].inputs
            read = inputs(prepared[n], unit.key) if inputs is not None else None
            fingerprints[k] = memo.unit(wave[n].name, *read) if read is not None else None

    def valid(k: int, found: object) -> bool:
        check = wave[keys[k][0]].valid
        return check is None or check(prepared[keys[k][0]], found)

    answers, _ = run_memoized(runner, len(keys), find, fingerprints, memo, cost=lambda k: keys[k][1].cost,
                              groups=[len(units[n]) for n in wave], valid=valid)
    found: dict[int, tuple[Any, list[Any]]] = {}
    start = 0
    for n in wave:
        found[n] = (prepared[n], answers[start:start + len(units[n])])
        start += len(units[n])
    return found
