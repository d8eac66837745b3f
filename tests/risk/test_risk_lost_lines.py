"""``lost_lines``: each hunk points at the lines of each side the result lost, not at the whole hunk."""

from __future__ import annotations

from risk_tools import analyze_preview, analyze_repo, only_file

from workbench.analysis.model import LineRange, Taken
from workbench.analysis.serialize import hunk_to_json
from workbench.sample import RepoBuilder

PATH = "pkg/loader.py"
HEAD = "import os\nfrom pkg.alpha import alpha\n"
BODY = "".join(f"\n\ndef filler_{i}():\n    return os.sep * {i}\n" for i in range(4))


def _build(b: RepoBuilder) -> None:
    """Dev adds an import beside the line main edits, and a long block everyone keeps."""
    b.write(PATH, HEAD + BODY + "\n\ndef run():\n    return alpha()\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(PATH, HEAD + "from pkg.beta import beta_helper\n" + BODY + "\n\ndef run():\n    return beta_helper(alpha())\n")
    b.commit("[dev] Run through beta (#14)")
    b.checkout("main")
    b.write(PATH, HEAD.replace("import alpha", "import alpha, gamma") + BODY + "\n\ndef run():\n    return alpha()\n")
    b.commit("Import gamma as well (#34)")


def test_the_dev_line_main_s_side_drops_is_pointed_at(builder: RepoBuilder) -> None:
    _build(builder)
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    assert hunk.taken is Taken.MAIN
    assert hunk.dev == LineRange(2, 3)
    assert hunk.lost_lines.dev == (LineRange(3, 3),)
    assert hunk.lost_lines.main == ()
    assert hunk_to_json(hunk)["lost_lines"] == {"dev": [[3, 3]], "main": []}


def test_main_s_line_a_dev_resolution_drops_is_pointed_at(builder: RepoBuilder) -> None:
    _build(builder)
    builder.checkout("dev")
    assert builder.merge("main", "ours") == 0
    (hunk,) = only_file(analyze_repo(builder.path, "HEAD"), PATH).hunks
    assert hunk.taken is Taken.DEV
    assert hunk.lost_lines.dev == ()
    assert hunk.lost_lines.main == (LineRange(2, 2),)


def test_a_still_conflicted_hunk_points_at_what_main_s_side_would_lose(builder: RepoBuilder) -> None:
    _build(builder)
    builder.checkout("dev")
    assert builder.merge("main") == 1
    (hunk,) = only_file(analyze_repo(builder.path), PATH).hunks
    assert hunk.taken is Taken.UNRESOLVED
    assert hunk.lost_lines.dev == (LineRange(3, 3),)
    assert hunk.lost_lines.main == ()
