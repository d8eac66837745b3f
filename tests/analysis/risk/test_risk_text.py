"""The text and commit-matching helpers the signals rest on."""

from __future__ import annotations

import pytest

from workbench.analysis.model import Commit, Level, Signal, Taken
from workbench.analysis.risk.combine import HIGH, MEDIUM, file_risk, hunk_risk, level_of
from workbench.analysis.risk.evidence import labels
from workbench.analysis.risk.line_compare import contains_block, is_data, shorten
from workbench.analysis.risk.twins import counterpart, title_key

DATA = b"def f(x):\n\n        return   x + 1\n    pass\nz = f(2)\n"


@pytest.mark.parametrize(
    ("lines", "found"),
    [
        ([b"def f(x):\n", b"return x + 1\n"], True),  # blank line and indentation ignored
        ([b"  return x   + 1", b"pass"], True),
        ([b"def f(x):", b"pass"], False),  # not consecutive
        ([b"pass", b"z = f(2)", b"more"], False),  # runs off the end
        ([b"return x"], False),  # a prefix of a line is not the line
        ([b"\n", b"   \n"], False),  # nothing to look for
    ],
)
def test_contains_block(lines: list[bytes], found: bool) -> None:
    assert contains_block(DATA, lines) is found


@pytest.mark.parametrize(
    ("line", "data"),
    [
        (b'    "12": 10.91651,', True),
        (b'sdist = { url = "https://x/y.tar.gz", hash = "sha256:ab", size = 123 }', True),
        (b"[[package]]", True),
        (b"        default=-1,", True),
        (b"        cu_seqlens=cu_seqlens_q,", False),
        (b"from pkg import beta", False),
        (b"    return x == 3", False),
    ],
)
def test_is_data(line: bytes, data: bool) -> None:
    assert is_data(line) is data


def test_shorten_cuts_and_normalises() -> None:
    assert shorten(b"  a   b  ") == "a b"
    assert shorten("x" * 80, 10) == "x" * 9 + "\u2026"


def _commit(sha: str, subject: str, message: str = "") -> Commit:
    pr = int(subject.rsplit("#", 1)[1].rstrip(")")) if "(#" in subject else None
    return Commit(sha * 40, subject, "a", "2026-01-01", pr, message or subject)


def test_title_key_drops_tags_and_pr_numbers() -> None:
    assert title_key("[Main] Feat(moe): Gated delta net CP (#2642)") == title_key(
        "[Dev] Feat(moe): Gated delta net CP (#2614)"
    )
    assert title_key("[Was PR1912][Dev] feat: X (#1969)") == "feat x"


def test_counterpart_by_title_or_cross_reference() -> None:
    dev = [_commit("a", "[dev] Support packed sequences in GDN (#101)"), _commit("b", "[dev] Fix typo (#102)")]
    assert counterpart(_commit("c", "Support packed sequences in GDN (#201)"), dev) is dev[0]
    assert counterpart(_commit("c", "Pack it (#201)", "Pack it\n\ndev PR: #102"), dev) is dev[1]
    dev_ref = [_commit("d", "[dev] Port it (#103)", "[dev] Port it\n\nmain PR: #201")]
    assert counterpart(_commit("c", "Something else (#201)"), dev_ref) is dev_ref[0]
    assert counterpart(_commit("c", "Fix typo (#201)"), dev) is None  # too short a title to pair on


def test_labels_name_commits_by_pr_then_sha() -> None:
    commits = [_commit("a", "x (#1)"), _commit("b", "y"), _commit("c", "z (#3)")]
    assert labels(commits) == "#1, bbbbbbbbbb and #3"
    assert labels(commits[:1]) == "#1"


def test_combiner_adds_weights_to_a_baseline_and_spreads_strong_evidence_below_100() -> None:
    assert hunk_risk(Taken.MAIN, []) == 15
    assert hunk_risk(Taken.MAIN, [Signal("a", "", (), 35)]) == HIGH
    assert hunk_risk(Taken.MAIN, [Signal("a", "", (), 50), Signal("b", "", (), 50)]) == 75
    strengths = [hunk_risk(Taken.MAIN, [Signal("a", "", (), w)]) for w in (40, 60, 85, 120, 200, 400)]
    assert strengths == sorted(set(strengths)) and strengths[-1] < 100  # more evidence ranks higher, no tie at 100
    assert hunk_risk(Taken.DEV, [Signal("a", "", (), -30)]) == 0
    assert level_of(HIGH) is Level.HIGH and level_of(HIGH - 1) is Level.MEDIUM
    assert level_of(MEDIUM) is Level.MEDIUM and level_of(MEDIUM - 1) is Level.LOW
    assert file_risk([10, 40], []) == 40
    assert file_risk([10, 40], [Signal("policy-keep-dev", "", (), 50)]) == 60
    assert file_risk([], []) == 0
