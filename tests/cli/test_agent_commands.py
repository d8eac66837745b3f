"""The agent's commands on the command line: the guide held to the real ``--help``, the JSON contract, ``--batch``,
bad input (one line, exit 2, nothing changed), and what ``queue`` and ``show`` say of a sync."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest
from helpers.agent import workbench
from helpers.odd_repos import tree_digest

from workbench.cli import build_parser
from workbench.sample import SampleSync
from workbench.services.agent.guide import GUIDE

AGENT_COMMANDS = ("queue", "show", "decide", "gate", "recall")


def _options(command: str) -> set[str]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command")  # noqa: SLF001 - argparse keeps subparsers there
    assert isinstance(sub, argparse._SubParsersAction)  # noqa: SLF001
    return {flag for action in sub.choices[command]._actions for flag in action.option_strings  # noqa: SLF001
            if flag.startswith("--") and flag != "--help"}


def test_the_guide_names_every_option_of_the_agents_commands_and_no_other() -> None:
    ours = re.sub(r"`git [^`]*`", "", GUIDE)  # git's own options, in the commands it quotes, are git's
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", ours))
    known = set().union(*(_options(c) for c in AGENT_COMMANDS))
    assert named <= known, named - known
    assert known <= named, known - named


def test_the_guide_names_each_command_and_the_takes_and_claims_decide_accepts() -> None:
    from workbench.commands.decide import CLAIMS, TAKES

    for command in (*AGENT_COMMANDS, "agent-guide"):
        assert f"workbench {command}" in GUIDE
    for word in (*TAKES, *CLAIMS):
        assert word in GUIDE
    printed = workbench("agent-guide")
    assert printed.code == 0 and printed.stdout.startswith("# Using workbench ")


def test_every_help_line_of_the_agents_commands_holds(sample_merge_commit: SampleSync) -> None:
    for command in (*AGENT_COMMANDS, "agent-guide", "mcp"):
        ran = workbench(command, "--help")
        assert ran.code == 0, ran.stderr


def test_queue_json_is_versioned_and_marks_repository_text(sample_merge_commit: SampleSync) -> None:
    doc = workbench("queue", "--json", "--repo", str(sample_merge_commit.path)).json()
    assert doc["schema"] == "workbench.agent/1" and doc["command"] == "queue"
    assert {"why", "path", "subject", "reason", "text"} <= set(doc["untrusted_fields"])
    assert doc["summary"]["items"] == len(doc["items"]) > 0
    first = doc["items"][0]
    assert first["level"] == "high" and first["state"] == "open"
    assert {"id", "kind", "why", "lost_lines", "members", "commits", "decisions", "claims", "choices"} <= set(first)
    for item in doc["items"]:
        assert re.fullmatch(r"[a-z-]+-[0-9a-f]{10}", item["id"])
        for choice in item["choices"]:
            assert set(choice["lost_lines"]) == {"dev", "main"}


def test_show_gives_the_texts_and_a_ready_command_per_take(sample_merge_commit: SampleSync) -> None:
    doc = workbench("show", "commit-9a3c14db0e", "--json", "--repo", str(sample_merge_commit.path)).json()
    item = doc["item"]
    (texts,) = item["texts"]
    assert texts["dev"] and texts["base"] and texts["main"] == [] and texts["result"] == []
    ready = {c["take"]: c for c in item["commands"]}
    assert ready["result"]["claim"] == "intentional-removal" and ready["result"]["status"] == "verified"
    assert "--evidence 9bf380ac3905f5234075c8c275c812efb21c2b47" in ready["result"]["command"]
    text = workbench("show", "commit-9a3c14db0e", "--repo", str(sample_merge_commit.path))
    assert "Decide it:" in text.stdout and "[verified] workbench decide commit-9a3c14db0e" in text.stdout


def test_a_batch_answers_each_line_and_a_refused_one_makes_exit_1(sample_merge_commit: SampleSync,
                                                                tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(r) for r in (
        {"id": "commit-9a3c14db0e", "take": "result", "claim": "intentional-removal", "evidence": ["9bf380a"],
         "reason": "main removed it"},
        {"id": "commit-1692976f51", "take": "result", "claim": "restored", "reason": "not true"},
        {"id": "commit-1692976f51", "take": "both", "claim": "restored", "reason": "keep both"},
    )) + "\n")
    ran = workbench("decide", "--batch", str(batch), "--repo", str(sample_merge_commit.path))
    assert ran.code == 1, ran.stderr
    answers = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [a["outcome"] for a in answers] == ["decided", "refused", "decided"]
    assert [a["line"] for a in answers] == [1, 2, 3]
    assert answers[2]["written"] == ["megatron/training/training.py"]
    queue = workbench("queue", "--json", "--repo", str(sample_merge_commit.path)).json()
    assert not {"commit-9a3c14db0e", "commit-1692976f51"} & {i["id"] for i in queue["items"]}


BAD = {
    "an unknown item": (["decide", "commit-0123456789", "--take", "dev", "--claim", "restored", "--reason", "r"],
                        "no item"),
    "a member that is not there": (["decide", "commit-9a3c14db0e:7", "--take", "dev", "--claim", "restored",
                                    "--reason", "r"], "member"),
    "no reason": (["decide", "commit-9a3c14db0e", "--take", "dev", "--claim", "restored"], "--reason"),
    "no take": (["decide", "commit-9a3c14db0e", "--claim", "restored", "--reason", "r"], "--take"),
    "custom without text": (["decide", "commit-9a3c14db0e", "--take", "custom", "--claim", "restored", "--reason", "r"],
                            "--text-file"),
    "merged on a conflict": (["decide", "commit-9a3c14db0e", "--take", "merged", "--claim", "restored",
                              "--reason", "r"], "conflicts"),
    "an unknown take": (["decide", "commit-9a3c14db0e", "--take", "theirs", "--claim", "restored", "--reason", "r"],
                        "invalid choice"),
    "two revisions": (["decide", "HEAD", "HEAD~1", "--take", "dev", "--claim", "restored", "--reason", "r"],
                      "only one REV"),
    "show of nothing": (["show", "commit-0123456789"], "may regroup under other ids"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_exit_2_and_changes_nothing(sample_merge_commit: SampleSync, case: str) -> None:
    args, words = BAD[case]
    before = tree_digest(sample_merge_commit.path)
    ran = workbench(*args, "--repo", str(sample_merge_commit.path))
    assert ran.code == 2, (ran.code, ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], ran.stderr
    assert tree_digest(sample_merge_commit.path) == before


def test_a_bad_batch_line_decides_nothing(sample_merge_commit: SampleSync, tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text(json.dumps({"id": "commit-9a3c14db0e", "take": "result", "claim": "intentional-removal",
                                 "evidence": ["9bf380a"], "reason": "r"}) + "\n{not json\n")
    before = tree_digest(sample_merge_commit.path)
    ran = workbench("decide", "--batch", str(batch), "--repo", str(sample_merge_commit.path))
    assert ran.code == 2 and "line 2" in ran.stderr
    assert tree_digest(sample_merge_commit.path) == before


def test_a_preview_decides_nothing(sample_branches: SampleSync) -> None:
    repo = str(sample_branches.path)
    item = workbench("queue", "--json", "--dev", "dev", "--main", "main", "--repo", repo).json()["items"][0]["id"]
    ran = workbench("decide", item, "--take", "dev", "--claim", "judgement", "--reason", "r", "--dev", "dev",
                    "--main", "main", "--repo", repo)
    assert ran.code == 2 and "preview writes nothing" in ran.stderr


def test_show_names_a_commits_pull_request_once(sample_merge_commit: SampleSync) -> None:
    """A subject that already ends in ``(#N)`` (GitHub's squash subjects) is not followed by ``(#N)`` again."""
    text = workbench("show", "commit-9a3c14db0e", "--repo", str(sample_merge_commit.path)).stdout
    commits = [line for line in text.splitlines() if line.startswith("  commit ")]
    assert commits and all("(#" in line for line in commits), text
    assert not [line for line in commits if re.search(r"\(#(\d+)\).*\(#\1\)", line)], commits
