"""The gate names, for an API failure, the file that holds the callee (``callee_path``): a caller's failure is
often fixed there (the merge kept one side's signature), and an agent's editor must know where to look."""

from __future__ import annotations

from helpers.agent import workbench

from workbench.sample import SampleSync


def test_an_api_failure_names_its_callees_file(sample_merge_commit: SampleSync) -> None:
    verdict = workbench("gate", "--json", "--repo", str(sample_merge_commit.path)).json()
    api = [f for f in verdict["blocking"] if f["rule"] == "api-audit"]
    assert api, verdict["blocking"]
    named = {f["callee_path"] for f in api} - {None}
    assert "megatron/core/transformer/enums.py" in named  # where the merge kept a side's enum the caller misses
    assert "callee_path" in verdict["untrusted_fields"]
    assert all(f["callee_path"] is None for f in verdict["blocking"] if f["rule"] != "api-audit")
