"""The menu: distinct texts, best first, at most four, each saying what it keeps and drops of each side."""

from __future__ import annotations

from workbench.analysis.model import Take
from workbench.analysis.suggest.candidates import MENU_SIZE, Edits, HunkTexts, Reflowed, all_candidates
from workbench.analysis.suggest.words import merge_words

T = HunkTexts((b"a\n", b"b\n"), (b"a\n", b"B\n", b"d\n"), (b"A\n", b"b\n"))


def test_each_candidate_says_what_it_keeps_and_drops() -> None:
    found = {c.take: c for c in all_candidates(T, Edits.of(T), words=merge_words(T.base, T.dev, T.main))}
    assert found[Take.MAIN].lines == T.main and found[Take.MAIN].main.kept == (0,) and found[Take.MAIN].dev.dropped == (1, 2)
    assert found[Take.DEV].dev.kept == (1, 2) and found[Take.DEV].main.dropped == (0,)
    assert found[Take.WORDS].lines == (b"A\n", b"B\n", b"d\n"), "the edits touch different lines: a clean merge"
    words = found[Take.WORDS]
    assert words.dev.kept == (1, 2) and words.main.kept == (0,) and not words.dev.dropped and not words.main.dropped
    assert Take.SPLICE not in found, "the splice is the word merge's text here: offered once, under the first name"


def test_the_menu_prefers_the_sides_then_main_reflowed_and_offers_each_text_once() -> None:
    flowed = Reflowed(main=(b"A  \n", b"b\n"), both=None, checked=True)
    menu = all_candidates(T, Edits.of(T), flowed)
    assert [c.take for c in menu][:3] == [Take.MAIN, Take.DEV, Take.MAIN_FORMATTED]
    assert len({c.text for c in menu}) == len(menu)
    assert MENU_SIZE == 4


def test_a_reflowed_text_equal_to_another_candidate_is_not_offered_twice() -> None:
    same = Reflowed(main=T.main, checked=True)
    assert Take.MAIN_FORMATTED not in {c.take for c in all_candidates(T, Edits.of(T), same)}
