"""A suggestion in a few words, the same in the report, the training reveal and the app:
"dev — dev's lines are a later state of what main squashed in #4113"."""

from __future__ import annotations

from collections.abc import Mapping

from workbench.analysis.model import Rung, Suggestion, Take

TAKE_WORDS: dict[Take, str] = {
    Take.MAIN: "main",
    Take.DEV: "dev",
    Take.BOTH: "both, dev's first",
    Take.BOTH_MAIN_FIRST: "both, main's first",
    Take.SPLICE: "the splice, dev's first",
    Take.SPLICE_MAIN_FIRST: "the splice, main's first",
    Take.WORDS: "the word merge",
    Take.MAIN_FORMATTED: "main, laid out by dev's formatter",
    Take.BOTH_FORMATTED: "both, imports sorted by dev's isort",
}
"""What a candidate writes, as a reviewer names it."""

RUNG_WORDS: dict[Rung, str] = {
    Rung.MAIN_REMOVED: "main deleted these lines on purpose{pr}",
    Rung.MAIN_REMOVED_INCIDENTALLY: "main deleted these lines only in passing{pr}",
    Rung.SQUASH_CHAIN: "dev's lines are a later state of what main squashed{pr}",
    Rung.MAIN_AHEAD: "main already contains everything dev added here{pr}",
    Rung.GATHERED_SQUASH: "main's lines come from one squash of several dev PRs{pr}",
    Rung.DEV_LAYOUT_ONLY: "dev only re-laid these lines out, main changed them",
    Rung.ONE_SIDE_IS_MERGE: "the three texts merge cleanly word by word, into this side's text",
    Rung.DEV_UNCHANGED: "dev left these lines as they were, main changed them",
    Rung.MAIN_WITHIN_DEV: "dev's lines already hold everything main did here",
    Rung.DEV_DELETED: "dev deleted these lines, main only added to them",
    Rung.IMPORT_UNION: "both sides only added imports here",
}
"""Each rung's evidence in a clause; ``{pr}`` is " in #N" when a commit the evidence names has a PR number."""


def suggestion_words(suggestion: Suggestion, prs: Mapping[str, int | None] | None = None) -> str:
    """The suggested take and its rung in words; ``prs``: the PR number of commits the caller knows, by sha
    (the first of the suggestion's commits found with one is named)."""
    known = prs or {}
    number = next((known[sha] for sha in suggestion.commits if known.get(sha)), None)
    clause = RUNG_WORDS[suggestion.rung].format(pr=f" in #{number}" if number else "")
    return f"{TAKE_WORDS[suggestion.candidate.take]} — {clause}"
