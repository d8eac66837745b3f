"""The worklist groups a sync's findings by shared cause: each hunk that needs a look in exactly one item."""

from __future__ import annotations

from dataclasses import replace

from helpers.worklists import commit, file, hunk, lost, sha, sync

from workbench.analysis.model import (
    ApiMismatch,
    DeletedFile,
    FileStatus,
    HunkKind,
    Level,
    Signal,
    SignalKind,
    Taken,
)
from workbench.analysis.worklist import (
    Claim,
    Decision,
    DuplicateDefinition,
    ItemKind,
    WorklistFacts,
    build_worklist,
    lifted,
)

THD = commit("t1", "[Dev] Add THD support", 2924)
SQUASH = commit("s1", "Refactor optimizer integration", 4113)


def test_one_commits_lost_lines_in_two_files_are_one_item() -> None:
    analysis = sync(
        file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)])], history=[THD]),
        file("b.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)])]),
    )
    (item,) = build_worklist(analysis).items
    assert item.kind is ItemKind.COMMIT and item.level is Level.HIGH and item.side == "dev"
    assert [(m.path, m.hunk) for m in item.members] == [("a.py", 0), ("b.py", 0)]
    assert item.commits[0] == THD.sha and item.prs == (2924,)
    assert "[Dev] Add THD support" in item.why and "2 hunks across 2 files" in item.why
    assert item.decisions == (Decision.DEV, Decision.BOTH, Decision.RESULT, Decision.CUSTOM)


def test_settled_hunks_join_no_item_and_every_other_joins_exactly_one() -> None:
    settled = hunk(1, at=40, level=Level.LOW, taken=Taken.BOTH)
    analysis = sync(
        file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)]), settled]),
        file("b.py", [hunk(0, taken=Taken.UNRESOLVED, level=Level.LOW)]),
    )
    worklist = build_worklist(analysis)
    refs = [(m.path, m.hunk) for i in worklist.items for m in i.members]
    assert sorted(refs) == [("a.py", 0), ("b.py", 0)]
    assert worklist.of_hunk("a.py", 1) is None
    assert worklist.of_hunk("b.py", 0) is not None and worklist.of_hunk("b.py", 0).kind is ItemKind.HUNK  # type: ignore[union-attr]


def test_ids_survive_line_shifts() -> None:
    """The same cause and the same lost text give the same ids when the lines move."""
    def build(at: int) -> list[str]:
        analysis = sync(
            file("a.py", [hunk(0, at=at, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)])]),
            file("b.py", [hunk(0, at=at, lost_main=[(0, 0)], level=Level.MEDIUM)]),
        )
        return sorted(i.id for i in build_worklist(analysis).items)

    assert build(10) == build(250)
    assert all(i.startswith(("commit-", "hunk-")) for i in build(10))


def test_commits_of_the_sync_itself_are_never_what_an_item_is_about() -> None:
    bot = sha("b0")
    facts = WorklistFacts(sync_commits=frozenset({bot}))
    only_bot = sync(file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", bot)])]))
    (item,) = build_worklist(only_bot, facts).items
    assert item.kind is ItemKind.HUNK and bot not in item.commits
    behind = sync(file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", bot, THD.sha)])]))
    (item,) = build_worklist(behind, facts).items
    assert item.kind is ItemKind.COMMIT and item.commits == (THD.sha,)
    # without the fact, the bot's commit is read as dev's work
    (item,) = build_worklist(behind).items
    assert item.commits[0] == bot


def test_a_squash_groups_the_hunks_it_replaced() -> None:
    squash = Signal(SignalKind.SQUASH_COUNTERPART, "squash", (SQUASH.sha, THD.sha), 30)
    analysis = sync(
        file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[squash, lost("dev", THD.sha)])], history=[SQUASH]),
        file("b.py", [hunk(0, lost_dev=[(0, 0)], signals=[squash])]),
    )
    (item,) = build_worklist(analysis).items
    assert item.kind is ItemKind.COMMIT and item.commits[:2] == (SQUASH.sha, THD.sha)
    assert item.why.startswith("Main's squash") and Claim.SUPERSEDED in item.claims


