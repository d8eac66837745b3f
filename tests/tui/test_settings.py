"""Config, themes and the keymap: data the app is built from."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from workbench.errors import WorkbenchError
from workbench.tui.config import Config, key_clash, load_config, remember_theme
from workbench.tui.keymap import ACTIONS, BY_ID, Scope, bindings, display_keys, effective_keys
from workbench.tui.launch import load_settings
from workbench.tui.themes import CYCLE, VARIABLE_DEFAULTS, builtin_theme_dir, load_theme, load_themes, next_theme

ISSUE_KEYS = {
    "cursor_down": "j,down", "cursor_up": "k,up", "next_hunk": "n", "prev_hunk": "p", "next_risky": "N",
    "prev_risky": "P", "take_main": "m", "take_dev": "d", "take_both": "b", "take_both_main_first": "B",
    "edit": "e", "file_main": "M", "file_dev": "D", "undo": "u", "redo": "ctrl+r", "write": "w", "quit": "q",
    "help": "question_mark", "cycle_theme": "t",
}


def test_the_default_keys_are_the_ones_the_issue_names() -> None:
    assert {k: BY_ID[k].keys for k in ISSUE_KEYS} == ISSUE_KEYS


def test_no_key_is_bound_twice_in_one_scope() -> None:
    for scope in Scope:
        keys = [key for spec in ACTIONS if scope in spec.scopes for key in spec.keys.split(",")]
        assert len(keys) == len(set(keys)), scope


def test_bindings_carry_action_ids_for_rebinding() -> None:
    ids = {b.id for b in bindings(Scope.SCREEN) if isinstance(b, Binding)}
    assert {"take_main", "write", "next_risky"} <= ids
    assert effective_keys({"take_main": "o"})["take_main"] == "o"
    assert display_keys("j,down") == "j ↓"


def test_missing_config_means_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "none.toml") == Config(path=tmp_path / "none.toml")


def test_config_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('theme = "workbench-light"\neditor = "vi"\ncontext = 5\n[keys]\nwrite = "ctrl+w"\n')
    config = load_config(path)
    assert (config.theme, config.editor, config.context, config.keys) == ("workbench-light", "vi", 5, {"write": "ctrl+w"})
    for bad, words in (('[keys]\nfly = "f"\n', "unknown action"), ("context = -1\n", "context"),
                       ("theme = [", "config.toml"), ("theme = 3\n", "theme")):
        path.write_text(bad)
        with pytest.raises(WorkbenchError, match=words):
            load_config(path)


def test_a_key_bound_to_two_actions_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for keys, clash in (('take_main = "d"', ("d", "take_main", "take_dev")),
                        ('cursor_down = "j,m"', ("m", "cursor_down", "take_main")),
                        ('write = "q, ctrl+w"', ("q", "write", "quit"))):
        path.write_text(f"[keys]\n{keys}\n")
        key, first, second = clash
        with pytest.raises(WorkbenchError) as error:
            load_config(path)
        assert str(error.value) == (
            f"{path}: [keys] binds {key!r} to both {first} and {second}; give one of them another key"
        )
    path.write_text('[keys]\ntake_main = "d"\ntake_dev = "m"\n')
    assert load_config(path).keys == {"take_main": "d", "take_dev": "m"}, "swapping two keys is no clash"
    assert key_clash({}) is None, "the defaults give every key one action"


def test_an_unknown_theme_in_the_config_file_is_a_one_line_error(private_config: Path) -> None:
    private_config.parent.mkdir(parents=True)
    private_config.write_text('theme = "nosuch"\n')
    with pytest.raises(WorkbenchError) as error:
        load_settings()
    message = str(error.value)
    assert message.startswith(f"{private_config}: no theme named 'nosuch' (themes: ") and "workbench-light" in message
    with pytest.raises(WorkbenchError, match="no theme named 'nope'"):
        load_settings("nope")
    private_config.write_text('theme = "workbench-light"\n')
    assert load_settings()[0].theme == "workbench-light"


def test_remembering_the_theme_keeps_everything_else(tmp_path: Path) -> None:
    path = tmp_path / "workbench" / "config.toml"
    remember_theme(path, "workbench-light")
    assert path.read_text() == 'theme = "workbench-light"\n'
    path.write_text('# my settings\ntheme = "x"  # old\n\n[keys]\n# theme = "not this one"\nwrite = "W"\n')
    remember_theme(path, "workbench-high-contrast")
    assert path.read_text() == (
        '# my settings\ntheme = "workbench-high-contrast"  # old\n\n[keys]\n# theme = "not this one"\nwrite = "W"\n'
    ), "the comment after the old value stays"
    path.write_text('[keys]\nwrite = "W"\n')
    odd = 'quote " and backslash \\'
    remember_theme(path, odd)
    assert load_config(path).theme == odd and load_config(path).keys == {"write": "W"}
    assert list(path.parent.iterdir()) == [path], "no temporary file left behind"


def test_remembering_the_theme_replaces_a_quoted_theme_key_instead_of_adding_a_second(tmp_path: Path) -> None:
    """A key spelled ``"theme"`` is the same key: writing another ``theme =`` line would make the file invalid."""
    path = tmp_path / "config.toml"
    path.write_text('editor = "vim"  # mine\n"theme" = "workbench-dark" # the dark one\n\n[keys]\nwrite = "W"\n')
    remember_theme(path, "workbench-light")
    assert path.read_text() == 'editor = "vim"  # mine\n"theme" = "workbench-light" # the dark one\n\n[keys]\nwrite = "W"\n'
    assert load_config(path).theme == "workbench-light"


def test_a_config_file_that_is_not_toml_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = \n")
    with pytest.raises(ValueError):
        remember_theme(path, "workbench-light")
    assert path.read_text() == "theme = \n" and list(tmp_path.iterdir()) == [path]


def test_the_builtin_themes_define_every_app_colour() -> None:
    themes = load_themes(builtin_theme_dir())
    assert [t.name for t in themes] == list(CYCLE)
    for theme in themes:
        assert set(VARIABLE_DEFAULTS) <= set(theme.variables), theme.name
        assert theme.variables["dev"] != theme.variables["main"]
    assert [t.dark for t in themes] == [True, False, True]


def test_a_user_theme_overrides_by_name_and_joins_the_cycle(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text('name = "mine"\nprimary = "#123456"\n[variables]\ndev = "#00ff00"\n')
    themes = load_themes(builtin_theme_dir(), tmp_path)
    names = [t.name for t in themes]
    assert names[-1] == "mine" and next_theme("mine", names) == CYCLE[0]
    assert next_theme("textual-dark", names) == CYCLE[0]


def test_a_bad_theme_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nprimary = "#000"\ncolour = "red"\n')
    with pytest.raises(WorkbenchError, match="unknown field"):
        load_theme(path)
    path.write_text('primary = "#000"\n')
    with pytest.raises(WorkbenchError, match="required"):
        load_theme(path)
