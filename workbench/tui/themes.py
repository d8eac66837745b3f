"""The app's themes: TOML files in ``themes/``, turned into Textual themes.

Themes are data so that a user can add one (drop a file in
``$XDG_CONFIG_HOME/workbench/themes/``) without code.  Besides Textual's own
design colours, every theme names the app's colours as theme variables:
``$dev`` and ``$main`` (one hue per side, used by every pane), ``$base``,
``$result``, ``$risk-high/medium/low`` and ``$syntax-*``.
"""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.theme import Theme

from workbench.errors import WorkbenchError

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
    """One theme file; a bad file is a one-line error naming it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise WorkbenchError(f"cannot read theme {path}: {exc}") from None
    unknown = sorted(set(data) - _THEME_FIELDS)
    if unknown:
        raise WorkbenchError(f"theme {path}: unknown field(s) {', '.join(unknown)}")
    if not isinstance(data.get("name"), str) or not isinstance(data.get("primary"), str):
        raise WorkbenchError(f"theme {path}: 'name' and 'primary' are required strings")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise WorkbenchError(f"theme {path}: [variables] must map names to colour strings")
    return Theme(**data)


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
