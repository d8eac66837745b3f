"""The per-repository sync policy: which files come from main, which stay dev's.

Read from ``.workbench.toml`` at the repository root (or ``[tool.workbench]``
in ``pyproject.toml``), or a built-in preset (``--policy megatron``)::

    preset = "megatron"              # optional: start from a preset, then add
    override_from_main = ["megatron/training/training.py"]
    keep_dev = [".github/CODEOWNERS"]
    coupled = [["pyproject.toml", "uv.lock", "docker/Dockerfile.ci.dev"]]
    sync_bots = ["sync-bot[bot]"]    # authors whose commits are the sync's own, never a side's intent
    [notes]
    "uv.lock" = "Regenerate with `uv lock`, never edit by hand."

Globs match the whole path from the repository root: ``*`` and ``?`` stop
at ``/``, ``**`` crosses directories.  Every error names the file and line.
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from workbench.analysis.model import PolicyRule
from workbench.analysis.policy.glob import Glob, compile_glob
from workbench.analysis.policy.presets import PRESETS
from workbench.configfile import read_config
from workbench.errors import WorkbenchError

KEEP_DEV: Final = "keep-dev"
OVERRIDE_FROM_MAIN: Final = "override-from-main"
COUPLED: Final = "coupled"
NOTE: Final = "note"
KEYS = ("preset", "override_from_main", "keep_dev", "coupled", "notes", "sync_bots")
TABLE = "tool.workbench"


@dataclass(frozen=True)
class Rule:
    """One glob of the policy, and where it is written (``.workbench.toml:4``)."""

    pattern: str
    source: str
    glob: Glob = field(compare=False, repr=False)

    def matches(self, path: str) -> bool:
        return self.glob.matches(path)


@dataclass(frozen=True)
class Policy:
    """A sync policy: rules by kind, with where each one came from."""

    name: str
    source: str
    override_from_main: tuple[Rule, ...] = ()
    keep_dev: tuple[Rule, ...] = ()
    coupled: tuple[tuple[Rule, ...], ...] = ()
    notes: tuple[tuple[Rule, str], ...] = field(default=())
    sync_bots: tuple[str, ...] = ()
    """Author names whose commits are the sync's own (its bot's): never read as dev's or main's intent."""

    def keep_dev_rule(self, path: str) -> Rule | None:
        return next((r for r in self.keep_dev if r.matches(path)), None)

    def override_rule(self, path: str) -> Rule | None:
        return next((r for r in self.override_from_main if r.matches(path)), None)

    def group_of(self, path: str) -> tuple[Rule, ...] | None:
        return next((g for g in self.coupled if any(r.matches(path) for r in g)), None)

    def notes_for(self, path: str) -> tuple[str, ...]:
        return tuple(text for rule, text in self.notes if rule.matches(path))

    def rule_name(self, path: str) -> PolicyRule | None:
        """The rule that applies to ``path`` (keep-dev wins over override, then coupled)."""
        if self.keep_dev_rule(path):
            return KEEP_DEV
        if self.override_rule(path):
            return OVERRIDE_FROM_MAIN
        if self.group_of(path):
            return COUPLED
        return None


# -- reading a configuration ------------------------------------------------------------


def _utf8(text: bytes, label: str) -> str:
    """TOML is UTF-8: a stray byte, even in a comment, is an error naming its line, never a silent U+FFFD."""
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = text.count(b"\n", 0, exc.start) + 1
        raise WorkbenchError(f"{label}:{line}: invalid TOML: not UTF-8 (byte {exc.start + 1})") from None


def parse_policy(text: bytes | str, label: str, *, pyproject: bool = False, name: str | None = None) -> Policy:
    """The policy in a config file's text; ``label`` names it in errors (``label:line: ...``)."""
    source = _utf8(text, label) if isinstance(text, bytes) else text
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        line, message = _decode_error(exc, source)
        raise WorkbenchError(f"{label}:{line}: invalid TOML: {message}") from None
    except RecursionError:
        raise WorkbenchError(f"{label}:1: invalid TOML: nested too deeply") from None
    locate = _Locator(source, label, TABLE if pyproject else None)
    if pyproject:
        tool = data.get("tool")
        section = tool.get("workbench") if isinstance(tool, dict) else None
        if not isinstance(section, dict):
            raise WorkbenchError(f"{label}:1: no [{TABLE}] table")
        data = section
    for key in data:
        if key not in KEYS:
            raise locate.error(key, f"unknown key {key!r} (expected one of: {', '.join(KEYS)})")
    base = _preset_base(data, locate)
    return Policy(
        name=name or (base.name if base and not _has_rules(data) else label),
        source=label if base is None else f"{label} (preset {base.name})",
        override_from_main=(base.override_from_main if base else ()) + _globs(data, "override_from_main", locate),
        keep_dev=(base.keep_dev if base else ()) + _globs(data, "keep_dev", locate),
        coupled=(base.coupled if base else ()) + _groups(data, locate),
        notes=(base.notes if base else ()) + _notes(data, locate),
        sync_bots=tuple(dict.fromkeys((base.sync_bots if base else ()) + _names(data, "sync_bots", locate))),
    )


def _has_rules(data: dict[str, Any]) -> bool:
    return any(key in data for key in KEYS if key != "preset")


