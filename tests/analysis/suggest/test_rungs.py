"""The ladder: each rung suggests only on its evidence, and contradicted evidence suggests nothing."""

from __future__ import annotations

from workbench.analysis.model import Rung, Signal, SignalKind, Suggestion, Take
from workbench.analysis.suggest.candidates import MENU_SIZE, Edits, HunkTexts, Reflowed, all_candidates
from workbench.analysis.suggest.rungs import SquashFacts, squash_facts, suggest
from workbench.analysis.suggest.words import merge_words

TEXTS = HunkTexts((b"x = f(a)\n",), (b"x = g(a)\n", b"y = 1\n"), (b"x = f(a, b)\n",))
NO_REFLOW = Reflowed()
SQUASH, COUNTERPART, FOLLOW_UP, OTHER = "5" * 40, "c" * 40, "f" * 40, "0" * 40


def ask(signals: tuple[Signal, ...], texts: HunkTexts = TEXTS, reflowed: Reflowed = NO_REFLOW,
        facts: SquashFacts | None = None, main_commits: tuple[str, ...] = ()) -> Suggestion | None:
    words = merge_words(texts.base, texts.dev, texts.main)
    candidates = all_candidates(texts, Edits.of(texts), reflowed, words, MENU_SIZE)
    squashes = facts if facts is not None else squash_facts(signals)
    return suggest(texts, signals, candidates, squashes, checked=reflowed.checked, main_commits=main_commits, words=words)


def chain(squash: str = SQUASH, counterpart: str = COUNTERPART, weight: int = 50) -> Signal:
    return Signal(SignalKind.SQUASH_COUNTERPART, "main's text is a squash of dev's PR", (squash, counterpart, FOLLOW_UP), weight)


def test_no_evidence_no_suggestion() -> None:
    assert ask(()) is None
    assert ask((Signal(SignalKind.DEV_ONLY_LINES_DROPPED, "lost", (), 40),)) is None


def test_main_removed_on_purpose_suggests_main_and_incidentally_dev() -> None:
    removed = ask((Signal(SignalKind.MAIN_REMOVED_INTENTIONALLY, "main's #7 deleted this code on purpose", ("a" * 40,), -50),))
    assert removed is not None and removed.rung is Rung.MAIN_REMOVED and removed.candidate.take is Take.MAIN
    assert removed.reason == "main's #7 deleted this code on purpose" and removed.commits == ("a" * 40,)
    aside = ask((Signal(SignalKind.MAIN_REMOVED_INTENTIONALLY, "deleted while doing something else", (), 0),))
    assert aside is not None and aside.rung is Rung.MAIN_REMOVED_INCIDENTALLY and aside.candidate.take is Take.DEV


def test_a_squash_chain_suggests_dev_unless_the_squash_gathered_several_dev_prs() -> None:
    found = ask((chain(),))
    assert found is not None and found.rung is Rung.SQUASH_CHAIN and found.candidate.take is Take.DEV
    assert ask((chain(weight=0),)) is None, "a chain counted elsewhere, or only comments: no weight, no suggestion"
    gathered = squash_facts([chain(), chain(counterpart=OTHER)])
    assert gathered.gathered(SQUASH)
    assert ask((chain(),), facts=gathered) is None, "main's squash took dev's chain as one: not an older dev state"
    on_main = ask((), facts=gathered, main_commits=(SQUASH,))
    assert on_main is not None and on_main.rung is Rung.GATHERED_SQUASH and on_main.candidate.take is Take.MAIN


def test_main_ahead_suggests_main_unless_the_same_single_squash_is_built_on_elsewhere() -> None:
    ahead = Signal(SignalKind.MAIN_AHEAD, "main's side is the newer one", (SQUASH, COUNTERPART), -30)
    found = ask((ahead,), facts=SquashFacts())
    assert found is not None and found.rung is Rung.MAIN_AHEAD and found.candidate.take is Take.MAIN
    built_on_elsewhere = squash_facts([chain()])
    assert ask((ahead,), facts=built_on_elsewhere) is None, "the evidence points both ways"


def test_dev_only_re_laid_the_base_out_suggests_main_as_the_formatter_lays_it_out() -> None:
    texts = HunkTexts((b"f(a,\n", b"  b)\n"), (b"f(a, b)\n",), (b"f(a,\n", b"  b, c)\n"))
    flowed = Reflowed(main=(b"f(a, b, c)\n",), checked=True)
    found = ask((), texts, flowed)
    assert found is not None and found.rung is Rung.DEV_LAYOUT_ONLY and found.candidate.take is Take.MAIN_FORMATTED
    assert found.candidate.lines == (b"f(a, b, c)\n",)
    assert ask((), texts, Reflowed()) is None, "without the repository's formatter main's raw text is no answer"


def test_a_clean_word_merge_equal_to_one_side_suggests_that_side() -> None:
    texts = HunkTexts((b"a = 1 + 2\n",), (b"a = 3 + 2\n",), (b"a = 3 + 4\n",))
    found = ask((), texts)
    assert found is not None and found.rung is Rung.ONE_SIDE_IS_MERGE and found.candidate.take is Take.MAIN
    added_both = HunkTexts((), (b"x\n",), ())
    assert ask((), added_both) is None, "a piece of two added files: no base to merge against"


def test_dev_unchanged_suggests_main_unless_squash_evidence_points_to_dev() -> None:
    texts = HunkTexts((), (), (b"a = 2\n",))  # only main wrote here (no word merge: nothing to merge against)
    found = ask((), texts)
    assert found is not None and found.rung is Rung.DEV_UNCHANGED and found.candidate.take is Take.MAIN
    ahead = Signal(SignalKind.MAIN_AHEAD, "main's side is the newer one", (SQUASH, COUNTERPART), -30)
    assert ask((ahead,), texts, facts=squash_facts([chain()])) is None, "main-ahead set aside: the evidence points both ways"


def test_main_s_edit_within_dev_s_suggests_dev_but_not_where_dev_only_re_wrapped_what_main_deleted() -> None:
    base = (b"import os\n", b"import sys\n", b"run()\n")
    within = HunkTexts(base, (b"go()\n",), (b"run()\n",))
    found = ask((), within)
    assert found is not None and found.rung is Rung.MAIN_WITHIN_DEV and found.candidate.take is Take.DEV
    asserts = (b"assert a, \\\n", b"    'one'\n", b"assert b, \\\n", b"    'two'\n")
    wrapped = HunkTexts(asserts, (b"assert a, 'one'\n", b"assert (\n", b"    b\n", b"), 'two'\n"), asserts[:2])
    assert ask((), wrapped) is None, "dev re-wrapped the assert main deleted: dev still has it"


def test_dev_deleted_what_main_only_added_to_suggests_dev() -> None:
    texts = HunkTexts((b"import os\n", b"import sys\n"), (), (b"import os\n", b"import re\n", b"import sys\n"))
    found = ask((), texts)
    assert found is not None and found.rung is Rung.DEV_DELETED and found.candidate.take is Take.DEV
    rewrote = HunkTexts((b"f(a)\n",), (), (b"f(a, b)\n",))
    assert ask((), rewrote) is None, "main changed the lines dev deleted: no evidence either way"


def test_imports_added_on_both_sides_suggest_both() -> None:
    texts = HunkTexts((), (b"from a import b\n",), (b"from c import d\n",))
    found = ask((), texts)
    assert found is not None and found.rung is Rung.IMPORT_UNION
    assert found.candidate.lines == (b"from a import b\n", b"from c import d\n")
    assert ask((), HunkTexts((), (b"from a import b\n",), (b"x = 1\n",))) is None, "main added code, not an import"
