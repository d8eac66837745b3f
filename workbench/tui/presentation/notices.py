"""What the toasts and dialogs of writing and quitting say."""

from __future__ import annotations

from workbench.analysis.model import Mode
from workbench.resolve.writer import WriteCheck
from workbench.textsafe import visible
from workbench.wording import plural


def quit_question(dirty: int, blocked: list[WriteCheck]) -> str:
    """The quit dialog's words: how many files hold unwritten decisions, and why some cannot be written yet."""
    has = "files have" if dirty != 1 else "file has"
    words = (f"{dirty} {has} decisions not written to the work tree yet. "
             "They are saved and come back when you reopen this sync.")
    if not blocked:
        return words
    if len(blocked) == dirty:
        words += "\n\nNothing can be written yet:"
    else:
        words += f"\n\n{plural(len(blocked), 'file')} cannot be written yet:"
    for check in blocked[:5]:
        words += f"\n  {visible(check.message)}"
    if len(blocked) > 5:
        words += f"\n  … and {len(blocked) - 5} more"
    return words


def write_summary(written: list[str], deleted: list[str], mode: Mode) -> str:
    """What ``w`` did, in one sentence: a deleted file is said to be deleted (and named), never "written"."""
    parts = []
    if written:
        parts.append(f"{plural(len(written), 'file')} written")
    if deleted:
        gone = visible(deleted[0]) if len(deleted) == 1 else plural(len(deleted), "file")
        parts.append(f"{gone} deleted")
    done = " and ".join(parts)
    if mode is Mode.MERGETOOL:
        # git mergetool hands the tool one file (MERGED) and stages it once the tool exits successfully.
        if deleted:
            return f"{done}: git stages the deletion when the tool exits (q)."
        named = f"{visible(written[0])} written" if len(written) == 1 else done
        return f"{named} to the work tree: git stages it when the tool exits (q)."
    if mode is Mode.IN_PROGRESS:
        if not deleted:
            return f"{done} and staged."
        if not written:
            return f"{done} and the deletion{'s' if len(deleted) != 1 else ''} staged."
        return f"{done}, all staged."
    if deleted and not written:
        return f"{done} from the work tree (commit a fix-up)."
    return f"{done} {'to' if not deleted else 'in'} the work tree (commit a fix-up)."