def _preset_base(data: dict[str, Any], locate: _Locator) -> Policy | None:
    if "preset" not in data:
        return None
    name = data["preset"]
    if not isinstance(name, str):
        raise locate.error("preset", "preset must be a string")
    if name not in PRESETS:
        raise locate.error("preset", f"unknown preset {name!r} (presets: {', '.join(sorted(PRESETS))})")
    return preset(name)


def _globs(data: dict[str, Any], key: str, locate: _Locator) -> tuple[Rule, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise locate.error(key, f"{key} must be a list of glob strings")
    return tuple(_rule(v, key, locate) for v in value)


def _names(data: dict[str, Any], key: str, locate: _Locator) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise locate.error(key, f"{key} must be a list of author names")
    return tuple(v.strip() for v in value)


def _groups(data: dict[str, Any], locate: _Locator) -> tuple[tuple[Rule, ...], ...]:
    value = data.get("coupled", [])
    ok = isinstance(value, list) and all(
        isinstance(g, list) and len(g) >= 2 and all(isinstance(v, str) and v for v in g) for g in value
    )
    if not ok:
        raise locate.error("coupled", "coupled must be a list of groups, each a list of two or more globs")
    return tuple(tuple(_rule(v, "coupled", locate) for v in group) for group in value)


def _notes(data: dict[str, Any], locate: _Locator) -> tuple[tuple[Rule, str], ...]:
    value = data.get("notes", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise locate.error("notes", "notes must be a table of glob = \"text\"")
    return tuple((_rule(glob, "notes", locate, glob), text) for glob, text in value.items())


def _rule(pattern: str, key: str, locate: _Locator, where: str | None = None) -> Rule:
    key_line = locate.line_of(key)
    line = locate.quoted_line(where or pattern, after=key_line) or key_line
    try:
        glob = compile_glob(pattern)
    except ValueError as exc:
        raise WorkbenchError(f"{locate.label}:{line}: {exc}") from None
    return Rule(pattern, f"{locate.label}:{line}", glob)


_AT = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)\s*$")


def _decode_error(exc: tomllib.TOMLDecodeError, text: str) -> tuple[int, str]:
    """tomllib's line (its message says "at line N" or "at end of document") and the message."""
    message = str(exc)
    found = _AT.search(message)
    line = getattr(exc, "lineno", None) or (int(found[1]) if found and found[1] else max(1, len(text.splitlines())))
    return line, _AT.sub("", message)


_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'([^\'\n]*)\'')


class _Locator:
    """Finds the line a key or a value is written on, for error messages and rule sources.

    The text is indexed once (every quoted string -> the lines it is on), so
    locating N rules costs N lookups, not N scans of the file.
    """

    def __init__(self, text: str, label: str, table: str | None) -> None:
        self.label = label
        self.lines = text.splitlines()
        self.start = 0
        if table is not None:
            header = re.compile(r"^\s*\[\s*" + re.escape(table).replace(r"\.", r"\s*\.\s*") + r"\s*\]")
            self.start = next((i for i, line in enumerate(self.lines) if header.match(line)), 0)
        self._keys: dict[str, int | None] = {}
        self._quoted: dict[str, list[int]] = {}
        for number, line in enumerate(self.lines[self.start:], start=self.start + 1):
            for found in _QUOTED.finditer(line):
                self._quoted.setdefault(found[1] if found[1] is not None else found[2], []).append(number)

    def line_of(self, key: str) -> int | None:
        """The first line (at or after the table) that sets ``key`` or opens its table."""
        if key not in self._keys:
            pattern = re.compile(r"^\s*(?:\[\s*)?[\"']?" + re.escape(key) + r"[\"']?\s*[=.\]]")
            self._keys[key] = next(
                (i + 1 for i in range(self.start, len(self.lines)) if pattern.search(self.lines[i])), None
            )
        return self._keys[key]

    def quoted_line(self, text: str, after: int | None) -> int | None:
        """The first line, from line ``after`` on, holding ``text`` in quotes."""
        numbers = self._quoted.get(text, ())
        at = bisect_left(numbers, max(self.start + 1, after or 1))
        return numbers[at] if at < len(numbers) else None

    def error(self, key: str, message: str) -> WorkbenchError:
        return WorkbenchError(f"{self.label}:{self.line_of(key) or self.start + 1}: {message}")


def preset(name: str) -> Policy:
    """A built-in policy by name."""
    return parse_policy(PRESETS[name], f"preset {name}", name=name)


ReadConfig = Callable[[], "tuple[str, bytes] | None"]
ReadFile = Callable[[Path], bytes]


def _read_policy_file(path: Path) -> bytes:
    return read_config(path, "policy file")


def load_policy(spec: str | None, repo_config: ReadConfig, read_file: ReadFile = _read_policy_file) -> Policy | None:
    """The policy ``--policy`` names: a preset, a config file, or (None) the repository's own.

    A repository without a configuration has no policy.  Bad input is a
    one-line ``WorkbenchError`` naming the file and line.
    """
    if spec is None:
        found = repo_config()
        if found is None:
            return None
        label, text = found
        return parse_policy(text, label, pyproject=label.endswith("pyproject.toml"))
    if spec in PRESETS:
        return preset(spec)
    path = Path(spec)
    try:
        text = read_file(path)
    except FileNotFoundError:
        raise WorkbenchError(
            f"unknown policy {spec!r}: not a preset ({', '.join(sorted(PRESETS))}) and no such file"
        ) from None
    return parse_policy(text, spec, pyproject=path.name == "pyproject.toml")
