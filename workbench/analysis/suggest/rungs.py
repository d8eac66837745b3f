"""The ladder: a suggestion only where the evidence stands behind it, each rung measured against what shipped.

Rungs read the risk stage's signals (their kinds, weights and commits) and
the hunk's own texts; nothing here trusts commit dates, which mislead (main's
squash carries the later date).  Precision comes before coverage: a wrong
suggestion where the bot's text was right costs the reviewer's trust, so a
rung whose evidence is contradicted elsewhere in the sync says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from workbench.analysis.model import Candidate, Rung, Signal, SignalKind, Suggestion, Take
from workbench.analysis.suggest.candidates import HunkTexts
from workbench.analysis.suggest.formatting import is_import
from workbench.analysis.suggest.splice import side_edits

_LAYOUT = re.compile(rb"[\s,]")
"""What a formatter changes besides line breaks: blanks, and the trailing commas black adds or removes."""
_CODE_LAYOUT = re.compile(rb"[\s,()\\]")
"""Besides, the parentheses and backslashes a formatter wraps long lines with: what is left is the code."""


@dataclass(frozen=True, slots=True)
class SquashFacts:
    """Every main squash commit the analysis names as a dev PR's counterpart, with the dev commits it squashed."""

    counterparts: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Main squash commit -> the dev commits named as its counterparts, over every hunk's signals."""
    built_on: frozenset[str] = frozenset()
    """Main squashes some hunk says dev built on afterwards (a squash-chain signal with weight)."""

    def gathered(self, squash: str) -> bool:
        """The squash is the counterpart of several dev PRs: main gathered a chain, maybe with its follow-ups."""
        return len(self.counterparts.get(squash, ())) > 1


def squash_facts(signals: Sequence[Signal]) -> SquashFacts:
    """The squash facts of a whole analysis, from its hunks' ``squash-counterpart`` signals (commits: the main
    squash, its dev counterpart, then the dev follow-ups)."""
    counterparts: dict[str, set[str]] = {}
    built_on: set[str] = set()
    for signal in signals:
        if signal.kind is SignalKind.SQUASH_COUNTERPART and len(signal.commits) >= 2:
            counterparts.setdefault(signal.commits[0], set()).add(signal.commits[1])
            if signal.weight > 0:
                built_on.add(signal.commits[0])
    return SquashFacts({k: frozenset(v) for k, v in counterparts.items()}, frozenset(built_on))


def suggest(
    texts: HunkTexts,
    signals: Sequence[Signal],
    candidates: Sequence[Candidate],
    squashes: SquashFacts,
    *,
    checked: bool = False,
    main_commits: Sequence[str] = (),
    words: tuple[bytes, ...] | None = None,
) -> Suggestion | None:
    """The first rung whose evidence holds, with the candidate it stands behind; None when none does.

    ``candidates`` are the hunk's first ones (``all_candidates``: main, dev and main reflowed are among the
    first three); ``checked``: the repository's formatter laid out main's text here (``Reflowed.checked``).
    """
    by_take = {c.take: c for c in candidates}
    by_text = {c.text: c for c in candidates}
    main = by_take.get(Take.MAIN_FORMATTED) or by_take.get(Take.MAIN) or by_text.get(b"".join(texts.main))
    dev = by_take.get(Take.DEV) or by_text.get(b"".join(texts.dev))
    kinds = {s.kind: s for s in signals}

    removed = kinds.get(SignalKind.MAIN_REMOVED_INTENTIONALLY)
    if removed is not None and removed.weight < 0 and main is not None:
        return Suggestion(main, Rung.MAIN_REMOVED, removed.message, removed.commits)
    if removed is not None and removed.weight == 0 and dev is not None:
        return Suggestion(dev, Rung.MAIN_REMOVED_INCIDENTALLY, removed.message, removed.commits)

    chain = _squash_chain(signals, squashes)
    if chain is not None and dev is not None:
        return Suggestion(dev, Rung.SQUASH_CHAIN, chain.message, chain.commits)

    ahead = kinds.get(SignalKind.MAIN_AHEAD)
    if ahead is not None and main is not None and not _contradicted(ahead, squashes):
        return Suggestion(main, Rung.MAIN_AHEAD, ahead.message, ahead.commits)

    gathered = [c for c in main_commits if squashes.gathered(c)]
    if gathered and main is not None:
        names = sorted(squashes.counterparts[gathered[0]])
        reason = (f"main's lines here come from {gathered[0][:10]}, the squash of {len(names)} dev commits "
                  f"({', '.join(n[:10] for n in names)}): main took dev's chain as one")
        return Suggestion(main, Rung.GATHERED_SQUASH, reason, (gathered[0], *names))

    if checked and main is not None and _layout_only(texts.dev, texts.base):
        reason = "dev only re-laid these lines out (the same code as the base); main changed them: main's, laid out as dev's formatter does"
        return Suggestion(main, Rung.DEV_LAYOUT_ONLY, reason)

    merged = _one_side_merge(texts, words)
    if merged is not None and (found := by_text.get(merged)) is not None and found.take in (Take.MAIN, Take.DEV):
        reason = f"the three texts merge cleanly word by word, and the merge is {found.take.value}'s text"
        return Suggestion(main if found.take is Take.MAIN and main is not None else found, Rung.ONE_SIDE_IS_MERGE, reason)
    return _contained(texts, by_take, main, dev, contradicted=ahead is not None)