def test_what_breaks_the_build_comes_first_and_is_high() -> None:
    mismatch = ApiMismatch("a.py", 10, "CudaGraphScope", "missing-import", "no such name", "main", hunk=0)
    elsewhere = ApiMismatch("c.py", 3, "CudaGraphScope", "missing-import", "no such name", "main")
    analysis = sync(
        file("a.py", [hunk(0, level=Level.LOW, taken=Taken.BOTH)]),
        file("b.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)])]),
        api_mismatches=(mismatch, elsewhere),
    )
    items = build_worklist(analysis).items
    assert [i.kind for i in items] == [ItemKind.API_BREAK, ItemKind.COMMIT]
    first = items[0]
    assert first.level is Level.HIGH and [(m.path, m.hunk) for m in first.members] == [("a.py", 0), ("c.py", None)]
    assert "CudaGraphScope" in first.why and "no such name" in first.why


def test_a_duplicate_definition_is_high_with_both_lines() -> None:
    dup = DuplicateDefinition("cfg.py", "Config", "beta", (287, 317), dev_line=283, main_line=300)
    analysis = sync(file("cfg.py", [hunk(0, at=287, level=Level.LOW, taken=Taken.BOTH)]))
    items = build_worklist(analysis, WorklistFacts(duplicates=(dup,))).items
    (item,) = items
    assert item.kind is ItemKind.DUPLICATE_DEFINITION and item.level is Level.HIGH
    assert item.members[0].hunk == 0 and "Config.beta twice" in item.why and "287, 317" in item.why
    # outside any hunk (git merged the file cleanly): the file is the member
    (item,) = build_worklist(sync(), WorklistFacts(duplicates=(dup,))).items
    assert [(m.path, m.hunk) for m in item.members] == [("cfg.py", None)]


def test_a_keep_dev_file_is_one_policy_item() -> None:
    hunks = [hunk(n, at=10 * (n + 1), lost_dev=[(0, 0)], signals=[lost("dev", sha(f"c{n}"))]) for n in range(3)]
    analysis = sync(file("uv.lock", hunks, policy="keep-dev"))
    (item,) = build_worklist(analysis).items
    assert item.kind is ItemKind.POLICY and len(item.members) == 3
    assert item.decisions == (Decision.FILE_DEV, Decision.RESULT, Decision.CUSTOM) and Claim.POLICY in item.claims


def test_a_fix_commit_after_the_merge_is_one_item() -> None:
    fix = commit("f1", "fix: post-CI corrections")
    analysis = sync(
        file("a.py", edits=[hunk(3, kind=HunkKind.EDIT, taken=Taken.OTHER, lost_main=[(0, 0)], signals=[lost("main", sha("m1"))])]),
        file("b.py", edits=[hunk(1, kind=HunkKind.EDIT, taken=Taken.OTHER, lost_main=[(0, 0)])]),
    )
    facts = WorklistFacts(fixed_by={("a.py", 3): fix.sha, ("b.py", 1): fix.sha}, commits=(fix,))
    (item,) = build_worklist(analysis, facts).items
    assert item.kind is ItemKind.FIX_COMMIT and item.commits[0] == fix.sha
    assert "post-CI corrections" in item.why and Decision.MERGED in item.decisions


def test_layout_only_hunks_are_one_low_item() -> None:
    layout = [hunk(n, at=10 * (n + 1), level=Level.LOW, taken=Taken.OTHER) for n in range(2)]
    analysis = sync(file("a.py", layout), file("b.py", [hunk(0, level=Level.LOW, taken=Taken.OTHER)]))
    facts = WorklistFacts(layout_only=frozenset({("a.py", 0), ("a.py", 1), ("b.py", 0)}))
    (item,) = build_worklist(analysis, facts).items
    assert item.kind is ItemKind.FORMATTING and item.level is Level.LOW and len(item.members) == 3
    assert item.decisions == (Decision.RESULT,) and Claim.RESTORED in item.claims


def test_one_rename_across_files_is_one_item() -> None:
    def renamed(index: int) -> object:
        return hunk(index, dev=["y = tp_group.size()"], main=["y = 2"], result=["y = pg_tp.size()"], taken=Taken.OTHER,
                    lost_dev=[(0, 0)], signals=[lost("dev", sha(f"r{index}"))])

    analysis = sync(file("a.py", [renamed(0)]), file("b.py", [renamed(0)]))  # type: ignore[list-item]
    items = build_worklist(analysis).items
    assert [i.kind for i in items] == [ItemKind.RENAME]
    assert items[0].why.startswith("tp_group became pg_tp in 2 hunks across 2 files")


def test_a_whole_file_take_without_commits_is_one_item() -> None:
    edits = [hunk(n, at=10 * (n + 1), kind=HunkKind.EDIT, taken=Taken.DEV, lost_main=[(0, 0)]) for n in range(2)]
    analysis = sync(file("a.py", edits=edits, status=FileStatus.TOOK_DEV_FILE))
    (item,) = build_worklist(analysis).items
    assert item.kind is ItemKind.WHOLE_FILE and item.side == "main" and len(item.members) == 2
    assert "took dev's whole file a.py" in item.why and Decision.MERGED in item.decisions


def test_causes_confined_to_one_file_fold_into_its_item_and_a_cross_file_commit_stays() -> None:
    analysis = sync(
        file("t.py", [
            hunk(0, at=10, lost_dev=[(0, 0)], signals=[lost("dev", sha("x1"))]),
            hunk(1, at=20, lost_dev=[(0, 0)], signals=[lost("dev", sha("x2"))]),
            hunk(2, at=30, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)]),
        ]),
        file("u.py", [hunk(0, lost_dev=[(0, 0)], signals=[lost("dev", THD.sha)])]),
    )
    items = build_worklist(analysis).items
    kinds = sorted((i.kind.value, len(i.members)) for i in items)
    assert kinds == [("commit", 2), ("file", 2)]
    folded = next(i for i in items if i.kind is ItemKind.FILE)
    assert [m.hunk for m in folded.members] == [0, 1] and folded.why.startswith("2 hunks of t.py with 2 separate causes")


