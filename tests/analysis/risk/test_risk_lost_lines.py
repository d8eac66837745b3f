"""``lost_lines``: each hunk points at the lines of each side the result lost, not at the whole hunk."""

from __future__ import annotations

from helpers.signals import only_file
from helpers.syncs import analyze_preview, analyze_repo

from workbench.analysis.model import Level, LineRange, Taken
from workbench.analysis.serialize import hunk_to_json
from workbench.report.document import build_report
from workbench.report.markdown import render_markdown
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


CALL = "def build(grads):\n    return Buffer(\n        grads,\n{args}    )\n"


def _kwarg(b: RepoBuilder) -> None:
    """Dev adds a keyword argument on its own line beside the argument main edits."""
    b.write(PATH, HEAD + BODY + CALL.format(args="        bucket_size=None,\n"))
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(PATH, HEAD + BODY + CALL.format(args="        bucket_size=None,\n        overlap_grad_reduce=True,\n"))
    b.commit("[dev] Overlap the gradient reduction (#17)")
    b.checkout("main")
    b.write(PATH, HEAD + BODY + CALL.format(args="        bucket_size=40000000,\n"))
    b.commit("Bucket gradients by default (#37)")


def test_a_lost_keyword_argument_is_code_not_a_value(builder: RepoBuilder) -> None:
    _kwarg(builder)
    (hunk,) = only_file(analyze_preview(builder.path), PATH).hunks
    (dropped,) = [s for s in hunk.signals if s.kind == "dev-only-lines-dropped"]
    assert "values or comments" not in dropped.message
    assert dropped.message.startswith("1 line dev wrote here (from dev's #17), beside main's change, is not in the result")
    assert "overlap_grad_reduce=True," in dropped.message
    assert hunk.level is Level.HIGH
    lost = hunk.lost_lines.dev
    assert [builder.read(PATH, "dev").decode().splitlines()[r.start - 1].strip() for r in lost] == [
        "overlap_grad_reduce=True,"
    ]


def test_a_hand_written_manifest_s_pin_is_not_a_regenerated_value(builder: RepoBuilder) -> None:
    """In pyproject.toml a pinned version is somebody's decision; in a lock file it is the tool's output."""
    manifest = '[project]\nname = "pkg"\ndependencies = [\n    "torch>={}",\n]\n'
    lock = 'version = 1\n\n[[package]]\nname = "torch"\nversion = "{}"\n'
    builder.write("pyproject.toml", manifest.format("2.1")).write("uv.lock", lock.format("2.1.0"))
    builder.commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write("pyproject.toml", manifest.format("2.4")).write("uv.lock", lock.format("2.4.0"))
    builder.commit("[dev] Build against torch 2.4 (#18)")
    builder.checkout("main")
    builder.write("pyproject.toml", manifest.format("2.3")).write("uv.lock", lock.format("2.3.0"))
    builder.commit("Bump torch to 2.3 (#38)")
    analysis = analyze_preview(builder.path)
    (pin,) = only_file(analysis, "pyproject.toml").hunks
    (locked,) = only_file(analysis, "uv.lock").hunks
    assert pin.level is Level.HIGH
    assert locked.level is Level.LOW
    assert "of values or comments" in locked.signals[-1].message


def test_the_report_quotes_the_lost_lines(builder: RepoBuilder) -> None:
    _build(builder)
    builder.checkout("dev")
    assert builder.merge("main", "ours") == 0
    merged = analyze_repo(builder.path, "HEAD")
    builder.checkout("dev~1")  # a second resolution, this time taking main's side
    assert builder.merge("main", "theirs") == 0
    taken_main = analyze_repo(builder.path, "HEAD")
    dev_lost = render_markdown(build_report(taken_main, None))
    assert "- lost from dev, line 3:\n\n```\nfrom pkg.beta import beta_helper\n```" in dev_lost
    main_lost = render_markdown(build_report(merged, None))
    assert "- lost from main, line 2:\n\n```\nfrom pkg.alpha import alpha, gamma\n```" in main_lost
