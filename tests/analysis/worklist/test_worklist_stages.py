"""The worklist wired into the analysis: duplicate definitions a clean merge made, layout-only losses, the JSON
fields (``worklist``, ``hunks[].item``, ``summary.worklist``) and the both-direction gate of ``report --fail-on``."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from helpers.syncs import analyze

from workbench.analysis.model import Level, LineRange, LostLines, SignalKind
from workbench.analysis.serialize import analysis_to_json
from workbench.analysis.worklist.items import Item, ItemKind, Member, Worklist
from workbench.analysis.worklist.lift import lifted
from workbench.cli import main
from workbench.sample import RepoBuilder

_CLASS = "class Config:\n    alpha: int = 1\n" + "".join(f"    f{n}: int = {n}\n" for n in range(12)) + "    omega: int = 2\n"


def _merged(b: RepoBuilder, dev: Mapping[str, str | bytes], upstream: Mapping[str, str | bytes],
            base: Mapping[str, str | bytes]) -> str:
    """Base, dev and main commits of the given files, and dev's merge of main (conflicts left to the caller)."""
    for path, text in base.items():
        b.write(path, text)
    b.commit("base")
    b.branch("upstream")
    for path, text in dev.items():
        b.write(path, text)
    b.commit("[dev] dev's change (#11)")
    dev_branch = b.current_branch() or "main"
    b.checkout("upstream")
    for path, text in upstream.items():
        b.write(path, text)
    b.commit("main's change (#21)")
    b.checkout(dev_branch)
    return dev_branch


def test_a_clean_merge_that_defines_a_field_twice_is_a_high_item(builder: RepoBuilder) -> None:
    dev = _CLASS.replace("    alpha: int = 1\n", "    alpha: int = 1\n    beta: float = 0.5\n")
    upstream = _CLASS.replace("    omega: int = 2\n", "    omega: int = 2\n    beta: float = 0.5\n")
    _merged(builder, {"config.py": dev}, {"config.py": upstream}, {"config.py": _CLASS})
    assert builder.merge("upstream", check=True) == 0
    merged = builder.read("config.py").decode()
    assert merged.count("beta: float") == 2, "git merged both definitions cleanly"
    analysis = analyze(builder.path, rev="HEAD")
    (dup,) = analysis.duplicates
    assert (dup.path, dup.scope, dup.name) == ("config.py", "Config", "beta") and len(dup.lines) == 2
    assert analysis.worklist is not None
    (item,) = [i for i in analysis.worklist.items if i.kind.value == "duplicate-definition"]
    assert item.level is Level.HIGH
    doc = analysis_to_json(analysis)
    assert any(i["kind"] == "duplicate-definition" and i["level"] == "high" for i in doc["worklist"])
    assert doc["summary"]["worklist"]["items"] == len(doc["worklist"])


