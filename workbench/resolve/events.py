"""What a session records: changes and the operations that apply them.

Every user action becomes one ``Event``; the journal stores events as JSON
lines, and replaying them rebuilds the session exactly, undo and redo
stacks included.  Bytes (custom hunk text) are stored base64-encoded so any
file content round-trips.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from workbench.analysis.model import FileAnalysis, Level, Signal, SignalKind
from workbench.resolve.splice import Choice, Decision


class FileChoice(str, Enum):
    """A whole-file answer (binary, modify/delete, symlink, submodule, or any file)."""

    KEEP_DEV = "keep-dev"
    TAKE_MAIN = "take-main"
    DELETE = "delete"


def chosen_oid(entry: FileAnalysis, choice: FileChoice | None) -> str | None:
    """The blob a whole-file choice leaves at the path (None: no file: delete, or a side without it)."""
    side = {FileChoice.KEEP_DEV: entry.dev, FileChoice.TAKE_MAIN: entry.main}.get(choice) if choice else None
    return side.oid if side is not None else None


FILE_CHOICE_LABEL = {FileChoice.KEEP_DEV: "keep dev's", FileChoice.TAKE_MAIN: "take main's", FileChoice.DELETE: "delete"}
"""Words before the path in an undo label: "keep dev's docs/logo.png"."""


def decision_label(decision: Decision | None) -> str:
    """How an undo label names a hunk decision: "take main in hunk 3 of a.py"."""
    if decision is None:
        return "undecide"
    return {
        Choice.MAIN: "take main",
        Choice.DEV: "take dev",
        Choice.BOTH: "both (dev, main)",
        Choice.BOTH_MAIN_FIRST: "both (main, dev)",
        Choice.CUSTOM: "edit",
        Choice.RESULT: "keep the result",
        Choice.MERGED: "restore git's merge",
    }[decision.choice]


class Field(str, Enum):
    """Which piece of state a change sets."""

    HUNK = "hunk"
    FILE = "file"
    NOTE = "note"


Value = Decision | FileChoice | str | None


@dataclass(frozen=True, slots=True)
class Change:
    """One piece of state set from ``before`` to ``after`` (both kept for undo)."""

    field: Field
    path: str
    index: int | None
    before: Value
    after: Value


class Op(str, Enum):
    DO = "do"
    UNDO = "undo"
    REDO = "redo"
    WRITTEN = "written"


@dataclass(frozen=True, slots=True)
class Event:
    """One session operation, as persisted."""

    op: Op
    changes: tuple[Change, ...] = ()
    label: str = ""
    """What the user did, for the undo/redo status line ("take main in hunk 3")."""
    path: str | None = None
    """For WRITTEN: the file written."""
    oid: str | None = None
    """For WRITTEN: the blob id now on disk (None: the file was deleted)."""
    at: float = field(default_factory=time.time)
    disk: tuple[tuple[str, str | None], ...] = ()
    """For DO: what the work tree held at each changed path when the decision was made (None: no file).
    A later run compares it with the file as it finds it: a hand resolution made since is never
    overwritten without asking."""
    evidence: str = ""
    """For WRITTEN: the file's and each hunk's risk evidence when written (compact JSON, ``provenance``):
    the file then holds the decision, and a later analysis of it would no longer see the risk."""

    def to_json(self) -> dict[str, Any]:
        return {
            "op": self.op.value,
            "changes": [_change_to_json(c) for c in self.changes],
            "label": self.label,
            "path": self.path,
            "oid": self.oid,
            "at": self.at,
            **({"disk": [list(pair) for pair in self.disk]} if self.disk else {}),
            **({"evidence": self.evidence} if self.evidence else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(
            op=Op(data["op"]),
            changes=tuple(_change_from_json(c) for c in data.get("changes", [])),
            label=str(data.get("label", "")),
            path=data.get("path"),
            oid=data.get("oid"),
            at=float(data.get("at", 0.0)),
            disk=tuple((str(path), None if oid is None else str(oid)) for path, oid in data.get("disk", [])),
            evidence=str(data.get("evidence", "")),
        )


def _change_to_json(change: Change) -> dict[str, Any]:
    return {
        "field": change.field.value,
        "path": change.path,
        "index": change.index,
        "before": _value_to_json(change.before),
        "after": _value_to_json(change.after),
    }


def _change_from_json(data: dict[str, Any]) -> Change:
    kind = Field(data["field"])
    return Change(
        field=kind,
        path=str(data["path"]),
        index=data.get("index"),
        before=_value_from_json(kind, data.get("before")),
        after=_value_from_json(kind, data.get("after")),
    )


def _value_to_json(value: Value) -> Any:
    if value is None or isinstance(value, str) and not isinstance(value, FileChoice):
        return value
    if isinstance(value, FileChoice):
        return value.value
    text = None if value.text is None else base64.b64encode(value.text).decode("ascii")
    return {"choice": value.choice.value, "text": text}


def _value_from_json(kind: Field, data: Any) -> Value:
    if data is None:
        return None
    if kind is Field.NOTE:
        return str(data)
    if kind is Field.FILE:
        return FileChoice(data)
    text = data.get("text")
    return Decision(Choice(data["choice"]), None if text is None else base64.b64decode(text))


Evidence = tuple[int, str, tuple[Signal, ...]]
"""(risk, level, signals) of a file or a hunk."""


def evidence_json(entry: FileAnalysis) -> str:
    """The file's and every hunk's evidence, for a WRITTEN event."""
    data = {"file": _pack(entry.risk, entry.level, entry.signals),
            "hunks": [_pack(h.risk, h.level, h.signals) for h in entry.hunks]}
    return json.dumps(data, separators=(",", ":"))


def _pack(risk: int, level: Level, signals: tuple[Signal, ...]) -> list[object]:
    return [risk, level.value, [[s.kind.value, s.message, list(s.commits), s.weight] for s in signals]]


def evidence_from_json(data: list[object]) -> Evidence:
    """One packed evidence back as (risk, level, signals); a TypeError or ValueError when it is not one."""
    risk, level, signals = data
    if not isinstance(risk, int) or not isinstance(signals, list):
        raise TypeError("evidence is not [risk, level, signals]")
    return risk, str(level), tuple(
        Signal(SignalKind(kind), str(message), tuple(str(c) for c in commits), int(weight))
        for kind, message, commits, weight in signals
    )
