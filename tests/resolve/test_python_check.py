"""The Python check before a write: the running Python's compiler decides, a newer grammar only where it adds syntax.

tree-sitter accepts all four errors below (issue 37); ``compile`` refuses
them.  Files in the syntax of Python 3.12-3.14 (type parameters and their
defaults, ``type`` aliases, PEP 701 f-strings, ``except A, B:``) are
written on the running Python whatever its version, and an error inside
or around such a construct is still refused.
"""

from __future__ import annotations

import pytest
from helpers.syncs import open_session

from workbench.resolve.python_check import check_python
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

BASE = "import os\n\n\ndef build(\n    model,\n    config,\n):\n    return model\n"
DEV = BASE.replace("    config,\n", "    **kwargs,\n")
MAIN = BASE.replace("    config,\n", "    flex_backend=None,\n")
TOP = "import os\n\nVALUE = 1\n\n\ndef keep():\n    return os.sep\n"


def _conflict(b: RepoBuilder, base: str, dev: str, main: str, path: str = "x.py") -> RepoBuilder:
    b.write(path, base).commit("base")
    b.branch("dev").checkout("dev").write(path, dev).commit("dev (#2)")
    b.checkout("main").write(path, main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def test_both_sides_of_two_parameter_lists_is_refused(builder: RepoBuilder) -> None:
    """``b`` gives ``**kwargs,`` then ``flex_backend=None,``: tree-sitter parses it, Python does not."""
    _conflict(builder, BASE, DEV, MAIN)
    before = builder.read("x.py")
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.BOTH))
    check = check_write(repo, session, "x.py")
    assert check.blocked is Blocked.SYNTAX, check
    assert "line 7: arguments cannot follow var-keyword argument" in check.message
    outcome = write_file(repo, session, "x.py")
    assert not outcome.written and builder.read("x.py") == before
    session.decide("x.py", 0, Decision(Choice.BOTH_MAIN_FIRST))  # flex_backend=None, **kwargs: valid
    assert write_file(repo, session, "x.py").staged


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("def f(a, **kwargs,\n      flex_backend=None):\n    pass\n", "arguments cannot follow var-keyword argument"),
        ("run(a=1, b)\n", "positional argument follows keyword argument"),
        ("def f(a=1, b):\n    pass\n", "non-default argument follows default argument"),
        ("def f():\nreturn 1\n", "expected an indented block"),
        ("return 1\n", "'return' outside function"),
        ("def f(a, a):\n    pass\n", "duplicate argument 'a'"),
    ],
    ids=["after-var-keyword", "positional-after-keyword", "non-default-after-default", "missing-indent",
         "return-outside", "duplicate-argument"],
)
def test_an_error_tree_sitter_accepts_is_refused_with_its_line(builder: RepoBuilder, text: str, words: str) -> None:
    _conflict(builder, TOP, TOP.replace("= 1", "= 2"), TOP.replace("= 1", "= 3"))
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.CUSTOM, text.encode()))
    check = check_write(repo, session, "x.py")
    assert check.blocked is Blocked.SYNTAX and words in check.message, check


NEWER = {
    "type-parameter-defaults": "def first[T = int](x: T) -> T:\n    return x\n",
    "type-parameters": "class Box[T: (int, str), *Ts, **P]:\n    pass\n\n\ndef f[T](x: T) -> T:\n    return x\n",
    "multi-line-defaults": "def f[\n    T: int = int,\n    *Ts = *tuple[int, ...],\n    **P = [int],\n](x: T) -> T:\n    return x\n",
    "type-alias": "type Alias = int\ntype Pair[T = str] = tuple[T, T]\n",
    "nested-quotes": 'table = {"a": 1}\nNAME = f"{table["a"]}"\n',
    "nested-f-strings": 'NAME = f"{f"{f"{1}"}"}"\n',
    "backslash-and-comment": "NAME = f\"{'\\n'.join([])}\"\nOTHER = f\"{\n    1  # one\n}\" + \"!\"\n",
    "except-without-parentheses": "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",
}


@pytest.mark.parametrize("text", NEWER.values(), ids=NEWER.keys())
def test_a_newer_grammar_is_accepted(text: str) -> None:
    found = check_python(text.encode(), "x.py")
    assert found.error is None and found.warning is None, found


BROKEN_NEWER = {
    "empty-default": ("def f[T = ](x):\n    pass\n", "type parameter 'T' has an empty default"),
    "non-default-after-default": ("def f[T = int, U](x):\n    pass\n", "non-default type parameter 'U' follows"),
    "duplicate": ("class C[T, T]:\n    pass\n", "duplicate type parameter 'T'"),
    "bound-on-a-tuple": ("class C[*Ts: int]:\n    pass\n", "cannot have a bound"),
    "bad-default": ("def f[T = 1 +](x):\n    pass\n", "line 1: invalid syntax"),
    "bad-alias-value": ("type X = list[\n", "line 1:"),
    "f-string-expression": ('NAME = f"{table["a"] b}"\n', "line 1: invalid syntax"),
    "empty-f-string-field": ('NAME = f"{table["a"]}{ }"\n', "valid expression required"),
    "except-as": ("try:\n    pass\nexcept ValueError, TypeError as e:\n    pass\n",
                  "line 3: multiple exception types must be parenthesized"),
    "error-after-alias": ("type X = int\n\n\ndef f(a=1, b):\n    pass\n", "line 4: non-default argument follows"),
    "error-after-f-string": ('table = {}\nNAME = f"{table["a"]}"\nreturn 1\n', "line 3: 'return' outside function"),
}


@pytest.mark.parametrize(("text", "words"), BROKEN_NEWER.values(), ids=BROKEN_NEWER.keys())
def test_an_error_in_or_beside_a_newer_construct_is_refused(text: str, words: str) -> None:
    found = check_python(text.encode(), "x.py")
    assert found.error is not None and words in found.error, found


def test_a_valid_file_with_type_parameter_defaults_is_written_and_staged(builder: RepoBuilder) -> None:
    """``def f[T = int](x: T)`` (Python 3.13) was refused as "would not parse": tree-sitter errs on it too."""
    head = "def first[T = int](x: T) -> T:\n    return x\n\n\n"
    _conflict(builder, head + BASE, head + DEV, head + MAIN)
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.MAIN))
    outcome = write_file(repo, session, "x.py")
    assert outcome.written and outcome.staged and not outcome.warning, outcome
    assert builder.read("x.py") == (head + MAIN).encode()
    assert builder.git("diff", "--cached", "dev", "--", "x.py") == builder.git("diff", "dev", "main", "--", "x.py")


def test_a_file_too_deep_to_check_is_written_with_a_warning(builder: RepoBuilder) -> None:
    _conflict(builder, TOP, TOP.replace("= 1", "= 2"), TOP.replace("= 1", "= 3"))
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.CUSTOM, ("DEEP = " + " + ".join(["1"] * 3000) + "\n").encode()))
    outcome = write_file(repo, session, "x.py")
    assert outcome.written and "too deeply nested" in outcome.warning, outcome
