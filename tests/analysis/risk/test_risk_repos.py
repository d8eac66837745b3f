"""Signals on tiny repositories built for one situation each (cases the sample lacks)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from helpers.signals import kinds, only_file, signal
from helpers.syncs import analyze_preview, analyze_repo

from workbench.analysis.engine import analyze
from workbench.analysis.model import Level, Signal, SignalKind, SyncAnalysis, Taken
from workbench.analysis.risk.combine import spread
from workbench.analysis.seam import EVERYTHING, AnalysisContext, Stage
from workbench.analysis.stages import score_risk
from workbench.git.repo import GitRepo
from workbench.git.snapshot import load_sync
from workbench.sample import RepoBuilder

PATH = "pkg/feature.py"


def _feature(body: str) -> str:
    """A module whose ``scale`` function body is ``body``, between stable neighbours."""
    head = "".join(f"def helper_{i}():\n    return {i}\n\n\n" for i in range(4))
    tail = "".join(f"\n\ndef other_{i}():\n    return {i}\n" for i in range(4))
    return f'"""Feature."""\n\n{head}def scale(value):\n{body}{tail}'


BASE = "    return value\n"
DEV_FIRST = "    factor = compute_scale_factor(value)\n    return value * factor\n"
DEV_SECOND = "    factor = compute_scale_factor(value)\n    return min(value * factor, LIMIT)\n"


def _chain(b: RepoBuilder, main_subject: str, main_body: str = "") -> None:
    """Dev #11 then #12 on ``scale``; main lands #11's state under ``main_subject``."""
    b.write(PATH, _feature(BASE))
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(PATH, _feature(DEV_FIRST))
    b.commit("[dev] Scale by the computed factor (#11)")
    b.write(PATH, _feature(DEV_SECOND))
    b.commit("[dev] Clamp the scaled value (#12)")
    b.checkout("main")
    b.write(PATH, _feature(DEV_FIRST))
    b.commit(main_subject, main_body)


def test_older_dev_state_without_any_squash_link(builder: RepoBuilder) -> None:
    _chain(builder, "Port value scaling from the feature branch (#31)")
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    older = signal(hunk, "older-dev-state")
    assert older.message.startswith("main's side is these lines as dev's #11 left them; dev's #12 changed them")
    assert "squash-counterpart" not in kinds(hunk)
    assert older.commits[-1] == builder.rev("dev~1")
    assert builder.rev("dev") in older.commits
    assert hunk.level is Level.HIGH


def test_squash_counterpart_found_by_cross_reference(builder: RepoBuilder) -> None:
    _chain(builder, "Scale values (#31)", "dev PR: #11")
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    squash = signal(hunk, "squash-counterpart")
    assert squash.message == (
        "-X theirs took main's text from #31 (a squash of dev #11); dev's #12 changed these lines "
        "afterwards and is dropped (the same evidence, counted once)"
    )
    assert squash.weight == 0 and signal(hunk, "older-dev-state").weight == 50
    assert squash.commits == (builder.rev("main"), builder.rev("dev~1"), builder.rev("dev"))


def test_squash_counterpart_found_by_a_similar_patch(builder: RepoBuilder) -> None:
    """No shared title, no cross-reference: main's commit adds the lines dev's #11 added (reordered)."""
    factor, log = "    factor = compute_scale_factor(value)\n", "    log_scaling(value, factor)\n    record(value)\n"
    builder.write(PATH, _feature(BASE))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(PATH, _feature(factor + log + "    return value * factor\n"))
    builder.commit("[dev] Scale by the computed factor (#11)")
    builder.write(PATH, _feature(factor + log + "    return min(value * factor, LIMIT)\n"))
    builder.commit("[dev] Clamp the scaled value (#12)")
    builder.checkout("main")
    builder.write(PATH, _feature(factor + "    return value * factor\n" + log))
    builder.commit("Land the value scaler (#31)")
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    squash = signal(hunk, "squash-counterpart")
    assert squash.message.startswith("-X theirs took main's text from #31 (a squash of dev #11); dev's #12")
    assert "older-dev-state" not in kinds(hunk)


