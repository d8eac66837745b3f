"""Reading a sync policy: presets, config files, globs, and errors that name the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.analysis.policy.glob import compile_glob
from workbench.analysis.policy.rules import KEEP_DEV, OVERRIDE_FROM_MAIN, load_policy, parse_policy, preset
from workbench.cli import main
from workbench.errors import WorkbenchError
from workbench.sample import RepoBuilder


def test_megatron_preset_holds_the_procedures_lists() -> None:
    policy = preset("megatron")
    assert [r.pattern for r in policy.override_from_main] == [
        "megatron/training/training.py",
        "megatron/training/initialize.py",
        "megatron/training/utils.py",
        "megatron/training/datasets/data_samplers.py",
        "megatron/core/optimizer/layer_wise_optimizer.py",
    ]
    assert [r.pattern for r in policy.keep_dev] == ["pyproject.toml", "uv.lock", "docker/Dockerfile.ci.dev", ".github/CODEOWNERS"]
    assert [[r.pattern for r in g] for g in policy.coupled] == [["pyproject.toml", "uv.lock", "docker/Dockerfile.ci.dev"]]
    assert policy.rule_name("uv.lock") == KEEP_DEV
    assert policy.rule_name("megatron/training/utils.py") == OVERRIDE_FROM_MAIN
    assert policy.rule_name("megatron/core/utils.py") is None
    assert policy.keep_dev[1].source == "preset megatron:16"


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("pyproject.toml", "pyproject.toml", True),
        ("pyproject.toml", "sub/pyproject.toml", False),
        ("docs/*.md", "docs/a.md", True),
        ("docs/*.md", "docs/x/a.md", False),
        ("docs/**/*.md", "docs/a.md", True),
        ("docs/**/*.md", "docs/x/y/a.md", True),
        ("megatron/training/**", "megatron/training/datasets/x.py", True),
        ("file?.py", "file1.py", True),
        ("file[!0-9].py", "file1.py", False),
        ("a.b", "axb", False),
    ],
)
def test_globs_match_whole_paths(pattern: str, path: str, matches: bool) -> None:
    assert compile_glob(pattern).matches(path) is matches


def test_config_extends_a_preset_and_records_where_each_rule_is() -> None:
    text = 'preset = "megatron"\n\nkeep_dev = [\n    "conf/*.yaml",\n]\n[notes]\n"conf/*.yaml" = "Dev\'s configs."\n'
    policy = parse_policy(text, ".workbench.toml")
    assert policy.keep_dev[-1].pattern == "conf/*.yaml" and policy.keep_dev[-1].source == ".workbench.toml:4"
    assert len(policy.keep_dev) == 5 and policy.source == ".workbench.toml (preset megatron)"
    assert policy.notes_for("conf/a.yaml") == ("Dev's configs.",)


def test_pyproject_table() -> None:
    text = '[project]\nname = "x"\n\n[tool.workbench]\nkeep_dev = ["uv.lock"]\n'
    policy = parse_policy(text, "pyproject.toml", pyproject=True)
    assert policy.keep_dev[0].source == "pyproject.toml:5"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('keep_dev = ["a"]\nx = [\n', ".workbench.toml:2: invalid TOML"),
        ('keep_dev = ["a"]\n\nkeep_devs = []\n', ".workbench.toml:3: unknown key 'keep_devs'"),
        ('\nkeep_dev = "uv.lock"\n', ".workbench.toml:2: keep_dev must be a list of glob strings"),
        ('override_from_main = [1]\n', ".workbench.toml:1: override_from_main must be a list"),
        ('\n\ncoupled = [["only-one"]]\n', ".workbench.toml:3: coupled must be a list of groups"),
        ('preset = "nemo"\n', ".workbench.toml:1: unknown preset 'nemo' (presets: megatron)"),
        ('keep_dev = [\n  "ok",\n  "bad[glob",\n]\n', ".workbench.toml:3: unclosed '['"),
        ('[notes]\n"a" = 3\n', ".workbench.toml:1: notes must be a table"),
    ],
)
def test_errors_name_the_file_and_line(text: str, error: str) -> None:
    with pytest.raises(WorkbenchError) as caught:
        parse_policy(text, ".workbench.toml")
    assert str(caught.value).startswith(error)
    assert "\n" not in str(caught.value)


def test_pyproject_without_the_table_is_an_error() -> None:
    with pytest.raises(WorkbenchError, match=r"^pyproject.toml:1: no \[tool.workbench\] table"):
        parse_policy("[project]\n", "pyproject.toml", pyproject=True)


def test_load_policy_by_preset_file_or_repository(tmp_path: Path) -> None:
    preset = load_policy("megatron", lambda: None)
    assert preset is not None and preset.name == "megatron"
    assert load_policy(None, lambda: None) is None
    own = load_policy(None, lambda: ("abc:.workbench.toml", b'keep_dev = ["x"]\n'))
    assert own is not None and own.keep_dev[0].source == "abc:.workbench.toml:1"
    config = tmp_path / "policy.toml"
    config.write_text('override_from_main = ["a/*.py"]\n')
    from_file = load_policy(str(config), lambda: None)
    assert from_file is not None and from_file.override_rule("a/b.py") is not None
    with pytest.raises(WorkbenchError, match="unknown policy 'nope': not a preset"):
        load_policy("nope", lambda: None)


def _tiny_sync(b: RepoBuilder) -> None:
    b.write("a.py", "A = 1\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write("a.py", "A = 2\n")
    b.commit("[dev] two (#1)")
    b.checkout("main")
    b.write("a.py", "A = 3\n")
    b.commit("three (#2)")


def test_cli_bad_policy_file_is_one_line_exit_2(builder: RepoBuilder, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _tiny_sync(builder)
    bad = tmp_path / "bad.toml"
    bad.write_text('keep_dev = ["a"]\n\ncoupled = "x"\n')
    code = main(["analyze", "--repo", str(builder.path), "--dev", "dev", "--main", "main", "--policy", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"{bad}:3: coupled must be a list" in err


def test_cli_unknown_preset_is_one_line_exit_2(builder: RepoBuilder, capsys: pytest.CaptureFixture[str]) -> None:
    _tiny_sync(builder)
    code = main(["analyze", "--repo", str(builder.path), "--dev", "dev", "--main", "main", "--policy", "nemo"])
    err = capsys.readouterr().err
    assert code == 2 and err.strip() == "workbench: error: unknown policy 'nemo': not a preset (megatron) and no such file"


def test_cli_bad_repository_config_names_the_commit_file_and_line(
    builder: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    _tiny_sync(builder)
    builder.checkout("dev")
    builder.write(".workbench.toml", 'keep_dev = ["a.py"]\nkeep_devv = []\n')
    dev = builder.commit("[dev] policy (#3)")
    code = main(["analyze", "--repo", str(builder.path), "--dev", "dev", "--main", "main"])
    err = capsys.readouterr().err
    assert code == 2 and f"{dev[:10]}:.workbench.toml:2: unknown key 'keep_devv'" in err
