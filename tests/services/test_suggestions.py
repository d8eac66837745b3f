"""Suggested resolutions as decisions (``services/suggestions.py``), without the app, on the demo sample."""

from __future__ import annotations

from workbench.analysis.model import Candidate, FileRung, Rung, SideShare, Take
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision, chosen_text
from workbench.resolve.suggested import candidate_decision
from workbench.sample import SampleSync
from workbench.services.suggestions import Accepting, accept, accepted, decided_candidate, rungs_here
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace

NONE = SideShare((), ())


def _open(sample: SampleSync) -> Workspace:
    return Workspace.open(SyncRequest(repo=sample.path))


def test_each_candidate_becomes_the_decision_that_writes_its_exact_text(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    seen: set[Choice] = set()
    for entry in ws.files:
        for hunk in entry.hunks:
            for candidate in hunk.candidates:
                decision = candidate_decision(hunk, candidate)
                seen.add(decision.choice)
                assert chosen_text(hunk.dev_text, hunk.main_text, decision, False) == candidate.text
                if candidate.take is Take.MAIN:
                    assert decision == Decision(Choice.MAIN)
                if candidate.take is Take.DEV:
                    assert decision == Decision(Choice.DEV)
                if decision.choice is Choice.CUSTOM:
                    assert candidate.take.computed and decision.text == candidate.text, "a splice is its exact bytes"
                assert decided_candidate(hunk, decision) == candidate
    assert {Choice.MAIN, Choice.DEV, Choice.CUSTOM} <= seen, "the sample has sides and computed splices"


def test_a_computed_candidate_equal_to_a_side_is_recorded_as_that_side(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    hunk = next(h for f in ws.files for h in f.hunks if h.candidates)
    same_as_dev = Candidate(Take.SPLICE, tuple(hunk.dev_text), NONE, NONE)
    assert candidate_decision(hunk, same_as_dev) == Decision(Choice.DEV)
    concatenated = Candidate(Take.BOTH_FORMATTED, (*hunk.main_text, *hunk.dev_text), NONE, NONE)
    if hunk.main_text and hunk.main_text[-1].endswith(b"\n"):
        assert candidate_decision(hunk, concatenated) == Decision(Choice.BOTH_MAIN_FIRST)


def test_bulk_accept_is_one_event_one_undo_and_counts_by_rung(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    rungs = rungs_here(ws, None)
    assert rungs == {Rung.SQUASH_CHAIN.value: 2, Rung.MAIN_REMOVED.value: 1, Rung.MAIN_AHEAD.value: 1,
                     FileRung.LOCK_FILE.value: 1}
    squash = accepted(ws, Accepting(None, Rung.SQUASH_CHAIN.value))
    assert len(squash.hunks) == 2 and not squash.files
    everything = accepted(ws, Accepting())
    assert len(everything.hunks) == 4 and everything.files == (("uv.lock", FileChoice.KEEP_DEV),)
    accept(ws, everything, "accept every suggestion")
    for path, index, decision in everything.hunks:
        assert ws.session.decision(path, index) == decision
        hunk = ws.hunk(path, index)
        assert hunk.suggestion is not None
        assert decision == candidate_decision(hunk, hunk.suggestion.candidate)
    assert ws.session.file_choice("uv.lock") is FileChoice.KEEP_DEV
    assert accepted(ws, Accepting()).hunks == (), "decided hunks are not offered again"
    ws.undo()
    assert all(ws.session.decision(p, i) is None for p, i, _d in everything.hunks)
    assert ws.session.file_choice("uv.lock") is None, "one undo takes it all back"


def test_accepting_a_splice_previews_exactly_its_text_in_the_file(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    entry, hunk, candidate = next((f, h, c) for f in ws.files for h in f.hunks for c in h.candidates
                                  if c.take.computed and len(f.hunks) == 1)
    ws.decide(entry.path, hunk.index, candidate_decision(hunk, candidate))
    preview = ws.session.preview(entry.path)
    assert preview is not None and candidate.text in preview and b"<<<<<<<" not in preview
