"""The main screen's left pane: the worklist or the file list, which one shows, and the worklist kept on the item
the user is in.  A helper the screen owns (like ``Panes``), so the screen stays wiring."""

from __future__ import annotations

from typing import Protocol

from workbench.services import worklist
from workbench.services.cursor import Cursor, opening_hunk
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import ViewHost
from workbench.tui.config import StartPane
from workbench.tui.screens.panes import Panes
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.worklist import WorklistPanel


class LeftHost(ViewHost, Protocol):
    """What the left pane needs of the screen: the keys' view of it, and the panes it draws."""

    panes: Panes


class LeftPane:
    """Which of the worklist and the file list shows on the left, and moves made from the worklist."""

    def __init__(self, screen: LeftHost) -> None:
        self.screen = screen
        self.browsing = False
        """A move onto an item in the worklist opens its hunk without taking the focus from the list."""

    @property
    def showing(self) -> str:
        """"items" (the worklist) or "files"."""
        return "items" if self.screen.query_one(WorklistPanel).display else "files"

    def open_on_items(self, ws: Workspace, cursor: Cursor, first: str | None, start_file: str | None,
                      moved: str | None) -> str | None:
        """Once the analysis is complete: the worklist is shown, and the file to open is the first open item's
        (its hunk pending), when the settings say so, the sync has items, and no file was asked for or moved to;
        else ``first``."""
        if not (self.screen.config.start is StartPane.ITEMS and worklist.items(ws) and start_file is None
                and moved is None):
            return first
        self.show("items")
        found = worklist.item_rows(ws, worklist.ItemFilter.OPEN)
        if found and not ws.resumed:  # the first open item, where the review starts
            start = next((p for p in map(cursor.to_item, (r.item for r in found)) if p is not None), None)
            if start is not None:
                first = start.path
                cursor.pending = start.hunk if start.hunk is not None else opening_hunk(ws, first)
        self.browsing = True  # the focus stays in the worklist
        return first

    def show(self, name: str, focus: bool = True) -> None:
        """Show the worklist ("items") or the file list ("files"), focused unless ``focus`` is False."""
        screen = self.screen
        panel, files = screen.query_one(WorklistPanel), screen.query_one(FileList)
        if name == "items" and (screen.ws is None or not worklist.items(screen.ws)):
            screen.notify("This sync has no worklist items (the file list lists every file).")
            name = "files"
        panel.display, files.display = name == "items", name != "items"
        if name == "items":
            self.follow_item()
        if focus:
            (panel.options if name == "items" else files.options).focus()

    def back(self) -> None:
        """``esc``: back to the pane on the left (the file list clears its filter first)."""
        if self.showing == "items":
            self.screen.query_one(WorklistPanel).options.focus()
        else:
            self.screen.query_one(FileList).back_to_list()

    def next_filter(self) -> None:
        """``F``: the worklist lists the next of open / all / changed after the merge (and is shown)."""
        ws, panes = self.screen.ws, self.screen.panes
        if ws is None or ws.pending is not None:
            return
        panes.item_filter = panes.item_filter.next()
        panes.show_items(ws, panes.item_filter)
        if self.showing != "items":
            self.show("items")
        self.screen.notify(f"Items: {worklist.FILTER_WORDS[panes.item_filter]}.")

    def follow_item(self) -> None:
        """Highlight, in the worklist, the item the current hunk belongs to."""
        cursor = self.screen.cursor
        if self.screen.ws is not None and cursor is not None:
            found = cursor.in_item()
            self.screen.query_one(WorklistPanel).show_item(found.id if found is not None else None)

    def go_to_item(self, item_id: str, focus: bool) -> None:
        """The worklist moved onto (``focus``: chose) an item: its first undecided member."""
        screen = self.screen
        ws, cursor = screen.ws, screen.cursor
        found = ws.analysis.worklist.item(item_id) if ws is not None and ws.analysis.worklist is not None else None
        if found is None or cursor is None:
            return
        if cursor.in_item() is found:
            if focus:
                screen.focus_view()  # already in the item: enter reads on from where the user is
            return
        start = cursor.to_item(found)
        if start is None:
            screen.notify(f"{visible(found.id)} is in files git merged cleanly, which the app does not list: "
                          f"{visible(', '.join(found.paths))}. Fix them in an editor.", severity="warning")
            return
        self.browsing = not focus
        screen.go(start, focus)
