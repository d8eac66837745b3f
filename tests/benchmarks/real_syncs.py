"""Risk scoring against what Megatron-LM's maintainers restored after real syncs.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/real_syncs.py [--regions]``
(without MEGATRON_GIT it says so and exits 0; under pytest it is skipped).

For each development sync it replays the raw ``-X theirs`` merge from the
bot merge's parents, runs the analysis (preview mode, so the result is the
replay), derives the restored regions (see ``ground_truth.py``) twice, from
the fixes the issue names and from every commit on the shipped sync branch,
and reports: how many restored regions sit in a ``high`` hunk (recall),
their ranks in the risk-sorted hunk list, how many hunks are ``high``, the
same for the maintainers' line-set audit, the level of each file without
hunks beside what was shipped, and, for #4291, the analysis time with and
without the risk stage.  Only the development syncs are run: the
others are held out for evaluation.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from ground_truth import (
    DEVELOPMENT,
    KEEP_DEV_FILES,
    Region,
    Replay,
    SyncCase,
    audit_counts,
    branch_fixes,
    hunks_of,
    restored_regions,
    shipped_version,
)

from workbench.analysis.engine import analyze
from workbench.analysis.model import FileAnalysis, Level, SyncAnalysis
from workbench.analysis.stages import DEFAULT_STAGES, score_risk
from workbench.git.repo import GitRepo
from workbench.git.repo_files import RepoFiles
from workbench.git.snapshot import load_sync
from workbench.git.types import SyncSnapshot

ENV = "MEGATRON_GIT"
GOAL_HIGH_SHARE = 0.15


@dataclass
class Found:
    """Where one restored region landed: its hunks' best rank and level, ours and the audit's."""

    region: Region
    hunks: list[int]
    level: Level | None = None
    risk: int | None = None
    rank: int | None = None
    audit_rank: int | None = None


@dataclass
class SyncReport:
    case: SyncCase
    hunks: int
    high: int
    medium: int
    audit_flagged: int
    truths: dict[str, list[Found]] = field(default_factory=dict)
    whole_files: list[tuple[FileAnalysis, str]] = field(default_factory=list)
    """Files without hunks (modify/delete, binary) and what the shipped sync holds for each."""


def run_analysis(repo_path: str, case: SyncCase, scoring: bool = True) -> tuple[GitRepo, SyncSnapshot, SyncAnalysis]:
    """The analysis of the raw ``-X theirs`` replay of the sync (preview of its two parents).

    Every stage runs, with the repository reader ``open_sync`` passes and no
    sync policy (the keep-dev files are reported apart instead); ``scoring``
    False leaves out the risk stage only.
    """
    repo = GitRepo.open(repo_path)
    dev, main = repo.parents(repo.resolve(case.merge))
    snapshot = load_sync(repo, dev=dev, main=main)
    stages = tuple(stage for stage in DEFAULT_STAGES if scoring or stage is not score_risk.STAGE)
    files = RepoFiles(repo, snapshot)
    return repo, snapshot, analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, repo_files=files, stages=stages)


def evaluate(repo_path: str, case: SyncCase) -> SyncReport:
    repo, snapshot, analysis = run_analysis(repo_path, case)
    replay = Replay(repo, snapshot, analysis)
    files = {f.path: f for f in analysis.files}
    ranked = sorted(
        ((f, h) for f in analysis.files for h in f.hunks),
        key=lambda fh: (-fh[1].risk, -fh[0].risk, fh[0].path, fh[1].index),
    )
    rank = {(f.path, h.index): i + 1 for i, (f, h) in enumerate(ranked)}
    audit = audit_counts(analysis, replay)
    audit_order = sorted((key for key in audit if audit[key] > 0), key=lambda key: (-audit[key], key))
    audit_rank = {key: i + 1 for i, key in enumerate(audit_order)}
    hunks = [h for _, h in ranked]
    report = SyncReport(
        case,
        hunks=len(hunks),
        high=sum(1 for h in hunks if h.level is Level.HIGH),
        medium=sum(1 for h in hunks if h.level is Level.MEDIUM),
        audit_flagged=len(audit_rank),
    )
    for title, fixes in (("named fixes", case.fixes), ("whole sync branch", branch_fixes(repo, case))):
        found = []
        for region in restored_regions(repo, case, replay, fixes):
            inside = hunks_of(region, files.get(region.path))
            item = Found(region, [h.index for h in inside])
            if inside:
                best = min(inside, key=lambda h: rank[(region.path, h.index)])
                item.level, item.risk, item.rank = best.level, best.risk, rank[(region.path, best.index)]
                ranks = [audit_rank[(region.path, h.index)] for h in inside if (region.path, h.index) in audit_rank]
                item.audit_rank = min(ranks) if ranks else None
            found.append(item)
        report.truths[title] = found
    head = repo.resolve(case.branch_head)
    report.whole_files = [(f, shipped_version(repo, head, f)) for f in analysis.files if not f.hunks]
    return report


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else f"{part}/0"


def print_report(report: SyncReport, show_regions: bool) -> None:
    case = report.case
    print(f"\n== sync {case.name} (bot merge {case.merge})")
    print(
        f"hunks: {report.hunks}; risk: high {_share(report.high, report.hunks)}, medium {report.medium}; "
        f"audit flags {_share(report.audit_flagged, report.hunks)}  (goal: high <= {GOAL_HIGH_SHARE:.0%})"
    )
    for truth, found in report.truths.items():
        print(f"  ground truth from the {truth}:")
        scopes = {
            "all files": found,
            "without keep-dev policy files": [f for f in found if f.region.path not in KEEP_DEV_FILES],
        }
        for scope, items in scopes.items():
            inside = [f for f in items if f.hunks]
            high = [f for f in inside if f.level is Level.HIGH]
            flagged = [f for f in inside if f.audit_rank is not None]
            print(f"    {scope}: {len(items)} regions, {len(inside)} inside a -X theirs hunk")
            ranks = sorted(f.rank for f in inside if f.rank is not None)
            print(f"      risk:  in a high hunk {_share(len(high), len(inside))}; ranks {ranks}")
            print(
                f"      audit: in a flagged hunk {_share(len(flagged), len(inside))}; "
                f"ranks {sorted(f.audit_rank for f in flagged if f.audit_rank is not None)}"
            )
        if show_regions:
            for item in found:
                region = item.region
                where = f"hunks {item.hunks}" if item.hunks else "outside every hunk"
                level = item.level.value if item.level else "-"
                print(
                    f"      {region.source[:10]} {region.path}:{region.start + 1}-{region.end} "
                    f"({len(region.lines)} lines) {where} {level} risk={item.risk} rank={item.rank} "
                    f"audit={item.audit_rank}"
                )


def print_whole_files(report: SyncReport) -> None:
    """Files without hunks: their level beside what the maintainers shipped."""
    if not report.whole_files:
        print("  files without hunks: none")
        return
    print(f"  files without hunks: {len(report.whole_files)} (level, risk, shipped)")
    for entry, shipped in report.whole_files:
        print(f"    {entry.level.value:6} {entry.risk:3} {entry.kind.value:13} shipped: {shipped:14} {entry.path}")


def time_scoring(repo_path: str, case: SyncCase, rounds: int = 3) -> tuple[float, float]:
    """Best-of-N seconds for the whole analysis without and with the risk stage."""
    best = {False: float("inf"), True: float("inf")}
    for _ in range(rounds):
        for scoring in (False, True):
            start = time.perf_counter()
            run_analysis(repo_path, case, scoring)
            best[scoring] = min(best[scoring], time.perf_counter() - start)
    return best[False], best[True]


def main(argv: list[str]) -> int:
    repo_path = os.environ.get(ENV)
    if not repo_path:
        print(f"{ENV} is not set: nothing to benchmark (point it at a Megatron-LM clone)")
        return 0
    for case in DEVELOPMENT:
        report = evaluate(repo_path, case)
        print_report(report, "--regions" in argv)
        print_whole_files(report)
    without, with_risk = time_scoring(repo_path, DEVELOPMENT[0])
    print(
        f"\ntiming {DEVELOPMENT[0].name}: analysis {without:.2f} s without scoring, {with_risk:.2f} s with "
        f"(+{100 * (with_risk - without) / without:.0f}%, budget +50%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
