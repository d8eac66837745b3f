"""A few screenshots of the main screens, compared as SVG at a fixed size.

Update them only after looking at the report: ``uv run pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from textual.pilot import Pilot
from tui.pilot_tools import ready, settle

from workbench.sample import SampleSync
from workbench.tui.app import WorkbenchApp

MakeApp = Callable[..., WorkbenchApp]
SIZE = (140, 40)
LAYER = "megatron/core/transformer/transformer_layer.py"
Before = Callable[[Pilot[int]], Awaitable[None]]


class SnapCompare(Protocol):
    """pytest-textual-snapshot's ``snap_compare`` fixture, as these tests call it."""

    def __call__(self, app: WorkbenchApp, *, terminal_size: tuple[int, int], run_before: Before) -> bool: ...


def _after(*keys: str) -> Before:
    async def run_before(pilot: Pilot[int]) -> None:
        await ready(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settle(pilot)

    return run_before


def test_hunk_view(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=SIZE, run_before=_after())


def test_base_column_and_a_decision(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("b", "a"))


def test_result_against_both_sides(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("p", "p", "d", "v"))


def test_whole_file_choice_in_the_light_theme(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file="docs/source/images/moe/token_dispatch.png", theme="workbench-light")
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("m"))


def test_zoomed_hunk_view(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("f"))


def test_inline_view_at_80_columns(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_after("f"))


def test_wrapped_lines(snap_compare: SnapCompare, sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_after("f", "l"))
