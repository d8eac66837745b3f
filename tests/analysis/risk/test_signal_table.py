"""Every signal kind has one weight, family and meaning (``risk/signals.py``), and docs/risk.md's table says the same."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.analysis.model import SignalKind
from workbench.analysis.risk import drops
from workbench.analysis.risk.signals import SIGNALS
from workbench.analysis.stages import score_edits

RISK_MD = Path(__file__).resolve().parents[3] / "docs" / "risk.md"
_ROW = re.compile(r"^\| `([a-z-]+)` \| ([^|]+) \| ([^|]+) \| (.+) \|$")


def _documented() -> dict[str, tuple[str, str, str]]:
    """docs/risk.md's table of every signal: kind -> (family, weight, meaning)."""
    text = RISK_MD.read_text(encoding="utf-8")
    section = text[text.index("## Every signal at a glance"):text.index("## The signals")]
    rows = {}
    for line in section.splitlines():
        found = _ROW.match(line)
        if found:
            kind, family, weight, doc = found.groups()
            assert kind not in rows, f"{kind} is listed twice"
            rows[kind] = (family.strip(), weight.strip(), doc.strip())
    return rows


def test_every_signal_kind_has_a_spec() -> None:
    assert set(SIGNALS) == set(SignalKind)


def test_docs_list_every_signal_with_its_weight_family_and_meaning_and_nothing_else() -> None:
    documented = _documented()
    assert documented == {kind.value: (s.family.value, s.shown, s.doc) for kind, s in SIGNALS.items()}
    assert list(documented) == [kind.value for kind in SIGNALS]  # in the table's order


def test_the_ranges_are_the_detectors_own() -> None:
    """The lost-lines and edit weights are made up in the detectors; the table's ranges must follow them."""
    dev = SIGNALS[SignalKind.DEV_ONLY_LINES_DROPPED]
    assert dev.weight == drops.COLLATERAL_WEIGHT
    assert dev.span == (drops.DATA_WEIGHT, drops.COLLATERAL_WEIGHT + drops.MAX_LINES_BONUS + drops.NAMES_BONUS)
    assert SIGNALS[SignalKind.MAIN_ONLY_LINES_DROPPED].span == (
        drops.DATA_WEIGHT, drops.COLLATERAL_WEIGHT + drops.MAX_LINES_BONUS  # no name checks for main's lines
    )
    for kind in (SignalKind.RESOLUTION_DROPPED_DEV, SignalKind.RESOLUTION_DROPPED_MAIN):
        assert SIGNALS[kind].span == (score_edits.DATA_WEIGHT, score_edits.CODE_WEIGHT + score_edits.MAX_LINES_BONUS)
