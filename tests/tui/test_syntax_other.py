"""Highlighting beyond Python: the languages a Megatron-style sync holds get the same kinds of spans."""

from __future__ import annotations

import pytest

from workbench.tui.syntax import KINDS, highlighter_for


@pytest.mark.parametrize(("path", "data", "line", "expected"), [
    ("csrc/kernel.cu", b"__global__ void k(int n) {  // launch\n  return;\n}\n", 0, {"keyword", "type", "comment"}),
    ("csrc/ops.cpp", b"#include <x>\nconst int n = 3; /* c */\n", 1, {"keyword", "type", "number", "comment"}),
    (".github/workflows/ci.yml", b"on:\n  push: 'x'  # when\n", 1, {"keyword", "string", "comment"}),
    ("tools/run.sh", b'if [ -z "$X" ]; then echo hi; fi  # c\n', 0, {"keyword", "string", "comment"}),
    ("pyproject.toml", b'[project]\nname = "megatron"\n', 1, {"string"}),
    ("uv.lock", b'[[package]]\nversion = "1.0"\n', 0, {"keyword"}),
    ("README.md", b"# Title\nsee `code` here\n", 0, {"keyword"}),
])
def test_other_languages_are_highlighted(path: str, data: bytes, line: int, expected: set[str]) -> None:
    highlight = highlighter_for(path)
    assert highlight is not None, path
    spans = highlight(data)
    kinds = {kind for _start, _end, kind in spans.get(line, ())}
    assert expected <= kinds, (path, spans)
    assert kinds <= set(KINDS)
    text = data.decode().split("\n")[line]
    assert all(0 <= start < end <= len(text) for start, end, _ in spans[line])


def test_lines_with_tabs_stay_plain_and_unknown_files_are_not_highlighted() -> None:
    highlight = highlighter_for("a.sh")
    assert highlight is not None
    assert 0 not in highlight(b"\techo 'tab'\n") and 0 in highlight(b"echo 'x'\n")
    assert highlighter_for("data/golden_values.json.txt") is None
