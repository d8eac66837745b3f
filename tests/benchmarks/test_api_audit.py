"""Pytest's view of ``api_audit.py``: skipped without MEGATRON_GIT; with it, the recorded incidents are found.

The figures (time, noise) are for people: run the script.
"""

from __future__ import annotations

import os

import pytest
from api_audit import ENV, INCIDENTS, replay

pytestmark = pytest.mark.skipif(not os.environ.get(ENV), reason=f"{ENV} is not set (a Megatron-LM clone)")


def test_the_incidents_maintainers_recorded_for_4291_are_found() -> None:
    analysis = replay(os.environ[ENV])
    missed = [incident.label for incident in INCIDENTS if not incident.found(analysis)]
    assert missed == []
    assert analysis.policy is not None and analysis.deleted_files
