"""Every configuration file the tool reads, given random bytes or the wrong shape: exit 2, one line.

The files: a sync policy (``--policy FILE``, and the repository's own
``.workbench.toml`` read the same way), a user theme, the app's
``config.toml`` and a trainee's training progress.  Issue 19 items 6, 7 and 8
and its "done when" property test.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from textual.color import Color, ColorParseError

from workbench.cli import main
from workbench.sample import RepoBuilder
from workbench.tui.keymap import BY_ID

HEADLESS = "textual.drivers.headless_driver:HeadlessDriver"

# -- TOML and JSON documents of any shape ---------------------------------------------------

SCALARS = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8,
)


def toml_value(value: Any) -> str:
    """``value`` written as TOML (inline tables and arrays; strings JSON-escaped, which TOML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(data: dict[str, Any]) -> bytes:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in data.items()).encode()


def _not(*types: type) -> st.SearchStrategy[Any]:
    """Any value whose type is none of ``types`` (bool counts apart from int)."""
    def wrong(value: Any) -> bool:
        return not any(type(value) is t for t in types)

    return VALUES.filter(wrong)


def _no_colour(text: str) -> bool:
    try:
        Color.parse(text)
    except ColorParseError:
        return True
    return False


# One key of each file with a value it cannot take, beside otherwise sound content.
POLICY_SHAPES = st.one_of(
    st.tuples(st.sampled_from(["keep_dev", "override_from_main"]),
              st.one_of(_not(list), st.lists(_not(str), min_size=1, max_size=3), st.just([""]))),
    st.tuples(st.just("coupled"), st.one_of(_not(list), st.lists(st.lists(st.text(min_size=1), max_size=1), min_size=1),
                                            st.lists(st.lists(_not(str), min_size=2, max_size=3), min_size=1))),
    st.tuples(st.just("notes"), st.one_of(_not(dict), st.dictionaries(st.text(max_size=5), _not(str), min_size=1))),
    st.tuples(st.just("preset"), st.one_of(_not(str), st.text(max_size=8).filter(lambda t: t != "megatron"))),
    st.tuples(st.text(min_size=1, max_size=8).filter(lambda k: k not in
              ("preset", "override_from_main", "keep_dev", "coupled", "notes")), VALUES),
    st.tuples(st.just("keep_dev"), st.lists(st.sampled_from(["[z-a]", "[", "a[]", "[!]"]), min_size=1, max_size=2)),
)
THEME_SHAPES = st.one_of(
    st.tuples(st.sampled_from(["primary", "secondary", "accent", "background", "surface", "panel", "boost"]),
              st.one_of(_not(str), st.text(max_size=12).filter(_no_colour))),
    st.tuples(st.sampled_from(["dark", "ansi"]), _not(bool)),
    st.tuples(st.sampled_from(["luminosity_spread", "text_alpha"]),
              st.one_of(_not(int, float), st.floats().filter(lambda f: not 0 <= f <= 1))),
    st.tuples(st.just("variables"), st.one_of(_not(dict), st.dictionaries(st.text(max_size=5), _not(str), min_size=1),
                                              st.fixed_dictionaries({"dev": st.text(max_size=9).filter(_no_colour)}))),
    st.tuples(st.just("name"), st.one_of(_not(str), st.just(""))),
    st.tuples(st.text(min_size=1, max_size=8).filter(lambda k: k not in _THEME_FIELDS), VALUES),
)
CONFIG_SHAPES = st.one_of(
    st.tuples(st.sampled_from(["theme", "editor"]), _not(str)),
    st.tuples(st.just("theme"), st.text(max_size=8).filter(lambda t: not t.startswith("workbench-"))),
    st.tuples(st.just("context"), st.one_of(_not(int), st.integers().filter(lambda n: not 0 <= n <= 100))),
    st.tuples(st.just("keys"), st.one_of(_not(dict), st.dictionaries(st.text(max_size=6), _not(str), min_size=1),
                                         st.dictionaries(st.text(min_size=1, max_size=6).filter(lambda a: a not in BY_ID),
                                                         st.text(max_size=3), min_size=1))),
)
PROGRESS_SHAPES = st.one_of(
    _not(dict),
    st.fixed_dictionaries({"exercises": _not(dict)}),
    st.fixed_dictionaries({"trainee": _not(str)}),
    st.fixed_dictionaries({"exercises": st.dictionaries(st.text(max_size=6), _not(dict), min_size=1)}),
    st.fixed_dictionaries({"exercises": st.dictionaries(st.text(max_size=6), st.fixed_dictionaries(
        {"answers": st.one_of(_not(dict), st.dictionaries(st.text(max_size=6).filter(lambda k: "\0" not in k),
                                                         st.text(max_size=4), min_size=1))}), min_size=1)}),
    st.fixed_dictionaries({"exercises": st.dictionaries(st.text(max_size=6), st.fixed_dictionaries(
        {"score": _not(int, float, type(None))}), min_size=1)}),
)