def test_main_ahead_when_main_had_devs_text_and_moved_on(builder: RepoBuilder) -> None:
    builder.write(PATH, _feature(BASE))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(PATH, _feature(DEV_FIRST))
    builder.commit("[dev] Scale by the computed factor (#11)")
    builder.checkout("main")
    builder.write(PATH, _feature(DEV_FIRST))
    builder.commit("Land value scaling (#31)")
    builder.write(PATH, _feature(DEV_FIRST.replace("value * factor", "value * factor + OFFSET")))
    tuned = builder.commit("Offset the scaled value (#32)")
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    ahead = signal(hunk, "main-ahead")
    assert ahead.message.startswith("main already had dev's text here, and main's #32 changed it afterwards")
    assert ahead.commits == (tuned,)
    assert hunk.level is Level.LOW


IMPORTS = "import os\nfrom pkg.alpha import alpha\n"
BODY = "".join(f"\n\ndef filler_{i}():\n    return os.sep * {i}\n" for i in range(4))


def _dangling(b: RepoBuilder, shared: str = "") -> None:
    """Dev imports ``beta_helper`` beside the line main edits, and uses it far below.

    ``shared``: more module text, on every side, after the filler functions.
    """
    b.write(PATH, IMPORTS + BODY + shared + "\n\ndef run():\n    return alpha()\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(
        PATH,
        IMPORTS
        + "from pkg.beta import beta_helper\n"
        + BODY
        + shared
        + "\n\ndef run():\n    return beta_helper(alpha())\n",
    )
    b.commit("[dev] Run through beta (#14)")
    b.checkout("main")
    imports = IMPORTS.replace("import alpha", "import alpha, gamma")
    b.write(PATH, imports + BODY + shared + "\n\ndef run():\n    return alpha()\n")
    b.commit("Import gamma as well (#34)")


def test_dropped_import_still_used_by_the_result(builder: RepoBuilder) -> None:
    _dangling(builder)
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    dropped = signal(hunk, "dev-only-lines-dropped")
    assert "beside main's change" in dropped.message
    assert dropped.message.endswith("the result still uses beta_helper, which only this line defined")
    assert dropped.commits == (builder.rev("dev"),)
    assert hunk.level is Level.HIGH


MULTI_LINE_IMPORT = "\n\nfrom pkg.gamma import (\n    gamma_util,\n    beta_helper,\n)\n"


def test_a_name_a_multi_line_import_still_binds_does_not_dangle(builder: RepoBuilder) -> None:
    """Black/isort style: another import, spread over lines, still brings beta_helper in."""
    _dangling(builder, MULTI_LINE_IMPORT)
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    dropped = signal(hunk, "dev-only-lines-dropped")
    assert dropped.message == (
        "1 line dev wrote here (from dev's #14), beside main's change, is not in the result, "
        "e.g. \u201cfrom pkg.beta import beta_helper\u201d"
    )
    assert dropped.weight == 40
    assert hunk.level is Level.HIGH


def test_a_dropped_line_of_a_multi_line_import_leaves_its_name_dangling(builder: RepoBuilder) -> None:
    """Dev adds a name to a parenthesised import where main adds another: -X theirs keeps main's."""
    head = "from pkg.alpha import (\n    alpha,\n{})\n"
    builder.write(PATH, head.format("") + BODY.replace("os.sep", "'/'") + "\n\ndef run():\n    return alpha()\n")
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    body = BODY.replace("os.sep", "'/'")
    builder.write(PATH, head.format("    beta_helper,\n") + body + "\n\ndef run():\n    return beta_helper(alpha())\n")
    builder.commit("[dev] Run through beta (#14)")
    builder.checkout("main")
    builder.write(PATH, head.format("    gamma,\n") + body + "\n\ndef run():\n    return alpha()\n")
    builder.commit("Import gamma as well (#34)")
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    dropped = signal(hunk, "dev-only-lines-dropped")
    assert dropped.message.endswith("; the result still uses beta_helper, which only this line defined")
    assert hunk.level is Level.HIGH


