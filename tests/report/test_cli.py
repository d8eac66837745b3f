"""``workbench report`` end to end: every format runs, and every exit code is the contract's."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers.reports import git, report_for

from workbench.analysis.model import Level, LineRange, LostLines, Taken
from workbench.cli import main
from workbench.report.document import RecordedDecision, is_open
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.sample.api import CALLER
from workbench.sample.dropped_lines import SPECS


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["report", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["md", "json", "text", "github"])
def test_every_format_exits_0_without_a_gate(
    bot_merge: SampleSync, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    code, out, err = _run(capsys, "--repo", str(bot_merge.path), "--format", fmt)
    assert (code, err) == (0, "")
    assert "files conflicting" in out or json.loads(out)["summary"]["files"] > 0


def test_fail_on_exits_1_while_main_text_is_undecided(
    bot_merge: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, str(bot_merge.merge), "--repo", str(bot_merge.path), "--fail-on", "low",
                          "--format", "json")
    gate = json.loads(out)["gate"]
    assert (code, err) == (1, "")
    assert gate["failed"] and {o["taken"] for o in gate["open"]} == {"main"}


def test_fail_on_fails_when_the_result_holds_dev_and_drops_mains_lines(
    dev_merge: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both directions: a result holding dev's side everywhere is not addressed where it loses main's lines
    (this gate used to pass it: the one-directional rule the bot learnt to satisfy by dropping main's work)."""
    code, out, _ = _run(capsys, "--repo", str(dev_merge.path), "--fail-on", "low", "--format", "json")
    doc = json.loads(out)
    assert doc["summary"]["hunks"] > 0 and doc["summary"]["theirs_hunks"] == 0
    assert code == 1 and doc["gate"]["open"] and all(o["taken"] == "dev" for o in doc["gate"]["open"])
    failing = [i for i in doc["worklist"] if i["id"] in doc["gate"]["items"]]
    assert any(i["lost_lines"]["main"] > 0 and i["kind"] != "api-break" for i in failing)


def test_fail_on_in_a_merge_in_progress_and_a_preview(
    in_progress: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    status = git(in_progress, "status", "--porcelain=v1", "-z")
    code, out, _ = _run(capsys, "--repo", str(in_progress.path), "--fail-on", "low", "--format", "md")
    assert code == 1 and "Sync report for the merge in progress" in out
    code, out, _ = _run(capsys, "--repo", str(in_progress.path), "--dev", in_progress.dev, "--main",
                        in_progress.main, "--fail-on", "low", "--format", "github")
    assert code == 1 and "--fail-on low: failed" in out
    assert git(in_progress, "status", "--porcelain=v1", "-z") == status


@pytest.mark.parametrize(
    "args",
    [
        ["--fail-on", "severe"],
        ["--format", "yaml"],
        ["no-such-rev"],
        ["--dev", "HEAD"],
        ["--repo", "/nonexistent/repository"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    bot_merge: SampleSync, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    repo = [] if "--repo" in args else ["--repo", str(bot_merge.path)]
    code: str | int | None
    try:
        code = main(["report", *repo, *args])
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_decisions_in_the_app_close_hunks(bot_merge: SampleSync) -> None:
    marks = {(SPECS, 0): (Level.HIGH, ("a",)), (CALLER, 1): (Level.MEDIUM, ("b",))}
    before = report_for(bot_merge, marks, (), Level.MEDIUM).gate
    assert before is not None
    waiting = [(o.path, o.index) for o in before.open]
    assert {(SPECS, 0), (CALLER, 1)} <= set(waiting)  # with the other waiting hunks of their items
    decided = [RecordedDecision(SPECS, 0, Choice.MAIN), RecordedDecision(CALLER, None, FileChoice.KEEP_DEV)]
    gate = report_for(bot_merge, marks, decided, Level.MEDIUM).gate
    assert gate is not None and not gate.failed
    high = report_for(bot_merge, marks, (), Level.HIGH).gate
    assert high is not None and high.open[0].path == SPECS


@pytest.mark.parametrize(
    ("taken", "lost", "decided", "expected"),
    [
        (Taken.MAIN, "dev", False, True),
        (Taken.UNRESOLVED, "", False, True),
        (Taken.DEV, "main", False, True),  # keeps dev, drops main's lines: open like the mirror case
        (Taken.BOTH, "main", False, True),
        (Taken.MAIN, "", False, False),  # main's side, nothing of dev's lost
        (Taken.DEV, "", False, False),
        (Taken.BOTH, "", False, False),
        (Taken.OTHER, "", False, False),
        (Taken.MAIN, "dev", True, False),
        (Taken.UNRESOLVED, "", True, False),
    ],
)
def test_the_open_rule(bot_merge: SampleSync, taken: Taken, lost: str, decided: bool, expected: bool) -> None:
    hunk = next(r.hunk for r in report_for(bot_merge, {(SPECS, 0): (Level.HIGH, ("a",))}).risky)
    some = (LineRange(1, 1),)
    lines = LostLines(dev=some if lost == "dev" else (), main=some if lost == "main" else ())
    assert is_open(replace(hunk, taken=taken, lost_lines=lines), decided) is expected


def test_an_internal_error_is_one_line_and_exit_3(
    bot_merge: SampleSync, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("workbench.report.make.render_markdown", broken)
    code, out, err = _run(capsys, "--repo", str(bot_merge.path))
    assert (code, out) == (3, "")
    assert err == "workbench: internal error: RuntimeError: boom (run with --debug for details)\n"
