"""Every action of the app, with its default keys: one table for bindings, footer, help and palette.

Keys are data (harlequin's keymap, lazygit's ``GetKeybindings``): each
``ActionSpec`` is turned into Textual ``Binding`` objects whose ``id`` is the
action's id, so a user rebinds a key in ``config.toml`` (``[keys]
take_main = "ctrl+m"``) through Textual's keymap, and the footer, the ``?``
screen and the command palette all show the keys actually in force.  The
default keys named in the issue are a public contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from textual.binding import Binding, BindingType


class Scope(str, Enum):
    """Where a binding lives (and so when it is active)."""

    APP = "app"
    SCREEN = "screen"
    LIST = "list"
    """Lists: the file list and the history panel."""
    VIEW = "view"
    """The panes that scroll with a cursor: the hunk view, the diffs, the Result and Why panes."""
    HUNKS = "hunks"
    """The hunk view's own keys (searching its text)."""
    PAGE = "page"
    """Pages over the app that scroll: help, a training reveal and score."""
    QUIZ = "quiz"
    """Training (``workbench train``) only."""


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One user action: its id (also the config key), keys and words."""

    id: str
    action: str
    """The Textual action run by the key (``action_<name>`` on the scope's node)."""
    keys: str
    """Default keys, comma separated, in Textual's key names."""
    description: str
    """A word or two for the footer."""
    help: str
    """A sentence for the help screen and the command palette."""
    scopes: tuple[Scope, ...]
    group: str
    show: bool = False
    """Shown in the footer."""
    key_display: str | None = None
    over: str | None = None
    """The screen action whose default key this one takes where it is active (the hunk view's ``/``, and its
    ``n``/``N``/``esc`` while a search is on): a deliberate shadow, not a clash (``config.key_clash``)."""


def _a(id: str, keys: str, description: str, help: str, scope: Scope | tuple[Scope, ...], group: str,
       show: bool = False, action: str | None = None, key_display: str | None = None,
       over: str | None = None) -> ActionSpec:
    scopes = scope if isinstance(scope, tuple) else (scope,)
    return ActionSpec(id, action or id, keys, description, help, scopes, group, show, key_display, over)


S, APP = Scope.SCREEN, Scope.APP
ACTIONS: tuple[ActionSpec, ...] = (
    _a("cursor_down", "j,down", "Down", "Move down (files, history, the hunk view's cursor, a page)",
       (Scope.LIST, Scope.VIEW, Scope.PAGE), "Move", key_display="j/↓"),
    _a("cursor_up", "k,up", "Up", "Move up", (Scope.LIST, Scope.VIEW, Scope.PAGE), "Move", key_display="k/↑"),
    _a("page_down", "pagedown", "Page down", "Move a page down", (Scope.LIST, Scope.VIEW, Scope.PAGE), "Move"),
    _a("page_up", "pageup", "Page up", "Move a page up", (Scope.LIST, Scope.VIEW, Scope.PAGE), "Move"),
    _a("half_page_down", "ctrl+d", "Half page down", "Move half a page down (as in vim and less): the file list, "
       "the hunk view, diffs, the Why and History panes, help", (Scope.LIST, Scope.VIEW, Scope.PAGE), "Move"),
    _a("half_page_up", "ctrl+u", "Half page up", "Move half a page up", (Scope.LIST, Scope.VIEW, Scope.PAGE),
       "Move"),
    _a("text_left", "left", "Left", "Show the start of long lines again (hunk view or diffs, from any pane)",
       (Scope.VIEW, S), "Move", action="scroll_text(-8)", key_display="←"),
    _a("text_right", "right", "Right", "Show more of long lines, which end in › when cut (hunk view or diffs, "
       "from any pane)", (Scope.VIEW, S), "Move", action="scroll_text(8)", key_display="→"),
    _a("next_lost", "g", "Lost line", "Next line the result lost (marked ✗) in this file's hunk view, wrapping "
       "around; a hunk opens on its first lost line", S, "Move"),
    _a("next_hunk", "n", "Next", "Next hunk (on to the next file after the last)", S, "Move", show=True),
    _a("prev_hunk", "p", "Prev", "Previous hunk", S, "Move"),
    _a("next_risky", "N", "Next high item", "Next open high item of the worklist: its first undecided hunk (n and p "
       "then go hunk by hunk; without a worklist, the next undecided high-risk hunk)", S, "Move"),
    _a("prev_risky", "P", "Prev high item", "Previous open high item of the worklist (its first undecided hunk)", S,
       "Move"),
    _a("next_open", "o", "Next open item", "Next open item of any level (its first undecided hunk), wrapping around; "
       "once every item is decided, the next undecided hunk", S, "Move"),
    _a("prev_open", "O", "Prev open item", "Previous open item of any level (its first undecided hunk)", S, "Move"),
    _a("toggle_items", "L", "Items/Files", "Switch the left pane between the worklist (items a decision settles, most "
       "important first; the app opens on it) and the file list", S, "Move", show=True),
    _a("item_filter", "F", "Item filter", "The worklist lists what is still open, every item, or the items a commit "
       "after the merge changed (--result later than the merge)", S, "Move"),
    _a("filter", "slash", "Filter", "Filter the file list by typing part of a path (enter keeps the filter and goes "
       "to the list, esc clears it); in the hunk view / searches instead", S, "Move", key_display="/"),
    _a("focus_files", "escape", "Back", "Back to the left pane (the worklist, or the file list); in the filter (or on "
       "a filtered list), clear the filter; while C shows a candidate, leave it undecided", S, "Move",
       key_display="esc"),
    _a("search", "slash,ctrl+f", "Search", "Search the file's text (hunk view: both sides, folds too; case is ignored "
       "unless you type a capital). Enter keeps the search, esc goes back", Scope.HUNKS, "Search", key_display="/",
       over="filter"),
    _a("next_match", "n", "Next match", "While a search is on (hunk view): the next match, wrapping around",
       Scope.HUNKS, "Search", show=True, over="next_hunk"),
    _a("prev_match", "N", "Prev match", "While a search is on (hunk view): the previous match", Scope.HUNKS,
       "Search", show=True, over="next_risky"),
    _a("end_search", "escape", "End search", "End the search: n and N move between hunks again", Scope.HUNKS,
       "Search", show=True, key_display="esc", over="focus_files"),
    _a("take_main", "m", "Main", "Take main's side for this hunk (take main's file for a whole-file choice)",
       S, "Decide", show=True),
    _a("take_dev", "d", "Dev", "Take dev's side for this hunk (keep dev's file for a whole-file choice)",
       S, "Decide", show=True),
    _a("take_both", "b", "Both", "Take both: dev's lines, then main's", S, "Decide", show=True),
    _a("take_both_main_first", "B", "Both (main first)", "Take both: main's lines, then dev's", S, "Decide"),
    _a("edit", "e", "Edit", "Edit this hunk's result in $EDITOR (or in the app when none is set)",
       S, "Decide", show=True),
    _a("keep_result", "R", "Keep result",
       "Keep what the result holds here: an edit outside git's conflicts, or a conflict you resolved by hand",
       S, "Decide"),
    _a("restore_merge", "G", "Git's merge", "An edit outside git's conflicts: restore what git's automatic merge "
       "put there (a file git's merge does not have is deleted)", S, "Decide"),
    _a("file_main", "M", "File: main", "Take main for every conflict of this file (main's whole file when it has only edits)", S, "Decide"),
    _a("file_dev", "D", "File: dev", "Take dev for every conflict of this file (dev's whole file when it has only edits)", S, "Decide"),
    _a("decide_item", "I", "Decide item", "Take one choice (main, dev, both, ...) for every undecided hunk of the "
       "current item; asks first, saying how many hunks and files; one u undoes it all", S, "Decide", show=True),
    _a("bulk", "A", "Bulk", "Take main (or dev) for every undecided hunk below a risk level, in this file or the "
       "whole sync; asks first, saying how many hunks and files; one u undoes it all", S, "Decide"),
    _a("accept", "y", "Accept", "Accept the suggestion of this hunk (or of the file: a lock file, measured values), "
       "or the candidate C shows in the Result pane; u undoes it", S, "Decide", show=True),
    _a("candidates", "C", "Candidates", "Show this hunk's next candidate resolution in the Result pane: the exact "
       "text it writes, what it keeps and drops of each side (y accepts it, esc leaves it undecided)", S, "Decide"),
    _a("accept_many", "Y", "Accept many", "Accept the suggestions of this file or the whole sync, of one rung (the "
       "evidence they stand on) or every rung; asks first, saying how many; one u undoes it all", S, "Decide"),
    _a("delete_file", "x", "Delete file", "Delete the file (binary and modify/delete files: a whole-file choice)",
       S, "Decide"),
    _a("note", "c", "Note", "Write a note on this hunk (or file): saved with the decisions and shown in reports",
       S, "Decide", show=True),
    _a("acknowledge", "K", "Acknowledge", "Acknowledge this hunk for CI: keep its decision (or what the result holds) "
       "with a reason, in .workbench/acks.toml; report --fail-on then accepts it", S, "Decide"),
    _a("undo", "u", "Undo", "Undo the last decision", S, "Decide", show=True),
    _a("redo", "ctrl+r", "Redo", "Redo what was undone", S, "Decide"),
    _a("write", "w", "Write", "Write every decided file (and stage it during a merge in progress)",
       S, "Write", show=True),
    _a("toggle_base", "a", "Base", "Show or hide the base (merge ancestor) column", S, "View"),
    _a("toggle_diffs", "v", "Diffs", "Switch between the hunk view and the result-vs-dev / result-vs-main diffs",
       S, "View"),
    _a("toggle_context", "z", "Context", "Expand or collapse all context around the hunks", S, "View"),
    _a("zoom", "f", "Zoom", "Zoom the hunk view: hide the file list and the Why/History panes (f again shows them)",
       S, "View"),
    _a("toggle_inline", "i", "Inline", "Switch the hunk view between side by side and inline (unified, word "
       "changes marked); by default it picks what fits the width", S, "View"),
    _a("toggle_wrap", "l", "Wrap", "Soft-wrap long lines in the hunk view (off: → jumps to the first difference)",
       S, "View"),
    _a("focus_history", "h", "History", "Go to the history panel (enter shows a commit's diff)", S, "View"),
    _a("reveal", "r", "Reveal", "Training: show what the maintainers shipped for this hunk, and why "
       "(your answer before the reveal is the one scored)", Scope.QUIZ, "Training", show=True),
    _a("score", "s", "Score", "Training: your agreement with what shipped, costly and harmless misses",
       Scope.QUIZ, "Training", show=True),
    _a("help", "question_mark", "Help", "Show every key", APP, "App", show=True, key_display="?"),
    _a("cycle_theme", "t", "Theme", "Switch to the next colour theme (remembered)", APP, "App"),
    _a("quit", "q", "Quit", "Quit (asks when decisions are not written yet)", APP, "App", show=True),
)

BY_ID: dict[str, ActionSpec] = {spec.id: spec for spec in ACTIONS}

FIXED_KEYS: tuple[tuple[str, str], ...] = (
    ("tab shift+tab", "Move the focus to the next pane (shift+tab: the previous)"),
    ("enter", "Open the highlighted file (file list); open or close a fold (hunk view); show a commit's diff "
              "(history); keep the filter and go to the list (filter)"),
    ("home end", "First or last file (file list)"),
    ("ctrl+p", "Command palette: every action, searchable, with its keys"),
    ("enter esc", "In the search field: keep the search (n / N then go on) / go back to where you were"),
    ("ctrl+s", "Keep the text (the in-app editor; esc cancels)"),
    ("ctrl+a", "Select all (the in-app editor; home goes to the line's start)"),
)
"""Keys that are not actions of the keymap (Textual's own, or a widget's): listed in help, not rebindable."""


def bindings(scope: Scope) -> list[BindingType]:
    """Textual bindings for one scope, each carrying its action id for rebinding."""
    return [
        Binding(
            spec.keys,
            spec.action,
            spec.description,
            show=spec.show,
            key_display=spec.key_display,
            id=spec.id,
            tooltip=spec.help,
        )
        for spec in ACTIONS
        if scope in spec.scopes
    ]


def effective_keys(overrides: Mapping[str, str]) -> dict[str, str]:
    """Action id -> the keys in force (the user's override, else the default)."""
    return {spec.id: overrides.get(spec.id, spec.keys) for spec in ACTIONS}


_NAMES = {"question_mark": "?", "slash": "/", "escape": "esc", "down": "↓", "up": "↑", "left": "←", "right": "→",
          "pagedown": "PgDn", "pageup": "PgUp"}


def display_keys(keys: str) -> str:
    """``"j,down"`` -> ``"j ↓"``: how a key list reads in help and the palette."""
    return " ".join(_NAMES.get(key.strip(), key.strip()) for key in keys.split(",") if key.strip())


def unknown_actions(overrides: Mapping[str, str]) -> list[str]:
    return sorted(set(overrides) - set(BY_ID))
