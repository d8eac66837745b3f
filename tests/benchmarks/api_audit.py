"""The API audit, the policy and the deleted-files check on Megatron-LM's sync #4291.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/api_audit.py``
(without MEGATRON_GIT it says so and exits 0; ``test_api_audit.py`` is the
pytest view).  It replays the bot's ``-X theirs`` merge from the merge's
parents (preview mode), runs the three stages with ``--policy megatron``,
and reports: which of the incidents the maintainers recorded are found
(with the finding's text), every finding by kind (so noise is visible),
the policy findings and deleted files, and the time the stages add to
``analyze`` (best of N cold runs: parse caches cleared, a fresh repository
object, so nothing is reused between runs).
"""

from __future__ import annotations

import collections
import os
import sys
import time
from dataclasses import dataclass

from workbench.analysis.api import clear_caches
from workbench.analysis.engine import analyze
from workbench.analysis.model import ApiMismatch, SyncAnalysis
from workbench.analysis.policy.rules import preset
from workbench.analysis.seam import AnalysisContext
from workbench.analysis.stages import DEFAULT_STAGES, apply_policy, audit_api, find_deleted
from workbench.git.repo import GitRepo
from workbench.git.repo_files import RepoFiles
from workbench.git.snapshot import load_sync

ENV = "MEGATRON_GIT"
DEV, MAIN = "7ff046b1c8", "28e13c484b"
"""Parents of the bot merge 66e55f9884 of sync #4291."""
ROUNDS = int(os.environ.get("BENCH_RUNS", "3"))
BUDGET = 1.0
"""Seconds the stages may add to ``analyze`` on #4291 (the issue's goal)."""


@dataclass(frozen=True)
class Incident:
    """One mismatch the maintainers recorded for #4291 (skills/nightly-sync/SKILL.md, fix 2be925cabe/2a68a9cc7c)."""

    label: str
    path: str
    symbol: str
    kind: str

    def found(self, analysis: SyncAnalysis) -> list[ApiMismatch]:
        return [
            f for f in analysis.api_mismatches
            if f.path == self.path and f.symbol == self.symbol and f.kind == self.kind
        ]


INCIDENTS = (
    Incident(
        "group_commit() where dev has group_offload()",
        "megatron/core/transformer/multi_latent_attention.py",
        "group_commit",
        "missing-attribute",
    ),
    Incident(
        "init_chunk_handler with 3 arguments, dev's needs 6",
        "megatron/core/models/mamba/mamba_model.py",
        "init_chunk_handler",
        "arity",
    ),
    Incident(
        "mark_not_offloadable() where dev has mark_not_offload()",
        "megatron/core/models/mamba/mamba_model.py",
        "mark_not_offloadable",
        "missing-attribute",
    ),
    Incident("lost CudaGraphScope import", "megatron/core/models/common/model_chunk_schedule_plan.py", "CudaGraphScope", "undefined-name"),
    Incident(
        "calls _resolve_cu_seqlens, absent from the merged tree",
        "megatron/core/ssm/gated_delta_net.py",
        "_resolve_cu_seqlens",
        "missing-attribute",
    ),
)

OURS = (apply_policy.STAGE, audit_api.STAGE, find_deleted.STAGE)


def _context(repo: GitRepo, snapshot: object) -> AnalysisContext:
    from workbench.analysis.blame import LineMapper

    return AnalysisContext(
        snapshot, repo.read_blob, repo.commit_info, repo.line_changes, LineMapper(repo.line_changes),  # type: ignore[arg-type]
        policy=preset("megatron"), repo_files=RepoFiles(repo, snapshot),  # type: ignore[arg-type]
    )


def replay(repo_path: str) -> SyncAnalysis:
    """#4291's replay with every default stage and the Megatron policy."""
    repo = GitRepo.open(repo_path)
    snapshot = load_sync(repo, dev=DEV, main=MAIN)
    files = RepoFiles(repo, snapshot)
    return analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, policy=preset("megatron"), repo_files=files)


def time_stages(repo_path: str, rounds: int = ROUNDS) -> tuple[float, float, float]:
    """(engine-only analyze, the three stages alone, full default analyze), best of ``rounds`` cold runs."""
    best = [float("inf")] * 3
    others = tuple(s for s in DEFAULT_STAGES if s not in OURS)
    for _ in range(rounds):
        clear_caches()
        repo = GitRepo.open(repo_path)
        snapshot = load_sync(repo, dev=DEV, main=MAIN)
        start = time.perf_counter()
        base = analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, stages=())
        best[0] = min(best[0], time.perf_counter() - start)
        context = _context(repo, snapshot)
        start = time.perf_counter()
        for stage in OURS:
            base = stage(base, context)
        best[1] = min(best[1], time.perf_counter() - start)
        clear_caches()
        repo = GitRepo.open(repo_path)
        snapshot = load_sync(repo, dev=DEV, main=MAIN)
        start = time.perf_counter()
        context = _context(repo, snapshot)
        analyze(
            snapshot, repo.read_blob, repo.commit_info, repo.line_changes,
            policy=context.policy, repo_files=context.repo_files, stages=(*OURS, *others),
        )
        best[2] = min(best[2], time.perf_counter() - start)
    return best[0], best[1], best[2]


def print_report(analysis: SyncAnalysis) -> None:
    print(f"== sync #4291 replay (dev {DEV}, main {MAIN}), policy megatron")
    found = 0
    for incident in INCIDENTS:
        hits = incident.found(analysis)
        found += bool(hits)
        print(f"  [{'found' if hits else 'MISSED'}] {incident.label}: {len(hits)} finding(s)")
        for hit in hits[:1]:
            print(f"      {hit.path}:{hit.line}  {hit.kind}  {hit.message}")
    kinds = collections.Counter(f.kind for f in analysis.api_mismatches)
    print(f"  incidents found: {found} of {len(INCIDENTS)}")
    print(f"  API findings in total: {len(analysis.api_mismatches)} ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    for hit in analysis.api_mismatches:
        print(f"      {hit.path}:{hit.line}  {hit.kind}  {hit.symbol}")
    policy = analysis.policy.findings if analysis.policy else ()
    levels = collections.Counter(f.severity for f in policy)
    print(f"  policy findings: {len(policy)} ({', '.join(f'{k} {n}' for k, n in sorted(levels.items()))})")
    verdicts = collections.Counter(d.verdict for d in analysis.deleted_files)
    print(f"  deleted files: {len(analysis.deleted_files)} ({', '.join(f'{k} {n}' for k, n in sorted(verdicts.items()))})")


def main() -> int:
    repo_path = os.environ.get(ENV)
    if not repo_path:
        print(f"{ENV} is not set: nothing to benchmark (point it at a Megatron-LM clone)")
        return 0
    print_report(replay(repo_path))
    engine, stages, full = time_stages(repo_path)
    print(
        f"  timing (best of {ROUNDS}, cold): engine {engine:.2f} s; policy + API audit + deleted files "
        f"add {stages:.2f} s (budget {BUDGET:.1f} s); full analyze with risk {full:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