def _contained(
    texts: HunkTexts, by_take: Mapping[Take, Candidate], main: Candidate | None, dev: Candidate | None, *, contradicted: bool
) -> Suggestion | None:
    """The rungs that read only the three texts: one side's edit of the base holds the other's, or both only
    added imports.  ``contradicted``: a main-ahead signal here was set aside (squash evidence points to dev)."""
    if texts.dev == texts.base and texts.main != texts.base:
        if main is not None and not contradicted:
            return Suggestion(main, Rung.DEV_UNCHANGED, "dev's lines here are the base's: main's edit is the only one")
        return None
    if texts.base and dev is not None and texts.main != texts.base:
        dev_edit, main_edit = side_edits(texts.base, texts.dev), side_edits(texts.base, texts.main)
        devs = {line.strip() for line in texts.dev}
        gone = _gone([texts.base[i] for i in main_edit.deleted], texts.dev)
        if main_edit.deleted <= dev_edit.deleted and gone and all(texts.main[i].strip() in devs for i in main_edit.written):
            return Suggestion(dev, Rung.MAIN_WITHIN_DEV,
                              "dev's lines already hold main's edit here: every line main wrote, and every deletion")
        if not texts.dev and not main_edit.deleted:
            return Suggestion(dev, Rung.DEV_DELETED,
                              "dev deleted these lines; main only added lines among them, to code dev no longer has")
    if not texts.base and _imports(texts.dev) and _imports(texts.main):
        union = next((by_take[t] for t in (Take.BOTH_FORMATTED, Take.SPLICE, Take.BOTH) if t in by_take), None)
        if union is not None:
            return Suggestion(union, Rung.IMPORT_UNION, "both sides only added imports here: keep both sides' imports")
    return None


def _gone(deleted: Sequence[bytes], side: Sequence[bytes]) -> bool:
    """None of the deleted lines' code is still in the side's text, however laid out: a line the side only
    re-wrapped is not a line it deleted."""
    code = _CODE_LAYOUT.sub(b"", b"".join(side))
    return all(not kept or kept not in code for kept in (_CODE_LAYOUT.sub(b"", line) for line in deleted))


def _imports(lines: Sequence[bytes]) -> bool:
    """Import lines and blank lines only, at least one import."""
    return any(is_import(line) for line in lines) and all(is_import(line) or not line.strip() for line in lines)


def _squash_chain(signals: Sequence[Signal], squashes: SquashFacts) -> Signal | None:
    """The squash-chain signal that stands: weighed, and not about a squash that gathered several dev PRs."""
    for signal in signals:
        if signal.weight <= 0 or signal.kind not in (SignalKind.OLDER_DEV_STATE, SignalKind.SQUASH_COUNTERPART):
            continue
        if signal.kind is SignalKind.SQUASH_COUNTERPART and squashes.gathered(signal.commits[0]):
            continue
        if any(s.kind is SignalKind.SQUASH_COUNTERPART and s.commits and squashes.gathered(s.commits[0]) for s in signals):
            continue
        return signal
    return None


def _contradicted(ahead: Signal, squashes: SquashFacts) -> bool:
    """Main-ahead names the squash of a single dev PR that dev built on elsewhere: the evidence points both ways."""
    squash = ahead.commits[0] if ahead.commits else ""
    return squash in squashes.built_on and not squashes.gathered(squash)


def _layout_only(side: Sequence[bytes], base: Sequence[bytes]) -> bool:
    """The side's text is the base's laid out anew: the same once blanks and commas are left out."""
    return tuple(side) != tuple(base) and bool(base) and _LAYOUT.sub(b"", b"".join(side)) == _LAYOUT.sub(b"", b"".join(base))


def _one_side_merge(texts: HunkTexts, words: tuple[bytes, ...] | None) -> bytes | None:
    """The word-level merge's text, unless the hunk is a piece of two added files (no base, one side empty)."""
    if words is None or (not texts.base and not (texts.dev and texts.main)):
        return None
    return b"".join(words)
