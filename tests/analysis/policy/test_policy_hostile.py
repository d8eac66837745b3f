"""A policy is repository input: bad globs are named errors, and matching and loading stay fast.

Issue 19 items 5, 7, 13 and 14.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.policy.glob import compile_glob
from workbench.analysis.policy.rules import parse_policy
from workbench.cli import main
from workbench.errors import WorkbenchError
from workbench.sample import RepoBuilder


def _reference_regex(pattern: str) -> str:
    """The documented glob syntax as a regular expression (fine for small, harmless patterns)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end]
            negate = body.startswith("!")
            out.append("(?!/)[" + ("^" if negate else "") + re.escape(body[1:] if negate else body).replace(r"\-", "-") + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


_PIECES = st.sampled_from(["a", "b", "/", ".", "*", "?", "**", "**/", "[ab]", "[!a]", "[a-b]"])


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=8), path=st.text(alphabet="ab/.", max_size=10))
def test_globs_match_as_their_regular_expression_would(pieces: list[str], path: str) -> None:
    pattern = "".join(pieces)
    expected = re.fullmatch(_reference_regex(pattern), path) is not None
    assert compile_glob(pattern).matches(path) is expected, (pattern, path)


def _within(seconds: float, work: Callable[[], object]) -> float:
    """Run ``work``; fail (rather than hang) if it takes longer than ``seconds``."""
    import signal

    def expired(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"took over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        work()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - start


def test_many_globstar_segments_do_not_backtrack() -> None:
    """``**/a/`` twelve times hung the regex translation; the NFA's cost grows with the pattern, not
    exponentially with it."""
    path = "a/" * 40 + "c"

    def cost(segments: int) -> float:
        glob = compile_glob("**/a/" * segments + "b")
        return min(_within(30, lambda: glob.matches(path)) for _ in range(3))

    small, large = cost(6), cost(24)
    assert compile_glob("**/a/" * 24 + "c").matches(path)
    assert large < 4 * 8 * small + 0.05, (small, large)


def _policy_text(rules: int) -> str:
    globs = ",\n".join(f'  "dir{n % 97}/sub{n}/**/*.py"' for n in range(rules))
    notes = "\n".join(f'"notes{n}/*.md" = "note {n}"' for n in range(rules // 4))
    return f"keep_dev = [\n{globs},\n]\n[notes]\n{notes}\n"


def test_loading_a_policy_is_linear_in_its_rules() -> None:
    """16,000 globs took 37 s (each rule rescanned the file and compiled a regex)."""

    def cost(rules: int) -> float:
        text = _policy_text(rules)
        gc.collect()
        gc.disable()  # the collector's passes over many new objects are noise here, not the loader's cost
        try:
            return min(_within(60, lambda: parse_policy(text, "big.toml")) for _ in range(3))
        finally:
            gc.enable()

    # 16x the rules: linear costs about 16x, the old quadratic loading 256x; 64x leaves room for a loaded machine.
    small, large = cost(500), cost(8000)
    assert large < 64 * small + 0.05, (small, large)
    policy = parse_policy(_policy_text(16000), "big.toml")
    assert policy.keep_dev[-1].source == "big.toml:16001"
    assert policy.notes[-1][0].source == f"big.toml:{16000 + 3 + 4000}"


@pytest.mark.parametrize(("glob", "words"), [
    ("[z-a].py", "reversed range 'z-a' in glob '[z-a].py'"),
    ("[!]x", "empty character class in glob '[!]x'"),
    ("a[]", "unclosed '[' in glob 'a[]'"),
])
def test_a_bad_character_class_names_the_file_and_line(glob: str, words: str) -> None:
    text = f'keep_dev = [\n  "ok.py",\n  "{glob}",\n]\n'
    with pytest.raises(WorkbenchError) as caught:
        parse_policy(text, ".workbench.toml")
    assert str(caught.value) == f".workbench.toml:3: {words}"


def _tiny_sync(b: RepoBuilder) -> None:
    b.write("a.py", "A = 1\n").commit("base")
    b.branch("dev").checkout("dev").write("a.py", "A = 2\n").commit("dev (#1)")
    b.checkout("main").write("a.py", "A = 3\n").commit("main (#2)")


def _cli_error(builder: RepoBuilder, policy: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["analyze", "--repo", str(builder.path), "--dev", "dev", "--main", "main", "--policy", policy])
    return code, capsys.readouterr().err.splitlines()


def test_cli_reversed_range_is_one_line_exit_2(builder: RepoBuilder, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _tiny_sync(builder)
    bad = tmp_path / "policy.toml"
    bad.write_text('keep_dev = ["[z-a].py"]\n')
    code, err = _cli_error(builder, str(bad), capsys)
    assert (code, err) == (2, [f"workbench: error: {bad}:1: reversed range 'z-a' in glob '[z-a].py'"])


@pytest.mark.parametrize(("spec", "words"), [
    ("/dev/zero", "/dev/zero: cannot read policy file: a character device, not a regular file"),
    ("{tmp}", "{tmp}: cannot read policy file: a directory, not a regular file"),
    ("{tmp}/fifo.toml", "{tmp}/fifo.toml: cannot read policy file: a named pipe, not a regular file"),
    ("{tmp}/huge.toml", "{tmp}/huge.toml: cannot read policy file: 9.0 MB, over the 8.0 MB limit"),
])
def test_a_policy_that_is_no_regular_file_or_huge_is_refused(builder: RepoBuilder, tmp_path: Path, spec: str,
                                                            words: str, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    _tiny_sync(builder)
    os.mkfifo(tmp_path / "fifo.toml")
    with open(tmp_path / "huge.toml", "wb") as handle:
        handle.truncate(9 * 1024 * 1024)
    spec, words = spec.format(tmp=tmp_path), words.format(tmp=tmp_path)
    found: list[tuple[int, list[str]]] = []
    _within(30, lambda: found.append(_cli_error(builder, spec, capsys)))  # a FIFO used to block for ever
    assert found == [(2, [f"workbench: error: {words}"])]


@pytest.mark.parametrize(("text", "where"), [
    (b"# a comment \x80\nkeep_dev = []\n", "policy.toml:1: invalid TOML: not UTF-8 (byte 13)"),
    (b'keep_dev = ["a.py"]\nkeep_main = ["b\xff.py"]\n', "policy.toml:2: invalid TOML: not UTF-8 (byte 36)"),
])
def test_a_byte_that_is_not_utf8_is_refused_with_its_line(text: bytes, where: str) -> None:
    """TOML is UTF-8: a stray byte, even in a comment, is refused (it used to become U+FFFD and pass)."""
    with pytest.raises(WorkbenchError) as refused:
        parse_policy(text, "policy.toml")
    assert str(refused.value) == where