def test_a_test_file_follows_its_implementation() -> None:
    analysis = sync(
        file("pkg/engine.py", [hunk(0, lost_main=[(0, 0)], signals=[lost("main", sha("e1"))])]),
        file("tests/test_engine.py", [hunk(0, lost_main=[(0, 0)], signals=[lost("main", sha("e2"))])]),
    )
    (item,) = build_worklist(analysis).items
    assert item.paths == ("pkg/engine.py", "tests/test_engine.py")


def test_a_deleted_file_the_result_imports_is_high() -> None:
    gone = DeletedFile("pkg/x.py", "1" * 40, True, False, "restore-file", "pkg/y.py imports it")
    left = DeletedFile("pkg/old.py", "2" * 40, True, False, "leave-deleted", "dev deleted it")
    items = build_worklist(sync(deleted_files=(gone, left))).items
    assert [(i.kind, i.level) for i in items] == [(ItemKind.DELETED_FILE, Level.HIGH), (ItemKind.DELETED_FILE, Level.LOW)]
    assert items[0].decisions == (Decision.FILE_MAIN, Decision.RESULT) and "imports it" in items[0].why


def test_a_removal_on_purpose_offers_its_claim() -> None:
    removed = Signal(SignalKind.MAIN_REMOVED_INTENTIONALLY, "main deleted it on purpose", (sha("m9"),), -50)
    analysis = sync(file("a.py", [hunk(0, lost_dev=[(0, 0)], signals=[removed, lost("dev", THD.sha)])]))
    (item,) = build_worklist(analysis).items
    assert Claim.INTENTIONAL_REMOVAL in item.claims and sha("m9") in item.commits


def test_losses_on_both_sides_offer_both_orders() -> None:
    analysis = sync(file("a.py", [hunk(0, taken=Taken.OTHER, lost_dev=[(0, 0)], lost_main=[(0, 0)])]))
    (item,) = build_worklist(analysis).items
    assert item.side is None and item.lost_dev == 1 and item.lost_main == 1
    assert {Decision.MAIN, Decision.DEV, Decision.BOTH, Decision.BOTH_MAIN_FIRST} <= set(item.decisions)


def test_levels_order_the_list() -> None:
    analysis = sync(
        file("a.py", [hunk(0, level=Level.MEDIUM, lost_dev=[(0, 0)], signals=[lost("dev", sha("q1"))])]),
        file("b.py", [hunk(0, level=Level.HIGH, lost_dev=[(0, 0)], signals=[lost("dev", sha("q2"))])]),
    )
    worklist = build_worklist(analysis)
    assert [i.level for i in worklist.items] == [Level.HIGH, Level.MEDIUM]
    assert worklist.high == worklist.items[:1] and worklist.item(worklist.items[1].id) is worklist.items[1]
    assert replace(worklist.items[0]).id == worklist.items[0].id


def test_several_names_failing_in_one_file_are_one_item_and_a_name_failing_in_two_files_stays_one() -> None:
    """An import block gone from one file breaks every name it imported: one decision for the file."""
    gone = [ApiMismatch("t.py", n, name, "undefined-name", f"{name} is not defined", "main") for n, name in
            enumerate(["HybridModel", "ModuleSpec", "HybridStack"], start=3)]
    renamed = [ApiMismatch(p, 7, "group_commit", "missing-attribute", "no group_commit", "dev") for p in ("a.py", "b.py")]
    items = build_worklist(sync(api_mismatches=(*gone, *renamed))).items
    assert sorted((i.kind.value, i.paths) for i in items) == [
        ("api-break", ("a.py", "b.py")), ("api-break", ("t.py",))
    ]
    in_file = next(i for i in items if i.paths == ("t.py",))
    assert in_file.level is Level.HIGH and len(in_file.members) == 3
    assert in_file.why.startswith("3 names fail in t.py") and "HybridModel is not defined" in in_file.why


def test_a_medium_hunk_losing_a_high_commits_lines_is_lifted_and_nothing_else() -> None:
    analysis = sync(
        file("a.py", [hunk(0, lost_main=[(0, 0)], signals=[lost("main", THD.sha)])]),
        file("b.md", [hunk(0, level=Level.MEDIUM, lost_main=[(0, 0)], signals=[lost("main", THD.sha)])]),
        file("c.py", [hunk(0, level=Level.MEDIUM, lost_main=[(0, 0)], signals=[lost("main", sha("o1"))])]),
        file("d.py", [hunk(0, level=Level.LOW, lost_main=[(0, 0)], signals=[lost("main", THD.sha)])]),
    )
    assert lifted(build_worklist(analysis)) == {("b.md", 0)}
