"""Which dev commit a main commit is the squash of.

Megatron-LM lands dev features on main as squash commits: the same title
without the ``[dev]`` tag (``[Dev] Feat(moe): X (#2614)`` on dev is
``[Main] Feat(moe): X (#2642)`` on main), or a description that names the
counterpart (``dev PR: #101``, ``main PR: #3095``, ``Cherry-pick #1989``),
or, failing both, a patch to the file that adds mostly the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from workbench.analysis.model import Commit

MIN_TITLE = 12
"""Shorter titles ("Fix typo") are too common to pair commits by."""
SIMILAR_PATCH = 0.6
"""Share of the added lines two patches must have in common (Jaccard) to be one change."""
MIN_PATCH_LINES = 3
"""Added lines in common below which patches are not compared."""

_TAGS = re.compile(r"^\s*(?:\[[^\]]*\]\s*|(?:cp|cherry-pick|reapply|backport)\s*:\s*)+", re.I)
_TRAILING_PR = re.compile(r"(?<!\s)\s*+\(#\d+\)\s*$")
"""Starts where a run of spaces starts: trying every position inside a long run is quadratic."""
_NON_WORD = re.compile(r"[^a-z0-9]+")
_PR_REF = re.compile(r"#(\d+)\b")


@lru_cache(maxsize=4096)
def title_key(subject: str) -> str:
    """A subject reduced to what a squash keeps: no ``[dev]`` tags, no ``(#N)``, no case."""
    core = _TRAILING_PR.sub("", _TAGS.sub("", subject))
    return _NON_WORD.sub(" ", core.lower()).strip()


@lru_cache(maxsize=4096)
def mentioned_prs(commit: Commit) -> frozenset[int]:
    """PR numbers a commit's message mentions, other than its own."""
    return frozenset(int(n) for n in _PR_REF.findall(commit.message)) - {commit.pr}


def similar_patch(main_added: frozenset[bytes], dev_added: frozenset[bytes]) -> bool:
    """Whether two commits added mostly the same lines to a file (sets of stripped lines)."""
    common = len(main_added & dev_added)
    return common >= MIN_PATCH_LINES and common >= SIMILAR_PATCH * len(main_added | dev_added)


def counterpart(main: Commit, dev_commits: Sequence[Commit]) -> Commit | None:
    """The dev commit ``main`` squashes by its message: same title without tags, or a PR cross-reference."""
    key = title_key(main.subject)
    mentioned = mentioned_prs(main)
    for dev in dev_commits:
        if dev.sha == main.sha:
            continue
        if len(key) >= MIN_TITLE and key == title_key(dev.subject):
            return dev
        if dev.pr is not None and dev.pr in mentioned:
            return dev
        if main.pr is not None and main.pr in mentioned_prs(dev):
            return dev
    return None
