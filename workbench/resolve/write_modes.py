"""The mode a written file gets: git's merge of the modes, or the side taken where git could not merge them.

git merges a file's mode apart from its content: one side's ``chmod +x``
stays whichever side's content ``-X ours``/``-X theirs`` takes.  When both
sides set a mode of their own (``run.sh`` added executable on dev and not
on main) git cannot merge them: it leaves the path conflicted with dev's
mode, even under ``-X theirs``.  Then the side the user took decides: a
whole-file choice, or every hunk taken from one side; any other mixture
keeps the mode the work tree has (dev's, as git writes it), and says so.
"""

from __future__ import annotations

from workbench.analysis.model import FileAnalysis
from workbench.git.types import BLOB_MODES, FileMode
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice


def modes_conflict(entry: FileAnalysis) -> bool:
    """Both sides set a file mode of their own, neither the base's: git cannot merge them."""
    base, dev, main = entry.base.mode, entry.dev.mode, entry.main.mode
    return dev in BLOB_MODES and main in BLOB_MODES and dev != main and base not in (dev, main)


def file_mode(entry: FileAnalysis, choice: FileChoice | None, taken: Choice | None) -> tuple[int, str]:
    """The mode to write and stage, and a note for the user when git could not merge the modes.

    ``taken``: the one side (DEV or MAIN) every decided hunk takes, or None.
    """
    base, dev, main = entry.base.mode, entry.dev.mode, entry.main.mode
    chosen = {FileChoice.TAKE_MAIN: main, FileChoice.KEEP_DEV: dev}.get(choice) if choice else None
    if chosen:
        if base in BLOB_MODES and dev in BLOB_MODES and main in BLOB_MODES:
            assert dev is not None and main is not None
            return (dev if main == base else main if dev == base else chosen), ""
        return chosen, ""
    if modes_conflict(entry):
        assert dev is not None and main is not None
        if taken in (Choice.DEV, Choice.MAIN):
            side, mode = ("dev", dev) if taken is Choice.DEV else ("main", main)
            return mode, f"mode {mode:o}, {side}'s: the sides' modes differ"
        kept = entry.result_mode if entry.result_mode in BLOB_MODES else dev
        return kept, (f"mode {kept:o}, as the work tree has it (dev's is {dev:o}, main's {main:o}): "
                      "take one side in every hunk, or the whole file, to choose")
    return entry.result_mode or main or dev or FileMode.REGULAR, ""