def test_the_gate_fails_on_a_conflict_kept_as_dev_that_drops_mains_lines(
    builder: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    base = "def train(step):\n    lr = 0.1\n    return step * lr\n"
    dev = "def train(step):\n    lr = 0.2\n    return step * lr\n"
    upstream = ("def train(step):\n    lr = 0.3\n    warmup = schedule_warmup(step, total_steps=1000)\n"
                "    return step * lr * warmup\n")
    _merged(builder, {"train.py": dev}, {"train.py": upstream}, {"train.py": base})
    assert builder.merge("upstream") == 1
    builder.git("checkout", "--ours", "--", "train.py")
    builder.git("add", "train.py")
    builder.git("commit", "-q", "--no-edit")
    analysis = analyze(builder.path, rev="HEAD")
    (entry,) = analysis.files
    (hunk,) = entry.hunks
    assert hunk.lost_lines.main and not hunk.lost_lines.dev, "the result holds dev's side, main's warmup is lost"
    doc = analysis_to_json(analysis)
    (item_id,) = {h["item"] for f in doc["files"] for h in f["hunks"]}
    (item,) = [i for i in doc["worklist"] if i["id"] == item_id]
    assert item["lost_lines"]["main"] > 0
    code = main(["report", "HEAD", "--repo", str(builder.path), "--fail-on", item["level"], "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["gate"]["items"] == [item_id], "keeping dev's side while main's lines go is open"


def test_lost_lines_the_result_only_re_laid_out_are_not_lost(builder: RepoBuilder) -> None:
    base = "def run(cfg):\n    x = 1\n    return x\n"
    dev = "def run(cfg):\n    x = 1\n    report(cfg.name, cfg.size, cfg.depth)\n    return x\n"
    upstream = "def run(cfg):\n    x = 2\n    return x\n"
    _merged(builder, {"run.py": dev}, {"run.py": upstream}, {"run.py": base})
    assert builder.merge("upstream") == 1
    builder.write("run.py", "def run(cfg):\n    x = 2\n    report(\n        cfg.name,\n        cfg.size,\n"
                            "        cfg.depth,\n    )\n    return x\n")
    builder.git("add", "run.py")
    builder.git("commit", "-q", "--no-edit")
    analysis = analyze(builder.path, rev="HEAD")
    hunks = [h for f in analysis.files for h in f.all_hunks]
    assert not any(h.lost_lines.dev or h.lost_lines.main for h in hunks), "dev's call is in the result, re-wrapped"
    assert any(s.kind is SignalKind.LAYOUT_ONLY for h in hunks for s in h.signals)
    assert all(h.level is Level.LOW for h in hunks)


def test_r5_lifts_a_medium_member_of_a_high_change_but_not_a_file_a_tool_writes() -> None:
    """One commit's loss: its code hunk is high, its comment hunk medium (lifted, read with it); its hunks in
    golden-value JSON are regenerated with the change, never lifted (one commit can touch hundreds)."""
    lost = LostLines(dev=(LineRange(3, 3),))
    members = (Member("model.py", 0, Level.HIGH, lost), Member("model.py", 1, Level.MEDIUM, lost),
               Member("golden_values.json", 0, Level.MEDIUM, lost))
    item = Item("commit-0123456789", ItemKind.COMMIT, Level.HIGH, "why", members)
    assert lifted(Worklist((item,))) == {("model.py", 1)}


def test_a_result_that_took_the_other_sides_text_still_loses_this_sides_layout(builder: RepoBuilder) -> None:
    """main re-laid dev's call out (its formatter) and changed the line before it; the result is main's text as
    it is: dev's lines are lost with their layout (a reviewer restores them), not explained away as layout."""
    base = "def run(cfg):\n    x = 1\n    report(cfg.name, cfg.size)\n    return x\n"
    dev = "def run(cfg):\n    x = 1\n    report(cfg.name, cfg.size, cfg.depth)\n    return x\n"
    upstream = ("def run(cfg):\n    x = 2\n    report(\n        cfg.name,\n        cfg.size,\n        cfg.depth,\n"
                "    )\n    return x\n")
    _merged(builder, {"run.py": dev}, {"run.py": upstream}, {"run.py": base})
    assert builder.merge("upstream") == 1
    builder.git("checkout", "--theirs", "--", "run.py")
    builder.git("add", "run.py")
    builder.git("commit", "-q", "--no-edit")
    analysis = analyze(builder.path, rev="HEAD")
    (hunk,) = [h for f in analysis.files for h in f.hunks]
    assert hunk.lost_lines.dev, "the result is main's text: dev's own line is lost, however main laid it out"
    assert not any(s.kind in (SignalKind.LAYOUT_ONLY, SignalKind.MOVED_IN_RESULT) for s in hunk.signals)


def test_a_binary_conflict_is_a_whole_file_item_of_the_analysis(builder: RepoBuilder) -> None:
    """A file without hunks that still needs a decision is in the analysis' worklist (and so in the app, the
    reports and the agent's queue alike), not added by one front end."""
    base: dict[str, str | bytes] = {"logo.bin": b"\x00\x01base\x00" * 8, "a.py": "x = 1\n"}
    _merged(builder, {"logo.bin": b"\x00\x02dev\x00" * 8}, {"logo.bin": b"\x00\x03main\x00" * 8}, base)
    assert builder.merge("upstream") != 0  # the binary conflicts
    analysis = analyze(builder.path)
    assert analysis.worklist is not None
    (item,) = [i for i in analysis.worklist.items if i.kind is ItemKind.WHOLE_FILE]
    assert item.level is Level.HIGH and [m.path for m in item.members] == ["logo.bin"]
    assert item.members[0].hunk is None
    doc = analysis_to_json(analysis)
    assert any(i["kind"] == "whole-file" and i["members"][0]["path"] == "logo.bin" for i in doc["worklist"])
