"""``--format github``: workflow commands, parsed back the way the Actions runner does."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from helpers.reports import merged, report_for
from helpers.syncs import open_analysis

from workbench.analysis.model import Level
from workbench.analysis.worklist.build import FILE_POLICY_KINDS
from workbench.report.document import RecordedDecision, build_report
from workbench.report.github import render_github
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.sample.api import CALLER
from workbench.sample.builder import RepoBuilder
from workbench.sample.dropped_lines import SPECS
from workbench.sample.structure import RMS_NORM, SHIM

_COMMAND = re.compile(r"^::(error|warning|notice)(?: (.*?))?::(.*)$")


@dataclass(frozen=True)
class Annotation:
    kind: str
    props: dict[str, str]
    message: str


def _unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _unescape_property(text: str) -> str:
    return _unescape_data(text.replace("%3A", ":").replace("%2C", ","))


def parse(output: str) -> tuple[list[Annotation], list[str]]:
    """(annotations, other lines), following GitHub's workflow-command format."""
    found, other = [], []
    for line in output.splitlines():
        match = _COMMAND.match(line)
        if match is None:
            assert not line.startswith("::"), line
            other.append(line)
            continue
        props = {}
        for prop in filter(None, (match[2] or "").split(",")):
            key, _, value = prop.partition("=")
            props[key] = _unescape_property(value)
        found.append(Annotation(match[1], props, _unescape_data(match[3])))
    return found, other


def test_one_annotation_per_item(bot_merge: SampleSync) -> None:
    """Each worklist item once, at its first place: the gate's items are errors, decided ones notices."""
    marks = {
        (SPECS, 0): (Level.HIGH, ("dev's qk_l2_norm line is gone",)),
        (CALLER, 1): (Level.MEDIUM, ("group_commit was renamed on dev",)),
        (CALLER, 0): (Level.HIGH, ("CudaGraphScope no longer exists on dev",)),
    }
    decisions = [RecordedDecision(CALLER, 0, Choice.DEV, "restored dev's import")]
    report = report_for(bot_merge, marks, decisions, Level.MEDIUM)
    start = {(r.path, r.hunk.index): str(r.hunk.result.start) for r in report.risky if r.hunk.result}
    annotations, other = parse(render_github(report))
    by_place = {(a.props.get("file"), a.props.get("line")): a for a in annotations}
    specs = by_place[(SPECS, start[(SPECS, 0)])]
    assert specs.kind == "error" and specs.props["title"].startswith("high ")
    assert specs.props["endLine"] == next(str(r.hunk.result.end) for r in report.risky if r.path == SPECS and r.hunk.result)
    why, reason = specs.message.splitlines()[:2]
    assert SPECS in why and reason == "dev's qk_l2_norm line is gone"
    assert "the result loses 1 line of dev's" in specs.message and "(#121)" in specs.message
    ids = [a.props["title"].rsplit("(", 1)[-1].rstrip(")") for a in annotations if a.props.get("file")
           and a.props["title"].endswith(")")]
    assert ids == [i.item.id for i in report.items]
    assert by_place[(SHIM, None)].props["title"] == "file restored"
    assert by_place[(RMS_NORM, None)].props["title"] == "file deleted"
    gate = by_place[(None, None)]
    assert gate.kind == "error" and "--fail-on medium: failed, 2 items" in gate.message
    assert len(other) == 1 and other[0].startswith("workbench report: ")


def test_no_error_when_nothing_is_open(bot_merge: SampleSync) -> None:
    annotations, other = parse(render_github(report_for(bot_merge, fail_on=Level.HIGH)))
    assert not [a for a in annotations if a.kind == "error"]
    assert [a.props.get("title") for a in annotations if a.kind == "warning"] == ["file restored", "file deleted"]
    assert other[0].endswith("--fail-on high: passed (no item at or above high waits for a decision while it "
                             "loses lines of dev or main or breaks the build)")


def test_messages_and_properties_survive_github_encoding(tmp_path: Path) -> None:
    path = "odd/a,b:c%d.py"
    reason = "line one\nline two: 100% sure, ::error::not a command\r"
    b = RepoBuilder.init(tmp_path / "repo")
    b.write(path, "x = 1\n")
    b.commit("base")
    b.branch("dev")
    b.write(path, "x = 2\n")
    b.commit("main")
    b.checkout("dev")
    b.write(path, "x = 3\n")
    b.commit("dev")
    b.merge("main", "theirs", check=True)
    sync = merged(b)
    output = render_github(report_for(sync, {(path, 0): (Level.HIGH, (reason,))}))
    annotations, _ = parse(output)
    [hunk] = [a for a in annotations if a.props.get("file") == path]
    assert hunk.props["line"] == "1"
    assert hunk.message.splitlines()[1:4] == ["line one", "line two: 100% sure, ::error::not a command\\x0d",
                                              "the result loses 1 line of dev's; taking dev's side loses 1 line "
                                              "of main's; taking main's loses 1 line of dev's"]
    assert all(line.startswith(("::", "workbench report: ")) for line in output.splitlines())


def test_policy_findings_by_severity_and_api_mismatches_as_items(bot_merge: SampleSync) -> None:
    """Policy findings that decide no file keep their severity; those that name a file to decide, and the API
    audit's failures, are worklist items (one annotation each, at the item's first place)."""
    _repo, analysis = open_analysis(bot_merge.path, policy="megatron")
    assert analysis.policy is not None and analysis.api_mismatches
    report = build_report(analysis, None)
    annotations, _ = parse(render_github(report))
    policy = [a for a in annotations if a.props.get("title", "").startswith("sync policy: ")]
    kinds = {"high": "error", "medium": "warning", "info": "notice"}
    assert [(a.props["file"], a.kind) for a in policy] == [
        (f.path, kinds[f.severity]) for f in analysis.policy.findings if f.kind not in FILE_POLICY_KINDS
    ]
    titled = {a.props.get("title", "").rsplit("(", 1)[-1].rstrip(")"): a for a in annotations}
    breaks = [i.item for i in report.items if i.item.kind.value == "api-break"]
    assert breaks and all(titled[i.id].kind == "error" for i in breaks)
    named = {m.path for i in breaks for m in i.members}
    assert {m.path for m in analysis.api_mismatches} <= named
    ruled = [i.item for i in report.items if i.item.kind.value == "policy"]
    assert ruled and all(i.id in titled for i in ruled)
