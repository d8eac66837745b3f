"""An 80x24 terminal with long names: list rows keep the end of the name with the risk, status and counts, the
counters break between their pieces, hunk headers give way before they are cut, the path bar keeps the name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.pilot import Pilot
from tui.pilot_tools import drive, main_screen, screen_text, settle

from workbench.analysis.model import Level
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.palette import build_palette
from workbench.tui.widgets.file_list import FileList, by_pieces
from workbench.tui.widgets.file_rows import shorten_path
from workbench.tui.widgets.hunk_paint import HunkTitle, column_titles, header_line
from workbench.tui.widgets.hunk_view import HunkView

MakeApp = Callable[..., WorkbenchApp]
LONG = "package/subsystem/distributed/optimizer_state/test_emerging_optimizer_checkpoints.py"
OTHER = "package/subsystem/models/gated_delta_net_layers.py"


def test_a_name_no_other_file_has_keeps_its_end_behind_a_leading_ellipsis() -> None:
    assert shorten_path(LONG, 18, shared_name=False) == "…er_checkpoints.py", "the end of the name, its extension"
    assert shorten_path(OTHER, 30, shared_name=False) == "…els/gated_delta_net_layers.py", "the name whole"
    assert shorten_path(OTHER, 22, shared_name=False) == "…d_delta_net_layers.py"
    assert shorten_path("megatron/core/transformer/transformer_layer.py", 31, shared_name=False) == \
        "tran…ormer/transformer_layer.py", "with room for a fair part of the directory, as before"


def test_counters_break_between_their_pieces() -> None:
    head = Text("620 undecided · 38 high risk")
    assert by_pieces(head, 26).plain == "620 undecided ·\n38 high risk", "not '38 high' and 'risk'"
    assert by_pieces(Text("126 files · merge in progress"), 26).plain == "126 files ·\nmerge in progress"
    assert by_pieces(head, 40) is head


def _header(width: int, taken: str = "conflict", decision: str = "undecided") -> str:
    title = HunkTitle(number=12, total=17, level=Level.HIGH, risk=83, taken=taken, decision=decision, decided=False)
    return "".join(s.text for s in header_line(11, title, width, build_palette({}, True), True, False))


def test_a_hunk_header_gives_way_before_it_is_cut() -> None:
    assert _header(120).startswith("▌hunk 12/17  H  83 high risk  ·  conflict  ·  undecided")
    assert _header(50).rstrip() == "▌hunk 12/17 H 83 high risk · conflict · undecided"
    assert _header(40).rstrip() == "▌12/17 H 83 · conflict · undecided", "the decision stays whole"
    assert "undecided" in _header(40, taken="took main"), _header(40, taken="took main")


def test_the_inline_legend_drops_its_hint_rather_than_cutting_it() -> None:
    palette = build_palette({}, True)
    sides = {"dev": "dev 7ff046b1c8", "main": "main 28e13c484b"}

    def legend(width: int) -> str:
        return "".join(s.text for s in column_titles(sides, width, palette, 4, False, True)).rstrip()

    assert legend(90).endswith("inline (i: side by side)")
    assert legend(64).endswith("i: side by side")
    assert legend(50).endswith("m = main 28e13c484b"), legend(50)


def long_names_merge(b: RepoBuilder) -> Path:
    """Two conflicted files with long, unique paths."""
    for path in (LONG, OTHER):
        b.write(path, "value = 1\n" * 3)
    b.commit("base")
    b.branch("dev").checkout("dev")
    for path in (LONG, OTHER):
        b.write(path, "value = 1\nvalue = 'dev'\nvalue = 1\n")
    b.commit("dev (#2)")
    b.checkout("main")
    for path in (LONG, OTHER):
        b.write(path, "value = 1\nvalue = 'main'\nvalue = 1\n")
    b.commit("main (#3)")
    b.checkout("dev").merge("main")
    return Path(b.path)


def test_at_80x24_rows_headers_and_the_path_bar_stay_readable(builder: RepoBuilder, make_app: MakeApp) -> None:
    path = long_names_merge(builder)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=path)))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await settle(pilot)
        files = screen.query_one(FileList)
        rows = {files.shown_paths[i]: files.options.row_text(i) for i in range(len(files.shown_paths))}
        long_row = rows[LONG]
        assert long_row[:2] in ("HC", "MC", "LC"), long_row
        assert "…" in long_row and "checkpoints.py" in long_row, f"the name's end stays: {long_row!r}"
        assert long_row.rstrip().endswith("0/1"), long_row
        assert "…elta_net_layers.py" in rows[OTHER], rows[OTHER]
        text = screen_text(pilot.app)
        summary = [line.split("▕")[0].strip() for line in text[1:5]]
        assert not any(line in ("risk", "progress") for line in summary), summary
        header = next(line for line in text if "1/1" in line and "▕" in line and ("conflict" in line))
        assert "undecided" in header, header
        bar = next(line for line in text if "checkpoints.py" in line and "…" in line.split("▕")[-1])
        assert bar.rstrip().endswith("test_emerging_optimizer_checkpoints.py"), bar
        assert screen.query_one(HunkView).size.width >= 48

    drive(app, script, size=(80, 24))
