"""Rich styles derived from the theme, built once per theme change.

Line-API widgets paint segments themselves, so they need concrete styles
rather than CSS; this module turns the theme's variables (``$dev``,
``$main``, ``$risk-high``, ...) into them: a faint tint for a changed line,
a stronger one for the changed words, the same hue for a side in every pane.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from textual.color import Color

from workbench.analysis.model import Level
from workbench.tui.syntax import KINDS

TONES = ("dev", "main", "base", "result")
LINE_TINT = 0.16
WORD_TINT = 0.42
LOST_TINT = 0.30


def _color(variables: dict[str, str], name: str, fallback: str) -> Color:
    try:
        return Color.parse(variables.get(name, fallback))
    except Exception:  # noqa: BLE001 - a theme value we cannot read falls back, never crashes a render
        return Color.parse(fallback)


@dataclass(frozen=True)
class Palette:
    """Every style a Line-API widget paints with."""

    dark: bool
    text: Style
    muted: Style
    filler: Style
    fold: Style
    header: Style
    header_current: Style
    cursor: Style
    bar: Style
    """The bar beside the current hunk's rows."""
    separator: Style
    line: dict[str, Style]
    """Tone -> the tint of a changed line."""
    word: dict[str, Style]
    """Tone -> the stronger tint of changed words."""
    hue: dict[str, Style]
    """Tone -> bold text in the tone's colour (labels, markers)."""
    risk: dict[Level, Style]
    syntax: dict[str, Style]
    lost: Style
    """The tint of a line the result lost (``$risk-high``, with a gutter mark: never colour alone)."""
    lost_mark: Style
    """The gutter mark beside a lost line."""
    found: Style
    """A search's matches (``$warning``, dark text): over every other tint."""
    found_current: Style
    """Added to ``found`` for the match the view is on (reversed, bold: never colour alone)."""


def build_palette(variables: dict[str, str], dark: bool) -> Palette:
    background = _color(variables, "background", "#000000" if dark else "#ffffff")
    foreground = _color(variables, "foreground", "#e0e0e0" if dark else "#202020")
    panel = _color(variables, "panel", "#303030" if dark else "#e0e0e0")
    accent = _color(variables, "primary", "#4a90e2")
    bg = background.rich_color
    high = _color(variables, "risk-high", "#ff5555")
    hues = {tone: _color(variables, tone, "#888888") for tone in TONES}
    warning = _color(variables, "warning", "#e0c050")
    return Palette(
        dark=dark,
        text=Style(color=foreground.rich_color, bgcolor=bg),
        muted=Style(color=background.blend(foreground, 0.45).rich_color, bgcolor=bg),
        filler=Style(color=background.blend(foreground, 0.18).rich_color, bgcolor=background.blend(panel, 0.5).rich_color),
        fold=Style(color=background.blend(foreground, 0.6).rich_color, bgcolor=panel.rich_color, italic=True),
        header=Style(color=foreground.rich_color, bgcolor=panel.rich_color, bold=True),
        header_current=Style(color=accent.get_contrast_text(1.0).rich_color, bgcolor=accent.rich_color, bold=True),
        cursor=Style(bgcolor=background.blend(accent, 0.35).rich_color),
        bar=Style(color=accent.rich_color, bgcolor=bg, bold=True),
        separator=Style(color=background.blend(foreground, 0.25).rich_color, bgcolor=bg),
        line={tone: Style(bgcolor=background.blend(hue, LINE_TINT).rich_color) for tone, hue in hues.items()},
        word={tone: Style(bgcolor=background.blend(hue, WORD_TINT).rich_color) for tone, hue in hues.items()},
        hue={tone: Style(color=hue.rich_color, bold=True) for tone, hue in hues.items()},
        risk={
            Level.HIGH: Style(color=high.rich_color, bold=True),
            Level.MEDIUM: Style(color=_color(variables, "risk-medium", "#e0c050").rich_color, bold=True),
            Level.LOW: Style(color=_color(variables, "risk-low", "#60c080").rich_color),
        },
        syntax={kind: Style(color=_color(variables, f"syntax-{kind}", "#c0c0c0").rich_color) for kind in KINDS},
        lost=Style(bgcolor=background.blend(high, LOST_TINT).rich_color),
        lost_mark=Style(color=high.rich_color, bold=True),
        found=Style(color=warning.get_contrast_text(1.0).rich_color, bgcolor=warning.rich_color),
        found_current=Style(reverse=True, bold=True, underline=True),
    )


@lru_cache(maxsize=4096)
def combine(*styles: Style | None) -> Style:
    """Styles layered left to right (cached: rows reuse a handful of combinations)."""
    out = Style()
    for style in styles:
        if style is not None:
            out = out + style
    return out


_BY_THEME: dict[str, Palette] = {}


def theme_palette(theme_name: str, variables: dict[str, str], dark: bool) -> Palette:
    """The palette of a theme, built once per theme name."""
    palette = _BY_THEME.get(theme_name)
    if palette is None:
        palette = _BY_THEME[theme_name] = build_palette(variables, dark)
    return palette