def test_unresolved_hunk_says_what_taking_main_would_lose(builder: RepoBuilder) -> None:
    """Conflict markers: nothing is lost yet, so the sentences speak of taking main's side."""
    _dangling(builder)
    builder.checkout("dev")
    assert builder.merge("main") == 1
    (hunk,) = only_file(analyze_repo(builder.path), PATH).hunks
    assert hunk.taken is Taken.UNRESOLVED
    assert kinds(hunk) == ["still-conflicted", "dev-only-lines-dropped"]
    assert signal(hunk, "still-conflicted").message == "the hunk is still conflicted: nobody has chosen a side yet"
    assert signal(hunk, "still-conflicted").weight == 0
    dropped = signal(hunk, "dev-only-lines-dropped")
    assert dropped.message == (
        "if main's side is taken, 1 line dev wrote here (from dev's #14), beside main's change, is lost, "
        "e.g. \u201cfrom pkg.beta import beta_helper\u201d; "
        "the result would still use beta_helper, which only this line defines"
    )
    assert "not in the result" not in dropped.message
    assert hunk.level is Level.HIGH


def test_unresolved_squash_chain_says_what_taking_main_would_drop(builder: RepoBuilder) -> None:
    _chain(builder, "Scale values (#31)", "dev PR: #11")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    (hunk,) = only_file(analyze_repo(builder.path), PATH).hunks
    assert hunk.taken is Taken.UNRESOLVED
    assert signal(hunk, "squash-counterpart").message == (
        "main's side here is from #31 (a squash of dev #11); dev's #12 changed these lines afterwards "
        "and would be dropped if main's side is taken (the same evidence, counted once)"
    )
    assert signal(hunk, "older-dev-state").message.endswith("and taking main's side would drop that work")


def test_hand_resolved_hunk_says_so_and_scores_low(builder: RepoBuilder) -> None:
    """Both sides' text kept: nothing of either side is lost."""
    _dangling(builder)
    builder.checkout("dev")
    assert builder.merge("main") == 1
    conflicted = (builder.path / PATH).read_text().splitlines(keepends=True)
    builder.write(PATH, "".join(line for line in conflicted if not line.startswith(("<<<<<<<", "=======", ">>>>>>>"))))
    builder.git("add", PATH)
    builder.commit("Merge main into dev, keeping both sides")
    entry = only_file(analyze_repo(builder.path, "HEAD"), PATH)
    (hunk,) = entry.hunks
    assert hunk.taken is Taken.BOTH
    assert kinds(hunk) == ["result-has-dev"]
    assert signal(hunk, "result-has-dev").message == "the result already holds both sides' text here (resolved by hand)"
    assert hunk.risk == 0 and entry.level is Level.LOW


def test_a_resolution_keeping_dev_s_text_says_what_of_main_s_it_lost(builder: RepoBuilder) -> None:
    """The main twin: dev's text kept over main's edit of the neighbouring line loses main's line."""
    _dangling(builder)
    builder.checkout("dev")
    assert builder.merge("main", "ours") == 0
    (hunk,) = only_file(analyze_repo(builder.path, "HEAD"), PATH).hunks
    assert hunk.taken is Taken.DEV
    assert kinds(hunk) == ["main-only-lines-dropped"]
    lost = signal(hunk, "main-only-lines-dropped")
    assert lost.message == (
        "1 line main wrote here (from main's #34), beside dev's change, is not in the result, "
        "e.g. \u201cfrom pkg.alpha import alpha, gamma\u201d"
    )
    assert lost.commits == (builder.rev("main"),)
    assert hunk.level is Level.HIGH


