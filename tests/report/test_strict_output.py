"""Output strict readers accept: no lone surrogate in JSON, no line separator in a workflow command."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

from workbench.analysis.serialize import quote_name, strict_json
from workbench.cli import main
from workbench.sample import RepoBuilder

LATIN = os.fsdecode(b"caf\xe9.txt")
QUOTED_NAME = '"\\"quoted\\".txt"'


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _strict(text: str) -> Any:
    """Parse as a strict reader does: the text must be valid UTF-8, every string valid Unicode."""
    text.encode("utf-8")
    doc = json.loads(text)
    for string in _strings(doc):
        string.encode("utf-8")  # a lone surrogate raises here
    return doc


@pytest.fixture
def latin_name(builder: RepoBuilder) -> RepoBuilder:
    for name in (LATIN, '"quoted".txt'):
        builder.write(name, "one\ntwo\nthree\n")
    builder.commit("base")
    builder.branch("dev").checkout("dev")
    for name in (LATIN, '"quoted".txt'):
        builder.write(name, "one\ndev\nthree\n")
    builder.commit("dev (#2)")
    builder.checkout("main")
    for name in (LATIN, '"quoted".txt'):
        builder.write(name, "one\nmain\nthree\n")
    builder.commit("main (#3)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 0
    return builder


@pytest.mark.parametrize("command", [["analyze", "--json"], ["analyze", "--json", "--pretty"],
                                     ["report", "--format", "json"]])
def test_a_name_that_is_not_utf8_is_quoted_as_git_quotes_it(latin_name: RepoBuilder, command: list[str],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--repo", str(latin_name.path), "HEAD"]) == 0
    doc = _strict(capsys.readouterr().out)
    paths = {f["path"] for f in doc["files"]} if "files" in doc else {t["path"] for t in doc["main_taken"]}
    assert '"caf\\351.txt"' in paths and QUOTED_NAME in paths


def test_quoting_follows_gits_rules() -> None:
    assert quote_name(LATIN) == '"caf\\351.txt"'
    assert quote_name('"quoted".txt') == QUOTED_NAME
    assert quote_name(os.fsdecode(b"a\tb\\c\x01\xff\xc3\xa9")) == '"a\\tb\\\\c\\001\\377\u00e9"'
    assert strict_json({"a": ["plain", "caf\u00e9"]}) == json.dumps({"a": ["plain", "caf\u00e9"]})
    assert strict_json({"k": LATIN}, indent=2) == json.dumps({"k": '"caf\\351.txt"'}, indent=2)


def test_pretty_json_on_request_and_on_a_terminal(latin_name: RepoBuilder, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["analyze", "--json", "--repo", str(latin_name.path), "HEAD"]) == 0
    compact = capsys.readouterr().out
    assert compact.count("\n") == 1
    assert main(["analyze", "--json", "--pretty", "--repo", str(latin_name.path), "HEAD"]) == 0
    pretty = capsys.readouterr().out
    assert pretty.count("\n") > 20 and json.loads(pretty) == json.loads(compact)
    assert re.search(r'^  "schema": ', pretty, re.M)


def test_a_line_separator_in_a_subject_is_spelled_out_for_github(builder: RepoBuilder,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    lines = "".join(f"v{i} = {i}\n" for i in range(8))
    builder.write("a.py", lines).commit("base")
    builder.branch("dev").checkout("dev").write("a.py", lines.replace("v3 = 3", "v3 = 30")).commit(
        "dev change\u2028::error::injected (#5)")
    builder.checkout("main").write("a.py", lines.replace("v3 = 3", "v3 = 300")).commit("main\u2029change (#6)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 0
    assert main(["report", "--repo", str(builder.path), "HEAD", "--format", "github", "--fail-on", "low"]) in (0, 1)
    out = capsys.readouterr().out
    assert "\u2028" not in out and "\u2029" not in out and "\x85" not in out
    assert "dev change\\u2028::error::injected" in out, "the subject is there, spelled out"
    assert all(line.startswith(("::", "workbench report: ")) for line in out.splitlines())
