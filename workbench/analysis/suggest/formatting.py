"""Main's text laid out as dev's formatter would: black and isort, configured by the repository, read as data.

The sync's humans and agents run the repository's formatters over what they
take from main, so the text that ships is often main's reflowed.  The
configuration is read from dev's tree (``pyproject.toml``'s ``[tool.black]``
and ``[tool.isort]``, ``.isort.cfg``, ``setup.cfg``'s ``[isort]``) as data;
nothing of the repository runs.  The formatters are this tool's optional
dependencies, imported only when a repository configures them: without them,
or when the installed black is not the version the repository requires,
nothing is reflowed.
"""

from __future__ import annotations

import configparser
import importlib
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from workbench.analysis.xdiff import diff_lines, joined, split_lines

ReadFile = Callable[[str], bytes | None]
"""A file of dev's tree by path (None when absent)."""

_ISORT_FILES = ((".isort.cfg", "settings"), (".isort.cfg", "isort"), ("setup.cfg", "isort"), ("tox.ini", "isort"))
_BOOL = re.compile(r"^(true|false)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BlackSettings:
    """The ``[tool.black]`` options that change layout."""

    line_length: int = 88
    string_normalization: bool = True
    magic_trailing_comma: bool = True
    preview: bool = False
    required_version: str = ""


@dataclass(frozen=True, slots=True)
class FormatterConfig:
    """Which formatters dev's tree configures, and how."""

    black: BlackSettings | None = None
    isort: tuple[tuple[str, Any], ...] | None = None
    """isort's settings as read, name and value."""
    source: str = ""
    """Where they were read (e.g. ``pyproject.toml``)."""


def read_formatter_config(read: ReadFile) -> FormatterConfig | None:
    """The formatters dev's tree configures, or None (nothing configured, or unreadable configuration)."""
    black: BlackSettings | None = None
    isort: dict[str, Any] | None = None
    sources: list[str] = []
    pyproject = _toml(read("pyproject.toml"))
    tool = pyproject.get("tool", {}) if isinstance(pyproject.get("tool"), dict) else {}
    if isinstance(tool.get("black"), dict):
        black = _black_settings(tool["black"])
        sources.append("pyproject.toml")
    if isinstance(tool.get("isort"), dict):
        isort = {str(k).replace("-", "_"): v for k, v in tool["isort"].items()}
        sources[:] = ["pyproject.toml"]
    if isort is None:
        for path, section in _ISORT_FILES:
            found = _ini_section(read(path), section)
            if found is not None:
                isort = found
                sources.append(path)
                break
    if black is None and isort is None:
        return None
    return FormatterConfig(black, tuple(sorted(isort.items())) if isort is not None else None, ", ".join(sources))


def _toml(data: bytes | None) -> dict[str, Any]:
    if not data:
        return {}
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _black_settings(table: Mapping[str, Any]) -> BlackSettings:
    get = {str(k).replace("-", "_"): v for k, v in table.items()}.get
    length = get("line_length")
    return BlackSettings(
        line_length=length if isinstance(length, int) and length > 0 else 88,
        string_normalization=not bool(get("skip_string_normalization", False)),
        magic_trailing_comma=not bool(get("skip_magic_trailing_comma", False)),
        preview=bool(get("preview", False)),
        required_version=str(get("required_version", "") or ""),
    )


def _ini_section(data: bytes | None, section: str) -> dict[str, Any] | None:
    if not data:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(data.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return None
    if not parser.has_section(section):
        return None
    return {key.replace("-", "_"): _ini_value(value) for key, value in parser.items(section)}


def _ini_value(value: str) -> Any:
    text = value.strip()
    if _BOOL.match(text):
        return text.lower() == "true"
    if text.isdigit():
        return int(text)
    if "," in text or "\n" in text:
        return [part.strip() for part in re.split(r"[,\n]", text) if part.strip()]
    return text


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def formatters_available(config: FormatterConfig) -> bool:
    """Whether any formatter the repository configures is installed here (and in the version it requires)."""
    return _black(config) is not None or _isort(config) is not None


def _black(config: FormatterConfig) -> tuple[ModuleType, Any] | None:
    settings = config.black
    if settings is None:
        return None
    black = _module("black")
    if black is None:
        return None
    wanted = settings.required_version
    if wanted and not (black.__version__ == wanted or black.__version__.startswith(wanted + ".")):
        return None
    mode = black.Mode(
        line_length=settings.line_length,
        string_normalization=settings.string_normalization,
        magic_trailing_comma=settings.magic_trailing_comma,
        preview=settings.preview,
    )
    return black, mode


def _isort(config: FormatterConfig) -> tuple[ModuleType, Any] | None:
    if config.isort is None:
        return None
    isort = _module("isort")
    if isort is None:
        return None
    try:
        return isort, isort.Config(**dict(config.isort))
    except Exception:  # noqa: BLE001 - isort refuses settings it does not know; then it is not used
        return None


def sort_imports(lines: Sequence[bytes], config: FormatterConfig) -> tuple[bytes, ...] | None:
    """``lines`` with their imports sorted as the repository's isort would, or None (no isort, or not text)."""
    found = _isort(config)
    if found is None:
        return None
    isort, settings = found
    try:
        text = joined(lines).decode("utf-8")
        return tuple(split_lines(isort.code(text, config=settings).encode("utf-8")))
    except Exception:  # noqa: BLE001 - isort fails on text it cannot read: no candidate
        return None


def reflow(lines: Sequence[bytes], regions: Sequence[tuple[int, int]], config: FormatterConfig) -> list[tuple[bytes, ...] | None]:
    """Each region (0-based, end excluded) of the file ``lines`` as black lays it out in place, or None.

    One black run formats every region (black's ``line_ranges``); a region
    gets its new lines only when black changed nothing outside it, so the
    reflowed text replaces exactly the region.
    """
    found = _black(config)
    wanted = [(start, end) for start, end in regions if end > start]
    if found is None or not wanted:
        return [None] * len(regions)
    black, mode = found
    try:
        source = joined(lines).decode("utf-8")
        out = black.format_file_contents(source, fast=True, mode=mode, lines=[(s + 1, e) for s, e in wanted])
    except black.NothingChanged:
        return [tuple(lines[start:end]) for start, end in regions]
    except Exception:  # noqa: BLE001 - black refuses code it cannot parse: no reflowed candidate
        return [None] * len(regions)
    new = split_lines(out.encode("utf-8"))
    return _regions_after(lines, new, regions)


def _regions_after(old: Sequence[bytes], new: Sequence[bytes], regions: Sequence[tuple[int, int]]) -> list[tuple[bytes, ...] | None]:
    """Each region's lines in ``new``, when no edit from ``old`` to ``new`` straddles its edges.

    An edit belongs to a region when it changes lines inside it or inserts at
    or between them; one that changes lines on both sides of an edge makes the
    region's new text unknowable, and the region gets None.
    """
    script = diff_lines(old, new)
    out: list[tuple[bytes, ...] | None] = []
    for start, end in regions:
        before = inside = 0
        whole = start < end
        for i1, chg1, _i2, chg2 in script:
            if i1 + chg1 < start or (chg1 and i1 + chg1 == start):
                before += chg2 - chg1
            elif i1 > end or (chg1 and i1 == end):
                break
            elif start <= i1 and i1 + chg1 <= end:
                inside += chg2 - chg1
            else:
                whole = False
        out.append(tuple(new[start + before : end + before + inside]) if whole else None)
    return out
