"""``mark_of``: who decided and whether the agent's claim holds, the one rule the app and the report share."""

from __future__ import annotations

import pytest

from workbench.resolve.acks import Ack
from workbench.resolve.claims import ClaimCheck, ClaimStatus
from workbench.resolve.events import FileChoice
from workbench.resolve.marks import Mark, count_marks, mark_of
from workbench.resolve.splice import Choice


def _ack(by: str = "agent", claim: str = "superseded", decision: Choice = Choice.DEV) -> Ack:
    return Ack("a.py", "f" * 20, decision, "why", "bot <bot@example.com>", by=by, claim=claim)


VERIFIED = ClaimCheck(ClaimStatus.VERIFIED, "the kept side holds it")
CONTRADICTED = ClaimCheck(ClaimStatus.CONTRADICTED, "dev's lines are still lost")
JUDGEMENT = ClaimCheck(ClaimStatus.NEEDS_HUMAN, "a judgement is not checked")


@pytest.mark.parametrize(("ack", "check", "journal", "fixed", "mark"), [
    (_ack(), VERIFIED, None, False, Mark.AGENT_VERIFIED),
    (_ack(), VERIFIED, Choice.DEV, False, Mark.AGENT_VERIFIED),  # the agent's decide journals its own take
    (_ack(claim="judgement"), JUDGEMENT, None, False, Mark.AGENT_UNVERIFIED),
    (_ack(), CONTRADICTED, None, False, Mark.AGENT_CONTRADICTED),
    (_ack(claim=""), None, None, False, Mark.AGENT_CONTRADICTED),  # an agent's decision must carry a claim
    (_ack(), VERIFIED, Choice.MAIN, False, Mark.HUMAN),  # a person decided otherwise in the app: an override
    (_ack(decision=Choice.DEV), VERIFIED, FileChoice.KEEP_DEV, False, Mark.AGENT_VERIFIED),  # file-dev, recorded as dev
    (_ack(decision=Choice.DEV), VERIFIED, FileChoice.TAKE_MAIN, False, Mark.HUMAN),
    (_ack(by="human"), VERIFIED, None, False, Mark.HUMAN),  # a person confirmed it (K): theirs now
    (_ack(by=""), None, None, False, Mark.HUMAN),  # written before ``by`` existed: a person's
    (None, None, Choice.BOTH, False, Mark.HUMAN),
    (None, None, None, True, Mark.FIX_COMMIT),
    (None, None, Choice.DEV, True, Mark.HUMAN),
    (None, None, None, False, None),
])
def test_the_mark_of_a_decision(ack: Ack | None, check: ClaimCheck | None, journal: Choice | FileChoice | None,
                                fixed: bool, mark: Mark | None) -> None:
    assert mark_of(ack, check, journal, fixed) is mark


def test_marks_are_counted_in_one_order() -> None:
    found = [Mark.HUMAN, Mark.AGENT_UNVERIFIED, Mark.AGENT_VERIFIED, Mark.HUMAN]
    assert list(count_marks(found).items()) == [(Mark.AGENT_VERIFIED, 1), (Mark.AGENT_UNVERIFIED, 1), (Mark.HUMAN, 2)]
