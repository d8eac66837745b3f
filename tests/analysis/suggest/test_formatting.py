"""The repository's formatters, read as data and run (when installed) over main's text in place."""

from __future__ import annotations

import pytest

from workbench.analysis.suggest.formatting import (
    BlackSettings,
    FormatterConfig,
    _black_mode,
    _regions_after,
    load_formatters,
    read_formatter_config,
    reflow,
    sort_imports,
)

PYPROJECT = b"""
[tool.black]
line-length = 40
skip_string_normalization = true
skip-magic-trailing-comma = true

[tool.isort]
profile = "black"
line_length = 40
known_first_party = ["pkg"]
"""


def test_the_configuration_is_read_as_data_from_pyproject_isort_cfg_or_setup_cfg() -> None:
    config = read_formatter_config(lambda path: PYPROJECT if path == "pyproject.toml" else None)
    assert config is not None and config.black == BlackSettings(40, False, False, False, "")
    assert config.isort is not None and dict(config.isort)["known_first_party"] == ["pkg"]
    setup = b"[isort]\nprofile = black\nforce_single_line = true\nline_length = 79\n"
    only_isort = read_formatter_config(lambda path: setup if path == "setup.cfg" else None)
    assert only_isort is not None and only_isort.black is None and only_isort.source == "setup.cfg"
    assert dict(only_isort.isort or ())["force_single_line"] is True and dict(only_isort.isort or ())["line_length"] == 79
    assert read_formatter_config(lambda path: None) is None
    assert read_formatter_config(lambda path: b"[tool.black\n" if path == "pyproject.toml" else None) is None, \
        "a file that is not TOML configures nothing"


def test_black_targets_the_versions_the_repository_names_as_its_command_line_reads_them() -> None:
    black = pytest.importorskip("black")
    inferred = b'[project]\nrequires-python = ">=3.10"\n[tool.black]\nline-length = 100\n'
    config = read_formatter_config(lambda path: inferred if path == "pyproject.toml" else None)
    assert config is not None and config.black is not None and config.black.requires_python == ">=3.10"
    found = _black_mode(config.black)
    assert found is not None and found[1].target_versions == {v for v in black.TargetVersion if v.value >= 10}
    named = read_formatter_config(lambda path: b'[tool.black]\ntarget-version = ["py39"]\n' if path == "pyproject.toml" else None)
    assert named is not None and named.black is not None and named.black.target_versions == ("py39",)
    found = _black_mode(named.black)
    assert found is not None and found[1].target_versions == {black.TargetVersion.PY39}
    guessed = _black_mode(BlackSettings())
    assert guessed is not None and guessed[1].target_versions == set(), "neither written: black guesses per file"


def test_a_reflowed_region_is_taken_only_when_no_edit_straddles_its_edges() -> None:
    old = [b"a\n", b"b\n", b"c\n", b"d\n", b"e\n"]
    new = [b"A\n", b"b\n", b"C1\n", b"C2\n", b"d\n", b"e\n"]
    assert _regions_after(old, new, [(2, 3), (0, 1), (1, 2), (3, 5)]) == [
        (b"C1\n", b"C2\n"), (b"A\n",), (b"b\n",), (b"d\n", b"e\n")]
    joined = [b"a\n", b"bc\n", b"d\n", b"e\n"]
    assert _regions_after(old, joined, [(1, 2), (1, 3)]) == [None, (b"bc\n",)], "b and c joined: only a region holding both"


def test_black_lays_out_only_the_regions_asked_in_their_context() -> None:
    pytest.importorskip("black")
    config = FormatterConfig(BlackSettings(40, False, False, False, ""), None)
    lines = [b"def f():\n", b"    x = call(first_argument, second_argument)\n", b"    y  =  1\n"]
    out = reflow(lines, [(1, 2)], config)
    assert out == [(b"    x = call(\n", b"        first_argument, second_argument\n", b"    )\n")]
    assert reflow(lines, [(2, 3)], config) == [(b"    y = 1\n",)]
    assert reflow([b"def f(:\n"], [(0, 1)], config) == [None], "code black cannot parse gets no reflowed text"
    wrong_version = FormatterConfig(BlackSettings(40, False, False, False, "1"), None)
    assert reflow(lines, [(1, 2)], wrong_version) == [None], "another black than the repository requires lays out otherwise"


def test_isort_sorts_a_hunk_s_imports_with_the_repository_s_settings() -> None:
    pytest.importorskip("isort")
    config = FormatterConfig(None, (("profile", "black"), ("known_first_party", ["pkg"])))
    lines = (b"from pkg.a import y\n", b"from pkg.a import x\n")
    assert sort_imports(lines, config) == (b"from pkg.a import x, y\n",)
    assert sort_imports(lines, FormatterConfig(None, (("no_such_setting", 1),))) is None


def test_the_formatters_are_imported_only_for_texts_they_would_lay_out(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr("workbench.analysis.suggest.formatting._module", lambda name: asked.append(name))
    config = FormatterConfig(BlackSettings(line_length=71), (("line_length", 71),))
    load_formatters(config, [(), ()])
    assert asked == [], "no main text to lay out: neither is imported"
    load_formatters(config, [(), (b"x = 1\n",)])
    assert asked == ["black"]
    load_formatters(FormatterConfig(BlackSettings(line_length=72), (("line_length", 72),)), [(b"import os\n",)])
    assert asked == ["black", "black", "isort"]
