"""Every signal kind's weight, family and meaning: one table, the one docs/risk.md's table shows.

A signal's ``weight`` is added to its hunk's (or file's) risk (``combine.py``).
Most weigh the same wherever they fire; the few whose weight follows their
evidence (how many lines were lost, whether a commit says it removes code)
give the weight they carry as a rule and the range they may take, and the
detector that computes them says how (``drops.py``, ``files.py``).  Each
stage reads its signals' weights here, so a reviewer's question "why 54?"
has one place to look, and a test holds docs/risk.md to this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from workbench.analysis.model import SignalKind


class Family(str, Enum):
    """What kind of evidence a signal is (the stage or detector that finds it)."""

    CHAIN = "squash chain"
    LOSS = "lost lines"
    FILE = "whole file"
    EDIT = "edit"
    API = "API audit"
    DELETED = "deleted files"
    POLICY = "policy"
    WARNING = "warning"


@dataclass(frozen=True)
class SignalSpec:
    """How much a signal weighs, which family it is in, and what it says, in one line."""

    weight: int
    """What it weighs as a rule (0: information only)."""
    family: Family
    doc: str
    span: tuple[int, int] | None = None
    """The least and most it may weigh, when its evidence decides (None: always ``weight``)."""

    @property
    def shown(self) -> str:
        """The weight as docs/risk.md writes it: ``+50``, ``-50 (-50 to 0)``."""
        if self.span is None:
            return _signed(self.weight)
        return f"{_signed(self.weight)} ({_signed(self.span[0])} to {_signed(self.span[1])})"


def _signed(weight: int) -> str:
    return f"{weight:+d}" if weight else "0"


_K = SignalKind
SIGNALS: Mapping[SignalKind, SignalSpec] = {
    _K.OLDER_DEV_STATE: SignalSpec(50, Family.CHAIN, "main's side is these lines as an older dev commit left them"),
    _K.SQUASH_COUNTERPART: SignalSpec(
        50, Family.CHAIN, "main's text comes from a squash of a dev PR that dev changed afterwards", (0, 50)
    ),
    _K.MAIN_AHEAD: SignalSpec(-30, Family.CHAIN, "main's side already has dev's change here, and more"),
    _K.DEV_ONLY_LINES_DROPPED: SignalSpec(
        40, Family.LOSS, "lines dev wrote since the base that the result lost near the hunk", (5, 94)
    ),
    _K.MAIN_REMOVED_INTENTIONALLY: SignalSpec(
        -50, Family.LOSS, "a main commit deleted the base lines dev had edited", (-50, 0)
    ),
    _K.MAIN_ONLY_LINES_DROPPED: SignalSpec(
        40, Family.LOSS, "lines main wrote since the base that the result lost near the hunk", (5, 64)
    ),
    _K.DEV_REMOVED_INTENTIONALLY: SignalSpec(
        -50, Family.LOSS, "a dev commit deleted the base lines main had edited", (-50, 0)
    ),
    _K.LAYOUT_ONLY: SignalSpec(0, Family.LOSS, "lost lines the result holds laid out anew (the same tokens, or an import it still makes)"),
    _K.MOVED_IN_RESULT: SignalSpec(0, Family.LOSS, "lost lines the result holds elsewhere, as often as the side's file does"),
    _K.REMOVED_ON_PURPOSE: SignalSpec(
        0, Family.LOSS, "lost lines the other side once had and one of its own commits (not the sync's) removed"
    ),
    _K.LOST_WITH_ITS_CHANGE: SignalSpec(
        20, Family.LOSS, "a medium hunk losing lines of the same change as the high hunks of its item", (1, 20)
    ),
    _K.POLICY_KEEPS_DEV: SignalSpec(0, Family.LOSS, "the policy keeps dev's version of the file: main's lines stay to decide"),
    _K.RESULT_HAS_DEV: SignalSpec(-100, Family.LOSS, "the result already holds dev's text here and loses nothing of main's"),
    _K.STILL_CONFLICTED: SignalSpec(0, Family.LOSS, "the hunk still has conflict markers: nobody has chosen a side yet"),
    _K.MAIN_DELETED_FILE: SignalSpec(45, Family.FILE, "main deleted a file dev changed", (0, 45)),
    _K.DEV_DELETED_FILE: SignalSpec(-5, Family.FILE, "dev deleted a file main changed", (-5, 15)),
    _K.BINARY_CHANGED_BOTH: SignalSpec(15, Family.FILE, "both sides changed a binary file", (0, 15)),
    _K.TYPE_CONFLICT: SignalSpec(
        15, Family.FILE, "the sides hold different types at the path (a file, a symlink, a submodule, a directory)", (0, 15)
    ),
    _K.RESOLUTION_DROPPED_DEV: SignalSpec(
        50, Family.EDIT, "lines dev wrote that git merged cleanly and the resolution removed", (5, 70)
    ),
    _K.RESOLUTION_DROPPED_MAIN: SignalSpec(
        50, Family.EDIT, "lines main wrote that git merged cleanly and the resolution removed", (5, 70)
    ),
    _K.API_MISMATCH: SignalSpec(50, Family.API, "a call, import or name here that the merged tree cannot satisfy"),
    _K.API_MISMATCH_CALLEE: SignalSpec(45, Family.API, "this hunk dropped a definition a caller still uses"),
    _K.DELETED_IMPORTED: SignalSpec(40, Family.DELETED, "the result lacks this file and still imports it"),
    _K.DUPLICATE_DEFINITION: SignalSpec(
        60, Family.API, "the result defines a name twice in one scope where dev and main each defined it once"
    ),
    _K.POLICY_KEEP_DEV: SignalSpec(60, Family.POLICY, "a keep-dev file does not hold dev's version"),
    _K.POLICY_COUPLED: SignalSpec(30, Family.POLICY, "files that must come from the same side do not"),
    _K.POLICY_UV_SOURCE: SignalSpec(25, Family.POLICY, "a git source main added to `[tool.uv.sources]` is missing"),
    _K.POLICY_UV_REVISION: SignalSpec(0, Family.POLICY, "a git source both sides have, at different revisions"),
    _K.POLICY_OVERRIDE: SignalSpec(-10, Family.POLICY, "main's text is intended here: the file is on the override list"),
    _K.POLICY_OVERRIDE_DIVERGED: SignalSpec(5, Family.POLICY, "a file taken from main by policy is not main's version"),
    _K.POLICY_NOTE: SignalSpec(0, Family.POLICY, "what the policy says about the file"),
    _K.MODEL_MISMATCH: SignalSpec(0, Family.WARNING, "the hunks do not re-create the conflicted text git wrote"),
    _K.MODE_CONFLICT: SignalSpec(0, Family.WARNING, "dev and main give the file different modes, neither the base's"),
    _K.NO_HISTORY: SignalSpec(0, Family.WARNING, "git mergetool passed three versions and no history could be read"),
}
"""Every signal kind, in the order docs/risk.md lists them."""


def kind_weight(kind: SignalKind) -> int:
    """What ``kind`` weighs as a rule."""
    return SIGNALS[kind].weight


EXPLAINING = frozenset({SignalKind.LAYOUT_ONLY, SignalKind.MOVED_IN_RESULT, SignalKind.REMOVED_ON_PURPOSE})
"""The signals that narrow a hunk's lost lines (``explained.py``): a hunk they leave losing nothing is low."""
BREAKING = frozenset({Family.API, Family.DELETED, Family.POLICY})
"""Families whose raising signals keep a hunk's level whatever its lost lines: what breaks the build or a rule."""


def breaks(signal_kind: SignalKind, weight: int) -> bool:
    """Whether a signal says the hunk breaks the build or a policy rule (a raising API, deleted-file or policy signal)."""
    return weight > 0 and SIGNALS[signal_kind].family in BREAKING
