"""The app's themes: TOML files in ``themes/``, turned into Textual themes.

Themes are data so that a user can add one (drop a file in
``$XDG_CONFIG_HOME/workbench/themes/``) without code.  Besides Textual's own
design colours, every theme names the app's colours as theme variables:
``$dev`` and ``$main`` (one hue per side, used by every pane), ``$base``,
``$result``, ``$risk-high/medium/low`` and ``$syntax-*``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.css.constants import VALID_STYLE_FLAGS
from textual.theme import Theme

from workbench.configfile import read_config_text
from workbench.errors import WorkbenchError
from workbench.textsafe import visible

DEFAULT_THEME = "workbench-dark"
CYCLE = ("workbench-dark", "workbench-light", "workbench-high-contrast")
"""The order ``t`` steps through (user themes follow, by name)."""

VARIABLE_DEFAULTS: dict[str, str] = {
    "dev": "#4aa8ff",
    "main": "#f2a33a",
    "base": "#9aa3b5",
    "result": "#6cc48a",
    "risk-high": "#ff5d6c",
    "risk-medium": "#e8c14e",
    "risk-low": "#6cc48a",
    "syntax-keyword": "#c792ea",
    "syntax-string": "#a5d6a7",
    "syntax-comment": "#7f8799",
    "syntax-function": "#82aaff",
    "syntax-number": "#f78c6c",
    "syntax-constant": "#f78c6c",
    "syntax-type": "#ffcb6b",
}
"""Fallbacks, so Textual's built-in themes can be used too."""

_THEME_FIELDS = {f.name for f in fields(Theme)}
_PACKAGE = Path(__file__).resolve().parents[1]


def builtin_theme_dir() -> Path:
    """``themes/`` shipped with the package (a wheel) or beside it (a checkout)."""
    for candidate in (_PACKAGE / "themes", _PACKAGE.parent / "themes"):
        if candidate.is_dir():
            return candidate
    raise WorkbenchError(f"the workbench themes are missing (looked in {_PACKAGE.parent / 'themes'})")


def load_theme(path: Path) -> Theme:
    """One theme file, checked field by field before Textual sees it: a bad file is a one-line
    error naming the file and the key (Textual would fail later, with a traceback, mid-start)."""
    text = read_config_text(path, "theme")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WorkbenchError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise WorkbenchError(f"{path}: invalid TOML: nested too deeply") from None
    unknown = sorted(set(data) - _THEME_FIELDS)
    if unknown:
        raise WorkbenchError(f"{path}: unknown field(s) {', '.join(unknown)} (fields: {', '.join(sorted(_THEME_FIELDS))})")
    if not isinstance(data.get("name"), str) or not data["name"].strip() or not isinstance(data.get("primary"), str):
        raise WorkbenchError(f"{path}: 'name' and 'primary' are required strings")
    for key in _COLOUR_FIELDS:
        if key in data:
            _check_colour(path, key, data[key])
    for key in _FLAG_FIELDS:
        if key in data and not isinstance(data[key], bool):
            raise WorkbenchError(f"{path}: {key} must be true or false, not {_shown(data[key])}")
    for key in _FRACTION_FIELDS:
        value = data.get(key, 0.0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise WorkbenchError(f"{path}: {key} must be a number from 0 to 1, not {_shown(value)}")
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise WorkbenchError(f"{path}: [variables] must map names to colour strings")
    for key, value in variables.items():
        if not isinstance(value, str):
            raise WorkbenchError(f"{path}: variables.{key} must be a string, not {_shown(value)}")
        _check_variable(path, key, value)
    return Theme(**data)


_COLOUR_FIELDS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background",
                  "surface", "panel", "boost")
_FLAG_FIELDS = ("dark", "ansi")
_FRACTION_FIELDS = ("luminosity_spread", "text_alpha")


def _check_colour(path: Path, key: str, value: object) -> None:
    if not isinstance(value, str):
        raise WorkbenchError(f"{path}: {key} must be a colour string, not {_shown(value)}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise WorkbenchError(f"{path}: {key}: {_shown(value)} is not a colour (e.g. \"#4aa8ff\" or \"red\")") from None


_AUTO = re.compile(r"auto(?: \d{1,3}%)?")


def _check_variable(path: Path, key: str, value: str) -> None:
    """A theme variable Textual's stylesheet reads must hold what its default holds: a colour, a
    text style (``bold underline``), or a colour that may be ``auto 87%``.  Others are free.

    The app's own variables are colours: asking Textual what its variables hold builds a whole colour
    system at every start, for themes that only set the app's."""
    kind = "colour" if key in VARIABLE_DEFAULTS else _variable_kinds().get(key)
    if kind == "colour":
        _check_colour(path, f"variables.{key}", value)
    elif kind == "style" and not (value.split() and set(value.split()) <= VALID_STYLE_FLAGS):
        raise WorkbenchError(f"{path}: variables.{key}: {_shown(value)} is not a text style "
                             f"(words from: {', '.join(sorted(VALID_STYLE_FLAGS))})")
    elif kind == "auto" and not _AUTO.fullmatch(value) and value != "initial":
        _check_colour(path, f"variables.{key}", value)


@lru_cache(maxsize=1)
def _variable_kinds() -> dict[str, str]:
    """What each variable Textual defines holds (judged by its default)."""
    generated = Theme(name="probe", primary="#000000").to_color_system().generate()
    kinds: dict[str, str] = {}
    for name, default in generated.items():
        try:
            Color.parse(default)
            kinds[name] = "colour"
        except ColorParseError:
            kinds[name] = "style" if name.endswith("style") else "auto"
    return kinds


def _shown(value: object) -> str:
    """A TOML value as the message quotes it: short, escaped, one line."""
    text = repr(value)
    return visible(text if len(text) <= 40 else text[:39] + "…")


def load_themes(*directories: Path | None) -> list[Theme]:
    """Every ``*.toml`` theme in the directories, later ones overriding by name."""
    found: dict[str, Theme] = {}
    for directory in directories:
        if directory is None or not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            theme = load_theme(path)
            found[theme.name] = theme
    return sorted(found.values(), key=_cycle_key)


def _cycle_key(theme: Theme) -> tuple[int, str]:
    return (CYCLE.index(theme.name) if theme.name in CYCLE else len(CYCLE), theme.name)


def next_theme(current: str, names: list[str]) -> str:
    """The theme after ``current`` in the cycle (the first when it is not ours)."""
    if not names:
        return current
    if current not in names:
        return names[0]
    return names[(names.index(current) + 1) % len(names)]
