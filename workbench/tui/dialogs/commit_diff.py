"""One commit's change to the file, opened from the history panel."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from workbench.analysis.model import Commit, Whose
from workbench.textsafe import visible
from workbench.tui.dialogs.once import OnceModal
from workbench.tui.fileview import CommitDiff
from workbench.tui.glyphs import short_sha
from workbench.tui.widgets.diff_view import DiffView


class CommitDiffScreen(OnceModal[None]):
    """The commit's message on top, its diff of the file below."""

    BINDINGS = [Binding("escape,q", "close", "Close")]

    DEFAULT_CSS = """
    CommitDiffScreen { align: center middle; }
    CommitDiffScreen > Vertical { width: 95%; height: 90%; border: thick $primary; background: $surface; }
    CommitDiffScreen #commit-head { height: auto; max-height: 8; padding: 0 1; background: $panel; }
    CommitDiffScreen DiffView { height: 1fr; }
    """

    class Ready(Message):
        """The diff was computed (posted by the worker)."""

        def __init__(self, diff: CommitDiff) -> None:
            super().__init__()
            self.diff = diff

    def __init__(self, commit: Commit, side: Whose, path: str, prepare: Callable[[], CommitDiff]) -> None:
        super().__init__()
        self._commit = commit
        self._side = side
        self._path = path
        self._prepare = prepare
        """Computes the diff (in a worker): the screen never touches the repository itself."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._head(), id="commit-head")
            yield DiffView(id="commit-diff")

    def _head(self) -> Text:
        commit = self._commit
        text = Text(no_wrap=False)
        text.append(f"{self._side} ", style="bold")
        text.append(short_sha(commit.sha), style="bold")
        if commit.pr is not None:
            text.append(f"  #{commit.pr}", style="bold")
        text.append(f"  {visible(commit.author)}  {commit.date[:10]}\n")
        text.append(visible(commit.subject), style="bold")
        body = commit.message.split("\n", 1)[1].strip() if "\n" in commit.message else ""
        if body:
            text.append("\n" + "\n".join(visible(line) for line in body.splitlines()[:4]))
        return text

    def on_mount(self) -> None:
        view = self.query_one(DiffView)
        view.set_title([(f"{visible(self._path)} ", None), ("parent", "base"), (" → ", None), (short_sha(self._commit.sha), self._side)])
        view.show((), "base", self._side, empty="computing the diff…")
        view.focus()
        self._load()

    @work(thread=True, exclusive=True)
    def _load(self) -> None:
        self.post_message(self.Ready(self._prepare()))

    def on_commit_diff_screen_ready(self, message: Ready) -> None:
        diff = message.diff
        self.query_one(DiffView).show(
            diff.rows, "base", self._side, diff.syntax.get("old"), diff.syntax.get("new"),
            empty=diff.note or "this commit does not change the file's text",
        )

    def action_close(self) -> None:
        self.dismiss(None)
