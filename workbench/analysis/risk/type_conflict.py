"""A path whose sides hold different types: what each side did, and what each choice loses.

git cannot merge a file with a symlink, a submodule or a directory: it
moves one side's version aside (``link~HEAD``, ``d~HEAD``) and leaves the
path conflicted, even under ``-X theirs``.  Whichever side is kept, the
other side's change is lost (dev's new file, main's new link target, main's
whole directory), so the conflict weighs as much as a binary both sides
changed until the result holds one of them, and the sentence says which.
"""

from __future__ import annotations

from workbench.analysis.model import FileAnalysis, Side, Signal, SignalKind, Whose
from workbench.analysis.risk.signals import kind_weight
from workbench.git.types import BLOB_MODES, FileMode

TYPE_CONFLICT_WEIGHT = kind_weight(SignalKind.TYPE_CONFLICT)
"""Dev and main hold different types at the path: keeping either loses the other's change."""


def type_conflict(entry: FileAnalysis, state: str) -> Signal | None:
    """The signal for a path whose sides hold different types, or None.

    ``state``: what the result holds (``pending``, ``absent``, ``main``, ``dev``, ``other``; see ``files._state``).
    """
    if entry.directory is None and not (entry.dev.present and entry.main.present
                                        and _kind(entry.dev) != _kind(entry.main)):
        return None
    dev, main = _did(entry, "dev"), _did(entry, "main")
    head = f"dev {dev}; main {main}"
    keep_dev, take_main = f"main's {_what(entry, 'main')}", f"dev's {_what(entry, 'dev')}"
    tail = {
        "pending": f": git cannot merge them and left the path conflicted; keeping dev's loses {keep_dev}, "
                   f"taking main's loses {take_main}",
        "main": f", and the result has main's: {take_main} is lost",
        "dev": f", and the result has dev's: {keep_dev} is lost",
        "absent": f", and the result has neither: {take_main} and {keep_dev} are lost",
        "other": ", and the result has something else there",
    }[state]
    weight = 0 if state == "other" else TYPE_CONFLICT_WEIGHT
    commits = tuple(c.sha for c in (*entry.history.dev, *entry.history.main))
    return Signal(SignalKind.TYPE_CONFLICT, head + tail, commits, weight)


def _kind(side: Side) -> str:
    if side.mode == FileMode.SYMLINK:
        return "symlink"
    if side.mode == FileMode.GITLINK:
        return "submodule"
    return "file" if side.mode in BLOB_MODES else "nothing"


def _named(side: Side) -> str:
    kind = _kind(side)
    return {"file": "a regular file", "symlink": "a symlink", "submodule": "a submodule"}.get(kind, kind)


def _did(entry: FileAnalysis, whose: Whose) -> str:
    """What ``whose`` did to the path since the base, in a few words."""
    side = entry.dev if whose == "dev" else entry.main
    base = entry.base
    if entry.directory == whose:
        return f"replaced the {_kind(base)} with a directory" if base.present else "added a directory there"
    if not side.present:
        return "deleted it"
    if not base.present:
        return f"added {_named(side)}"
    if _kind(side) != _kind(base):
        return f"turned the {_kind(base)} into {_named(side)}"
    if side.oid == base.oid:
        return f"kept the {_kind(side)}"
    return {"symlink": "changed the symlink's target", "submodule": "moved the submodule to another commit"}.get(
        _kind(side), "changed the file")


def _what(entry: FileAnalysis, whose: Whose) -> str:
    """What keeping the other side loses of ``whose``'s."""
    side = entry.dev if whose == "dev" else entry.main
    if entry.directory == whose:
        return f"directory {entry.path}/"
    kind = _kind(side)
    if kind == "symlink" and entry.base.present and _kind(entry.base) == "symlink":
        return "symlink target"
    return {"file": "file", "symlink": "symlink", "submodule": "submodule commit"}.get(kind, "version")