_THEME_FIELDS: set[str] = {"name", "primary", "secondary", "warning", "error", "success", "accent", "foreground",
                          "background", "surface", "panel", "boost", "dark", "luminosity_spread", "text_alpha",
                          "variables", "ansi"}


# -- the files, read by the command line in this process ------------------------------------


@pytest.fixture(scope="module")
def sync(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished sync merge (dev checked out at it)."""
    builder = RepoBuilder.init(tmp_path_factory.mktemp("sync") / "repo")
    builder.write("a.txt", "a\nb\nc\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.txt", "a\nB\nc\n").commit("dev (#2)")
    builder.checkout("main").write("a.txt", "a\nBB\nc\n").commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    return builder.path


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _cli(args: list[str]) -> tuple[int, list[str]]:
    """``workbench ARGS`` in this process: (exit status, stderr lines)."""
    def started(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"workbench {' '.join(args)} did not stop: the settings were accepted")

    err = io.StringIO()
    previous = signal.signal(signal.SIGALRM, started)
    signal.alarm(60)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return status, err.getvalue().splitlines()


def _assert_one_line(status: int, err: list[str], path: Path) -> None:
    assert status == 2, err
    assert len(err) == 1 and err[0].startswith("workbench: error: "), err
    assert str(path) in err[0], err


class Files:
    """Where each kind of file lives for one example, and the command that reads it."""

    def __init__(self, root: Path, sync: Path) -> None:
        self.root, self.sync = root, sync
        self.config_home, self.data_home = root / "config", root / "data"

    def policy(self, data: bytes) -> tuple[Path, list[str]]:
        path = self.root / "policy.toml"
        path.write_bytes(data)
        return path, ["analyze", "--repo", str(self.sync), "--policy", str(path)]

    def theme(self, data: bytes) -> tuple[Path, list[str]]:
        path = self.config_home / "workbench" / "themes" / "mine.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path, ["open", "--repo", str(self.sync)]

    def config(self, data: bytes) -> tuple[Path, list[str]]:
        path = self.config_home / "workbench" / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path, ["open", "--repo", str(self.sync)]

    def progress(self, data: bytes) -> tuple[Path, list[str]]:
        path = self.data_home / "workbench" / "training" / "trainee.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path, ["train", "sample:dev-line-dropped", "--trainee", "trainee"]

    def run(self, kind: str, data: bytes) -> tuple[Path, int, list[str]]:
        path, args = getattr(self, kind)(data)
        env = {"XDG_CONFIG_HOME": str(self.config_home), "XDG_DATA_HOME": str(self.data_home),
               "TEXTUAL_DRIVER": HEADLESS}
        with _environment(**env):
            status, err = _cli(args)
        path.unlink()
        return path, status, err


@pytest.fixture(scope="module")
def files(sync: Path, tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(tmp_path_factory.mktemp("files"), sync)


def _loads(kind: str, data: bytes) -> bool:
    """Whether the bytes parse as the file's format at all (TOML, or JSON for progress)."""
    import tomllib

    try:
        text = data.decode("utf-8")
        json.loads(text) if kind == "progress" else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@EXAMPLES
@given(kind=st.sampled_from(["policy", "theme", "config", "progress"]), data=st.binary(max_size=200))
def test_random_bytes_are_one_line_and_exit_2(files: Files, kind: str, data: bytes) -> None:
    assume(not _loads(kind, data) or kind == "theme" and b"name" not in data)
    path, status, err = files.run(kind, data)
    _assert_one_line(status, err, path)


def _shape(kind: str) -> Callable[[tuple[str, Any]], bytes]:
    sounds: dict[str, dict[str, Any]] = {"policy": {"keep_dev": ["x.py"]}, "theme": {"name": "mine", "primary": "#123456"},
                                         "config": {"context": 3}}
    sound = sounds[kind]
    return lambda pair: toml_document({**sound, pair[0]: pair[1]})


@EXAMPLES
@given(data=st.one_of(POLICY_SHAPES.map(_shape("policy")).map(lambda d: ("policy", d)),
                      THEME_SHAPES.map(_shape("theme")).map(lambda d: ("theme", d)),
                      CONFIG_SHAPES.map(_shape("config")).map(lambda d: ("config", d)),
                      PROGRESS_SHAPES.map(lambda v: ("progress", json.dumps(v).encode()))))
def test_random_shapes_are_one_line_and_exit_2(files: Files, data: tuple[str, bytes]) -> None:
    kind, content = data
    path, status, err = files.run(kind, content)
    _assert_one_line(status, err, path)


# -- the cases of the issue, through the real command line ------------------------------------


def _subprocess(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTUAL_DRIVER": HEADLESS, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=tmp_path,
                          env=env, stdin=subprocess.DEVNULL, timeout=120, check=False)


BAD_THEMES = [
    ('primary = "notacolor"', "primary: 'notacolor' is not a colour (e.g. \"#4aa8ff\" or \"red\")"),
    ('dark = "yes"', "dark must be true or false, not 'yes'"),
    ("luminosity_spread = [1]", "luminosity_spread must be a number from 0 to 1, not [1]"),
    ('variables = { dev = "blue-ish" }', "variables.dev: 'blue-ish' is not a colour (e.g. \"#4aa8ff\" or \"red\")"),
    ('variables = { main = 3 }', "variables.main must be a string, not 3"),
    ('variables = { block-cursor-text-style = "zzz" }', "variables.block-cursor-text-style: 'zzz' is not a text "
     "style (words from: b, blink, bold, dim, i, italic, none, not, o, overline, reverse, strike, u, underline, uu)"),
    ('variables = { text = "qq" }', "variables.text: 'qq' is not a colour (e.g. \"#4aa8ff\" or \"red\")"),
]


def _bad_theme(tmp_path: Path, line: str) -> Path:
    theme = tmp_path / "config" / "workbench" / "themes" / "mine.toml"
    theme.parent.mkdir(parents=True)
    theme.write_text('name = "mine"\n' + ("" if line.startswith("primary") else 'primary = "#123456"\n') + line + "\n")
    return theme


@pytest.mark.parametrize(("line", "words"), BAD_THEMES)
def test_a_bad_user_theme_is_named_before_textual_sees_it(sync: Path, tmp_path: Path, line: str, words: str) -> None:
    theme = _bad_theme(tmp_path, line)
    with _environment(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
                      TEXTUAL_DRIVER=HEADLESS):
        status, err = _cli(["open", "--repo", str(sync)])
    assert status == 2, err
    assert err == [f"workbench: error: {theme}: {words}"]


def test_a_bad_user_theme_is_named_by_the_real_command_line(sync: Path, tmp_path: Path) -> None:
    """One of the cases above as a process (each costs a Python start, so the others run in this one)."""
    line, words = BAD_THEMES[0]
    theme = _bad_theme(tmp_path, line)
    proc = _subprocess(["open", "--repo", str(sync)], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [f"workbench: error: {theme}: {words}"]


@pytest.mark.parametrize(("content", "words"), [
    ("[]", "expected an object, found a list"),
    ('{"exercises": 5}', "exercises: expected an object, found a number"),
    ('{"exercises": {"abc": {"answers": {"no-index": "main"}}}}', 'exercises.abc.answers: an entry is not'),
])
def test_a_training_progress_file_of_the_wrong_shape(tmp_path: Path, content: str, words: str) -> None:
    progress = tmp_path / "data" / "workbench" / "training" / "t.json"
    progress.parent.mkdir(parents=True)
    progress.write_text(content)
    proc = _subprocess(["train", "sample:dev-line-dropped", "--trainee", "t"], tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"workbench: error: {progress}: cannot read training progress: {words}")
    assert lines[0].endswith("(move the file away to start afresh)")
    assert progress.read_text() == content, "the file is left as it was"


@pytest.mark.parametrize("kind", ["theme", "config", "progress"])
def test_a_settings_file_that_is_not_regular_is_refused(files: Files, kind: str) -> None:
    path, args = getattr(files, kind)(b"")
    path.unlink()
    os.mkfifo(path)
    try:
        with _environment(XDG_CONFIG_HOME=str(files.config_home), XDG_DATA_HOME=str(files.data_home),
                          TEXTUAL_DRIVER=HEADLESS):
            status, err = _cli(args)
    finally:
        path.unlink()
    _assert_one_line(status, err, path)
    assert err[0].endswith("a named pipe, not a regular file")


def test_the_repositorys_policy_file_too(builder: RepoBuilder) -> None:
    """``.workbench.toml`` in the work tree of a merge in progress: refused when huge, named when bad."""
    builder.write("a.txt", "a\nb\nc\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.txt", "a\nB\nc\n").commit("dev (#2)")
    builder.checkout("main").write("a.txt", "a\nBB\nc\n").commit("main (#3)")
    builder.checkout("dev")
    subprocess.run(["git", "merge", "-q", "main"], cwd=builder.path, capture_output=True, check=False)
    config = builder.path / ".workbench.toml"
    config.write_text('keep_dev = ["[z-a]"]\n')
    status, err = _cli(["analyze", "--repo", str(builder.path)])
    assert (status, err) == (2, ["workbench: error: .workbench.toml:1: reversed range 'z-a' in glob '[z-a]'"])
    with open(config, "wb") as handle:
        handle.truncate(9 * 1024 * 1024)
    status, err = _cli(["analyze", "--repo", str(builder.path)])
    assert status == 2 and len(err) == 1 and err[0].endswith("over the 8.0 MB limit"), err
