"""The hunk view points at the lines the result lost: marked ✗, opened on, jumped to with g; the Why panel names them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from tui.pilot_tools import drive, main_screen, settle

from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.glyphs import LOST
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]
PATH = "pkg/loader.py"
HEAD = "import os\nfrom pkg.alpha import alpha\n"
BODY = "".join(f"\n\ndef filler_{i}():\n    return os.sep * {i}\n" for i in range(4))
RUN = "\n\ndef run():\n    value = 1\n    return alpha(value)\n"


def _sync(tmp_path: Path) -> Callable[[], Workspace]:
    """Two hunks where main's side (``-X theirs``) drops a line dev added beside the line main edited."""
    b = RepoBuilder.init(tmp_path / "repo")
    b.write(PATH, HEAD + BODY + RUN).commit("Initial import")
    b.branch("dev").checkout("dev")
    dev_run = RUN.replace("    value = 1\n", "    value = 1\n    beta_helper(value)\n")
    b.write(PATH, HEAD + "from pkg.beta import beta_helper\n" + BODY + dev_run).commit("[dev] Run through beta (#14)")
    b.checkout("main")
    main_head = HEAD.replace("import alpha", "import alpha, gamma")
    b.write(PATH, main_head + BODY + RUN.replace("value = 1", "value = 2")).commit("Import gamma as well (#34)")

    def load() -> Workspace:
        return Workspace.open(SyncRequest(repo=b.path, dev="dev", main="main"))

    return load


def _painted(view: HunkView, line: int) -> str:
    return "".join(s.text for s in view.render_row(line, 150, view.palette, False))


def _dev_line(view: HunkView, line: int) -> int | None:
    """The dev line number shown on screen line ``line`` (None when it shows no dev line)."""
    row = view.row_at(line)
    assert row is not None
    return row.dev.no if row.dev is not None else None


def test_the_lost_lines_are_marked_opened_on_and_jumped_to(tmp_path: Path, make_app: MakeApp) -> None:
    load = _sync(tmp_path)
    lost = [h.lost_lines.dev for h in load().entry(PATH).hunks]
    assert [[(r.start, r.end) for r in ranges] for ranges in lost] == [[(3, 3)], [(24, 24)]], lost
    app = make_app(load)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        first = screen.current
        assert first is not None
        header = view.header_line_of(first)
        assert header is not None
        assert view.cursor > header + 1, "the cursor skips the hunk's kept first row to its lost line"
        assert _dev_line(view, view.cursor) == lost[first][0].start
        assert view.hunk_on_screen(first), "the header stays in view"
        assert LOST in _painted(view, view.cursor), "the lost line carries the mark"
        assert LOST not in _painted(view, header + 1), "a kept line does not"
        why = screen.query_one(WhyPanel)
        words = f"lost from dev: line {lost[first][0].start}"
        assert words in "".join(why.render_line(y).text for y in range(why.size.height))

        await pilot.press("g")
        await settle(pilot)
        other = 1 - first
        assert _dev_line(view, view.cursor) == lost[other][0].start, "g goes to the other hunk's lost line"
        await pilot.press("g")
        await settle(pilot)
        assert _dev_line(view, view.cursor) == lost[0][0].start, "and wraps around to the file's first"

        await pilot.press("n" if first == 0 else "p")
        await settle(pilot)
        assert screen.current == other
        assert _dev_line(view, view.cursor) == lost[other][0].start, "a hunk made current opens on its lost line"

        await pilot.press("i")
        await settle(pilot)
        marked = [i for i in range(view.row_count) if LOST in _painted(view, i)]
        assert [view.line_at(i).side for i in marked] == ["dev", "dev"], "inline, only the d lines are marked"

    drive(app, script)
