"""The app marks the agent's decisions and opens on its claim and the check; ``K`` confirms one as a person's.

The scripted agent decides the sample's merge in progress (a verified claim here, a judgement there); the
Why pane of a hunk it decided then starts with the mark, the take and claim, and what checking the claim
found, as the report counts it.  ``K`` with a reason makes the decision the person's, the claim kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from helpers.agent import Agent
from textual.pilot import Pilot
from tui.pilot_tools import main_screen, ready, settle

from workbench.resolve.acks import worktree_acks
from workbench.resolve.marks import Mark
from workbench.sample import SampleSync
from workbench.services.agent.provenance import Marked, decision_marks
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.prompt import PromptScreen
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]


def _decided(sample: SampleSync) -> dict[tuple[str, int | None], Marked]:
    Agent(sample.path, batch=True).finish(commit=False)
    repo, analysis = open_sync(SyncRequest(repo=sample.path))
    return decision_marks(repo, Workspace.load(repo, analysis))


def _first(marks: dict[tuple[str, int | None], Marked], mark: Mark) -> tuple[str, int]:
    return next((path, index) for (path, index), m in sorted(marks.items(), key=str)
                if m.mark is mark and index == 0)


def _why(app: WorkbenchApp, sample: SampleSync, path: str, check: Callable[[Pilot[int], str], object]) -> None:
    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await ready(pilot)
            screen = main_screen(pilot)
            assert screen.path == path and screen.current == 0, (screen.path, screen.current)
            await settle(pilot)
            await check(pilot, screen.query_one(WhyPanel).text.plain)  # type: ignore[misc]

    asyncio.run(main())


def test_the_why_pane_opens_on_the_agents_verified_claim(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    marks = _decided(sample_in_progress)
    path, index = _first(marks, Mark.AGENT_VERIFIED)
    ack, claim = marks[(path, index)].ack, marks[(path, index)].check
    assert ack is not None and claim is not None

    async def check(_pilot: Pilot[int], text: str) -> None:
        lines = text.splitlines()
        assert lines[1] == "Agent, verified: the agent decided; its claim checks out", lines[:3]
        assert f"claim {ack.claim}" in lines[2]
        assert f"check: {claim.reason}" in text
        assert "K confirms it as yours" in text

    _why(make_app(sample_in_progress, start_file=path), sample_in_progress, path, check)


def test_k_confirms_the_agents_judgement_as_the_persons(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    marks = _decided(sample_in_progress)
    path, index = _first(marks, Mark.AGENT_UNVERIFIED)
    earlier = marks[(path, index)].ack
    assert earlier is not None and earlier.claim == "judgement"
    app = make_app(sample_in_progress, start_file=path)

    async def check(pilot: Pilot[int], text: str) -> None:
        assert "Agent, unverified: the agent decided on its judgement" in text
        await pilot.press("K")
        await settle(pilot)
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"read it, right", "enter")
        await settle(pilot)
        confirmed = [a for a in worktree_acks(sample_in_progress.path) if a.path == path and a.hunk == earlier.hunk]
        assert [(a.by, a.claim, a.take, a.reason) for a in confirmed] == [
            ("human", earlier.claim, earlier.take, "read it, right")]
        why = main_screen(pilot).query_one(WhyPanel).text.plain
        assert "Human: a person decided" in why and "Agent, unverified" not in why

    _why(app, sample_in_progress, path, check)
