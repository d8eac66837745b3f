"""Rewording a docstring is words, like rewording a comment: low risk, not high (issue 42)."""

from __future__ import annotations

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import Level
from workbench.analysis.risk.drops import docstring_lines
from workbench.sample import RepoBuilder

BASE = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(6))


def _block(kind: str, word: str) -> str:
    if kind == "docstring":
        return '    """' + "\n    ".join(f"{word} line {n} of the explanation." for n in range(8)) + '\n    """\n'
    return "".join(f"    # {word} line {n} of the explanation.\n" for n in range(8))


@pytest.mark.parametrize("kind", ["docstring", "comment"])
def test_a_reworded_explanation_is_low_risk(builder: RepoBuilder, kind: str) -> None:
    def code(word: str) -> str:
        return BASE + "def total(values):\n" + _block(kind, word) + "    return sum(values)\n"

    builder.write("m.py", code("Old")).commit("base")
    builder.branch("dev").checkout("dev").write("m.py", code("Dev")).commit("[dev] Reword the explanation (#10)")
    builder.checkout("main").write("m.py", code("Main")).commit("Reword it differently (#11)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 0
    _, analysis = open_analysis(builder.path)
    [hunk] = analysis.files[0].hunks
    assert hunk.level is Level.LOW, [s.message for s in hunk.signals]
    assert any("values or comments" in s.message for s in hunk.signals)


def test_only_a_statement_of_its_own_is_a_docstring() -> None:
    lines = [b"def f(x):\n", b'    """Say what f does.\n', b"    More words.\n", b'    """\n', b"    call(\n",
             b'        """an argument,\n', b'        not a docstring"""\n', b"    )\n", b'x = """a value\n', b'"""\n']
    assert docstring_lines(lines, range(len(lines))) == {1, 2, 3}