def test_a_main_line_a_dev_commit_deliberately_removed_is_not_high(builder: RepoBuilder) -> None:
    """Main edits a function dev deleted on purpose; a resolution keeping dev's text names dev's deletion."""
    legacy = "def legacy_loader(path):\n    data = read(path)\n    return parse(data)\n"
    builder.write(PATH, _feature(BASE) + "\n\n" + legacy)
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(PATH, _feature(BASE))
    removal = builder.commit("[dev] Remove the legacy loader (#16)")
    builder.checkout("main")
    builder.write(PATH, _feature(BASE) + "\n\n" + legacy.replace("read(path)", "read(path, strict=True)"))
    builder.commit("Read legacy files strictly (#36)")
    builder.checkout("dev")
    assert builder.merge("main", "ours") == 0
    (hunk,) = only_file(analyze_repo(builder.path, "HEAD"), PATH).hunks
    assert hunk.taken is Taken.DEV
    assert kinds(hunk) == ["dev-removed-intentionally", "main-only-lines-dropped"]
    removed = signal(hunk, "dev-removed-intentionally")
    assert removed.message == (
        "dev's #16 deleted this code on purpose (\u201c[dev] Remove the legacy loader (#16)\u201d); "
        "main's edits to it go with it"
    )
    assert removed.commits == (removal,)
    assert signal(hunk, "main-only-lines-dropped").message.startswith("1 line main wrote here (from main's #36)")
    assert hunk.level is Level.LOW


def test_regenerated_values_weigh_little(builder: RepoBuilder) -> None:
    golden = "tests/golden_values.json"

    def values(offset: float) -> str:
        return json.dumps({str(i): round(10.5 + offset * i, 5) for i in range(1, 30)}, indent=4) + "\n"

    builder.write(golden, values(0.0))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(golden, values(0.01))
    builder.commit("Update golden values (#15)")
    builder.checkout("main")
    builder.write(golden, values(0.02))
    builder.commit("ci: Update golden values (#35)")
    hunks = only_file(analyze_preview(builder.path), golden).hunks
    assert hunks
    for hunk in hunks:
        assert kinds(hunk) == ["dev-only-lines-dropped"]
        assert "of values or comments" in hunk.signals[0].message
        assert hunk.level is Level.LOW


def _with_stage(path: str, earlier: Callable[[SyncAnalysis, AnalysisContext], SyncAnalysis]) -> SyncAnalysis:
    repo = GitRepo.open(path)
    snapshot = load_sync(repo, dev="dev", main="main")
    return analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, stages=(_whole(earlier), score_risk.STAGE))


def _whole(run: Callable[[SyncAnalysis, AnalysisContext], SyncAnalysis]) -> Stage[AnalysisContext, None, None]:
    """A stage that is one step over the whole analysis, in its fold (it reads everything)."""
    return Stage("earlier", EVERYTHING, EVERYTHING, lambda _analysis, context: context, lambda _context: (),
                 lambda _context, _key: None, lambda analysis, _found, context: run(analysis, context))


def test_signals_of_earlier_stages_are_folded_in_by_weight(builder: RepoBuilder) -> None:
    """The hook for policy and API audit: their weights move hunk and file risk."""
    _chain(builder, "Scale values (#31)", "dev PR: #11")

    def policy(analysis: SyncAnalysis, _context: AnalysisContext) -> SyncAnalysis:
        files = []
        for entry in analysis.files:
            hunks = tuple(
                replace(h, signals=(Signal(SignalKind.POLICY_OVERRIDE, "taken from main by policy", (), -80),))
                for h in entry.hunks
            )
            files.append(replace(entry, hunks=hunks, signals=(Signal(SignalKind.POLICY_NOTE, "an override-list file", (), 70),)))
        return replace(analysis, files=tuple(files))

    entry = only_file(_with_stage(str(builder.path), policy), PATH)
    (hunk,) = entry.hunks
    assert kinds(hunk)[0] == SignalKind.POLICY_OVERRIDE
    assert "squash-counterpart" in kinds(hunk)
    assert hunk.risk == spread(15 + sum(s.weight for s in hunk.signals)) == spread(15 - 80 + 50 + 35)
    assert only_file(analyze_preview(builder.path), PATH).hunks[0].risk == spread(15 + 50 + 35)
    assert entry.risk == spread(15 + 70) and entry.level is Level.HIGH


