"""Main's text laid out as dev's formatter would: black and isort, configured by the repository, read as data.

The sync's humans and agents run the repository's formatters over what they
take from main, so the text that ships is often main's reflowed.  The
configuration is read from dev's tree (``pyproject.toml``'s ``[tool.black]``
and ``[tool.isort]``, ``.isort.cfg``, ``setup.cfg``'s ``[isort]``) as data;
nothing of the repository runs.  The formatters are this tool's optional
dependencies, imported only when a repository configures them: without them,
or when the installed black is not the version the repository requires,
nothing is reflowed.  Black's target versions are the repository's, as its
command line reads them (``target-version``, else ``requires-python``); with
them known, black lays out a region in a window of the file around it
(``windows.py``) rather than parsing the whole file for a few lines.
"""

from __future__ import annotations

import configparser
import functools
import importlib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from workbench.analysis.suggest.windows import windows
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
    target_versions: tuple[str, ...] = ()
    """``target-version`` as written (``py310``); empty: black's command line infers them from ``requires_python``."""
    requires_python: str = ""
    """``[project] requires-python``; empty, with no target versions, black guesses them from each file."""


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
        project = pyproject.get("project")
        requires = project.get("requires-python") if isinstance(project, dict) else None
        black = _black_settings(tool["black"], requires if isinstance(requires, str) else "")
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


def _black_settings(table: Mapping[str, Any], requires_python: str) -> BlackSettings:
    get = {str(k).replace("-", "_"): v for k, v in table.items()}.get
    length = get("line_length")
    targets = get("target_version")
    return BlackSettings(
        line_length=length if isinstance(length, int) and length > 0 else 88,
        string_normalization=not bool(get("skip_string_normalization", False)),
        magic_trailing_comma=not bool(get("skip_magic_trailing_comma", False)),
        preview=bool(get("preview", False)),
        required_version=str(get("required_version", "") or ""),
        target_versions=tuple(str(t) for t in targets) if isinstance(targets, list) else (),
        requires_python=requires_python,
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


def _black(config: FormatterConfig) -> tuple[ModuleType, Any] | None:
    return _black_mode(config.black) if config.black is not None else None


@functools.cache
def _black_mode(settings: BlackSettings) -> tuple[ModuleType, Any] | None:
    """Black and its mode for ``settings`` (None: not installed, or not the version the repository requires)."""
    black = _module("black")
    if black is None:
        return None
    wanted = settings.required_version
    if wanted and not (black.__version__ == wanted or black.__version__.startswith(wanted + ".")):
        return None
    return black, black.Mode(
        target_versions=_target_versions(black, settings),
        line_length=settings.line_length,
        string_normalization=settings.string_normalization,
        magic_trailing_comma=settings.magic_trailing_comma,
        preview=settings.preview,
    )


def _target_versions(black: ModuleType, settings: BlackSettings) -> set[Any]:
    """The versions black's command line would target: as configured, else inferred from ``requires-python``
    (empty: black guesses from each file, as it does when neither is written)."""
    if settings.target_versions:
        known = {v.name.lower(): v for v in black.TargetVersion}
        return {known[name.lower()] for name in settings.target_versions if name.lower() in known}
    if not settings.requires_python:
        return set()
    try:
        inferred = importlib.import_module("black.files").infer_target_version({"project": {"requires-python": settings.requires_python}})
    except Exception:  # noqa: BLE001 - a requirement black cannot read: it guesses, as its command line does
        return set()
    return set(inferred or ())


def _isort(config: FormatterConfig) -> tuple[ModuleType, Any] | None:
    if config.isort is None:
        return None
    return _isort_config(repr(config.isort), config.isort)


_ISORT_CONFIGS: dict[str, tuple[ModuleType, Any] | None] = {}
"""isort's configuration by its settings' repr (settings hold lists, so they are no cache key themselves)."""


def _isort_config(key: str, settings: tuple[tuple[str, Any], ...]) -> tuple[ModuleType, Any] | None:
    if key in _ISORT_CONFIGS:
        return _ISORT_CONFIGS[key]
    isort = _module("isort")
    found: tuple[ModuleType, Any] | None = None
    if isort is not None:
        try:
            found = isort, isort.Config(**dict(settings))
        except Exception:  # noqa: BLE001 - isort refuses settings it does not know; then it is not used
            found = None
    _ISORT_CONFIGS[key] = found
    return found


def is_import(line: bytes) -> bool:
    """The line starts an import statement (isort has something to sort)."""
    return line.lstrip().startswith((b"import ", b"from "))


def load_formatters(config: FormatterConfig, texts: Iterable[Sequence[bytes]]) -> None:
    """Import the formatters that laying out ``texts`` (main's lines of each hunk) will call, and none other:
    black when some text is not empty, isort when some line is an import.  Called before the work is shared
    out between processes, so that one import serves both."""
    wanted = [text for text in texts if text]
    if wanted:
        _black(config)
    if any(is_import(line) for text in wanted for line in text):
        _isort(config)


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

    Black formats every region in one run (its ``line_ranges``), in a window
    of the file around them when the target versions are known (the same
    lines as in the whole file, see ``windows.py``), else in the whole file;
    a region gets its new lines only when black changed nothing across its
    edges, so the reflowed text replaces exactly the region.  An empty
    region gets None (there is nothing to lay out).
    """
    found = _black(config)
    if found is None or not any(end > start for start, end in regions):
        return [None] * len(regions)
    _, mode = found
    grouped = windows(lines, regions) if mode.target_versions else None
    if grouped is not None:
        out: list[tuple[bytes, ...] | None] = [None] * len(regions)
        for window, members in grouped:
            laid = _laid_out(config.black, tuple(window.text(lines)), tuple(window.place(regions[k]) for k in members))
            if laid is None:  # black refused the window: the whole file decides, as without windows
                break
            for k, new in zip(members, laid, strict=True):
                out[k] = new
        else:
            return out
    return list(_laid_out(config.black, tuple(lines), tuple(regions)) or [None] * len(regions))


@functools.lru_cache(maxsize=128)
def _laid_out(
    settings: BlackSettings | None, lines: tuple[bytes, ...], regions: tuple[tuple[int, int], ...]
) -> tuple[tuple[bytes, ...] | None, ...] | None:
    """Each region of ``lines`` after one black run over them (None: empty, or an edit straddles its edges);
    None when black refuses the text.  Kept for the last texts asked: an analysis run again after a
    decision asks for the same windows of the files it did not change."""
    found = _black_mode(settings) if settings is not None else None
    if found is None:
        return None
    black, mode = found
    wanted = [(start + 1, end) for start, end in regions if end > start]
    try:
        out = black.format_file_contents(joined(lines).decode("utf-8"), fast=True, mode=mode, lines=wanted)
    except black.NothingChanged:
        return tuple(tuple(lines[start:end]) if end > start else None for start, end in regions)
    except Exception:  # noqa: BLE001 - black refuses code it cannot parse: no reflowed candidate
        return None
    return tuple(_regions_after(lines, split_lines(out.encode("utf-8")), regions))


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