def test_a_reworded_comment_in_a_squash_chain_is_not_high(builder: RepoBuilder) -> None:
    """Dev's follow-up only reworded a comment: the two chain bullets say so once and weigh nothing."""
    before = "    # Needed for torch format ckpt loading\n    return read(path)\n"
    fixed = "    # Needed for torch format ckpt loading\n    return read(path, weights_only=False)\n"
    reworded = "    # Needed for torch ckpt format loading\n    return read(path, weights_only=False)\n"
    builder.write(PATH, _feature(before))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(PATH, _feature(fixed))
    builder.commit("[dev] Load full checkpoints (#11)")
    builder.write(PATH, _feature(reworded))
    builder.commit("[dev] Reword the loading comment (#12)")
    builder.checkout("main")
    builder.write(PATH, _feature(fixed))
    builder.commit("Load full checkpoints (#31)", "dev PR: #11")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    (hunk,) = only_file(analyze_repo(builder.path), PATH).hunks
    assert hunk.taken is Taken.UNRESOLVED
    chain = [s for s in hunk.signals if s.kind in ("older-dev-state", "squash-counterpart")]
    assert chain and all(s.weight == 0 and s.message.endswith("(only comments would change)") for s in chain)
    assert "of values or comments" in signal(hunk, "dev-only-lines-dropped").message
    assert hunk.level is Level.LOW


def test_a_feature_commit_that_deleted_dev_s_lines_in_passing_is_no_evidence(builder: RepoBuilder) -> None:
    """The accident direction of main-removed-intentionally: the deleting commit adds a feature."""
    legacy = "def legacy_loader(path):\n    data = read(path)\n    return parse(data)\n"
    builder.write(PATH, _feature(BASE) + "\n\n" + legacy)
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(PATH, _feature(BASE) + "\n\n" + legacy.replace("read(path)", "read(path, strict=True)"))
    builder.commit("[dev] Read strictly (#19)")
    builder.checkout("main")
    builder.write(PATH, _feature("    return stream(value)\n"))
    builder.commit("Add streaming to scale (#39)")
    (hunk,) = [h for h in only_file(analyze_preview(builder.path), PATH).hunks if h.base.start > 20]
    removed = signal(hunk, "main-removed-intentionally")
    assert removed.weight == 0
    assert removed.message.startswith("main's #39 deleted this code while doing something else")
    assert hunk.level is Level.HIGH


def test_main_lines_lost_in_a_keep_dev_file_are_the_policys_rule(builder: RepoBuilder) -> None:
    """The risk stage reads the keep-dev rule from the policy itself (it works beside the policy stage)."""
    builder.write("pyproject.toml", '[project]\nname = "pkg"\ndependencies = [\n    "numpy",\n]\n')
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write("pyproject.toml", '[project]\nname = "pkg"\ndependencies = [\n    "numpy>=2",\n]\n')
    builder.commit("[dev] Pin numpy (#11)")
    builder.checkout("main")
    builder.write("pyproject.toml", '[project]\nname = "pkg"\ndependencies = [\n    "numpy",\n    "torch_geometric",\n]\n')
    builder.commit("Add torch_geometric (#21)")
    builder.checkout("dev")
    assert builder.merge("main", no_commit=True) == 1
    builder.git("checkout", "dev", "--", "pyproject.toml")
    merge = builder.commit("Merge main into dev (dev's pyproject kept)")
    kept = only_file(analyze_repo(builder.path, merge, policy="megatron"), "pyproject.toml")
    plain = only_file(analyze_repo(builder.path, merge), "pyproject.toml")
    assert "policy-keeps-dev" in kinds(kept.hunks[0]) and "main-only-lines-dropped" in kinds(kept.hunks[0])
    assert "policy-keeps-dev" not in kinds(plain.hunks[0]) and "main-only-lines-dropped" in kinds(plain.hunks[0])
