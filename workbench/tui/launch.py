"""Starting the app from the command line: settings, themes, and an early start on the analysis.

``launch`` starts the analysis *before* Textual is imported and the App is
built, so the two overlap and the file list appears sooner: in a forked
process where a second core allows (``services/sync_process.py``; the
analysis then shares its work with a process of its own, which a process
running threads must not start), read by a thread.  The App receives a
loader that hands its progress callback to that thread (the outline
arrives first) and waits for the result.  ``run_app`` runs the app
on any loader (e.g. a one-file analysis for ``git mergetool``): a loader is
called in a worker with a ``Report`` callback it may feed as it goes.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from workbench.errors import WorkbenchError
from workbench.services.sync import SyncRequest
from workbench.tui.loading import ProgressRelay, Report
from workbench.wording import plural

if TYPE_CHECKING:
    from textual.theme import Theme

    from workbench.git.repo import GitRepo
    from workbench.services.workspace import Workspace
    from workbench.tui.config import Config
    from workbench.tui.fileview import FirstLook
    from workbench.tui.screens.main import MainScreen


def launch(request: SyncRequest, *, theme: str | None = None, start_file: str | None = None) -> int:
    """Run the workbench on ``request``; returns the exit status."""
    from workbench.git.repo import GitRepo
    from workbench.git.snapshot import locate_sync

    # Bad input (no repository, unknown revision, no merge) is a one-line error
    # before the screen is taken over; this check is cheap.
    repo = GitRepo.open(request.repo)
    mode, dev, main, merge = locate_sync(repo, request.rev, request.dev, request.main)
    if start_file is not None:
        start_file = repo_relative(start_file, repo.workdir)
        commits = [dev, main, *(sha for sha in (merge, request.result and repo.resolve(request.result)) if sha)]
        if not _anywhere(repo, start_file, commits, mode == "in-progress"):
            raise WorkbenchError(f"--file {start_file}: not one of this sync's files (neither dev, main nor the "
                                 "result has it; `workbench analyze` lists them)")
    load = start_loading(request)
    if start_file is not None:
        load = require_file(load, start_file)
    return run_app(load, theme=theme, start_file=start_file)


def repo_relative(path: str, root: Path | None) -> str:
    """``--file`` as the sync names its files: ``./x`` and ``/abs/x`` in the work tree are the path from its
    root (from the current directory, as git reads paths); anything else is taken as given."""
    if root is None or not (os.path.isabs(path) or path.startswith(("./", "../"))):
        return path
    full, top = os.path.abspath(path), os.path.abspath(root)
    inside = os.path.commonpath([full, top]) == top
    return Path(os.path.relpath(full, top)).as_posix() if inside and full != top else path


def _anywhere(repo: GitRepo, path: str, commits: list[str], in_progress: bool) -> bool:
    """Whether ``path`` is in one of the commits (or the index or work tree of a merge in progress).

    A file of the sync always is, so a typo is refused at once, not after
    the whole analysis; a rename conflict's ``path~side`` is looked for as ``path``.
    """
    names = {path, path.rpartition("~")[0] or path}
    if any(repo.tree_entry(sha, name) is not None for sha in commits for name in names):
        return True
    if not in_progress:
        return False
    root = repo.workdir
    return (any(repo.index_entry(name) is not None for name in names) or bool(names & set(repo.index_unmerged()))
            or (root is not None and any(os.path.lexists(Path(root, name)) for name in names)))


def require_file(load: Callable[[Report], Workspace], path: str) -> Callable[[Report], Workspace]:
    """``load``, failing when ``path`` (``--file``) is not one of the sync's files.

    Which files the sync has is known once it is analysed; the failure takes
    the load-error path (the app exits, the command prints one line, exit 2).
    """

    def load_checked(report: Report) -> Workspace:
        workspace = load(report)
        if not any(entry.path == path for entry in workspace.files):
            raise WorkbenchError(f"--file {path}: not one of the {plural(len(workspace.files), 'file')} "
                                 "of this sync (`workbench analyze` lists them)")
        return workspace

    return load_checked


T = TypeVar("T")


def in_thread(name: str, make: Callable[[], T]) -> Future[T]:
    """``make()`` in a thread started now: its result, or what it raised, in the returned future.

    A daemon thread: a bad setting found meanwhile exits at once instead of
    waiting for it (whoever waits on the future reports what it raised).
    """
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(make())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def start_loading(request: SyncRequest) -> Callable[[Report], Workspace]:
    """Start analysing ``request`` in a thread now; the returned loader waits for it.

    Called before Textual is imported, so the outline is ready when the
    screen is.  The thread is a daemon: a bad setting found meanwhile exits
    at once instead of waiting for the analysis.
    """
    from workbench.services.sync_process import start_sync_process
    from workbench.services.workspace import Workspace

    relay = ProgressRelay(hold=HOLD_OUTLINE)
    opener = start_sync_process(request)  # forked before the thread starts: forking needs one thread
    future = in_thread("workbench-load", lambda: Workspace.open(request, relay, opener))

    def load(report: Report) -> Workspace:
        relay.attach(report)
        return future.result()

    return load


HOLD_OUTLINE = 1.5
"""Seconds the loading thread pauses after the outline until the screen listens:
Python runs one thread at a time, and starting the app first puts the file
list on screen sooner (the full analysis is a little later)."""


def load_settings(theme: str | None = None) -> tuple[Config, list[Theme]]:
    """The user's config and every theme; bad settings or an unknown theme (``--theme`` or the
    config file's ``theme``) are one-line errors."""
    from workbench.tui.config import load_config, user_theme_dir
    from workbench.tui.themes import builtin_theme_dir, load_themes

    config = load_config()
    themes = load_themes(builtin_theme_dir(), user_theme_dir())
    names = {t.name for t in themes}
    known = f"(themes: {', '.join(sorted(names))})"
    if theme is not None and theme not in names:
        raise WorkbenchError(f"no theme named {theme!r} {known}")
    if config.theme is not None and config.theme not in names:
        raise WorkbenchError(f"{config.path}: no theme named {config.theme!r} {known}")
    return config, themes


def start_first_look(make: Callable[[], Workspace]) -> Future[FirstLook]:
    """Make a first look (``Workspace.first_look``) and prepare its file in a thread now, into the returned future.

    Started before Textual is imported: the few tenths of a second of
    preparing the file's rows and syntax then overlap the app's start
    instead of following it.
    """
    from workbench.tui.fileview import FirstLook

    return in_thread("workbench-first-look", lambda: FirstLook.of(make()))  # a failure: the complete load shows


def run_app(load: Callable[[Report], Workspace], *, theme: str | None = None, start_file: str | None = None,
            screen: type[MainScreen] | None = None, first_look: Future[FirstLook] | None = None) -> int:
    """Run the app on whatever ``load`` opens (in a worker); a load failure is a one-line error.

    ``first_look``: a quicker workspace shown, read-only, until ``load``'s replaces it (``start_first_look``).
    """
    with loading_modules():
        from workbench.tui.app import WorkbenchApp
        from workbench.tui.screens.main import MainScreen

    config, themes = load_settings(theme)
    app = WorkbenchApp(load, config, themes, theme=theme, start_file=start_file, screen=screen or MainScreen,
                       first_look=first_look)
    status = app.run()
    if app.load_error is not None:
        raise WorkbenchError(app.load_error)
    if status is None:  # a crash: Textual printed the traceback and set a non-zero code
        return int(app.return_code or 0)
    return int(status)


@contextmanager
def loading_modules() -> Iterator[None]:
    """Import the app's modules with Python's cyclic collector paused, then freeze what exists.

    Importing Textual and the app makes tens of thousands of objects that
    live as long as the process, and the collector walked them again and
    again while they loaded and then on each full pass while the first
    screen was drawn.  Frozen, they are left out of every
    pass; the app unfreezes them when it exits (``WorkbenchApp.on_unmount``).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def run_quiz(repo: str | None, merge: str, result: str, trainee: str, title: str, *,
             policy: str | None = None, theme: str | None = None, risky: bool = False) -> int:
    """``workbench train``'s interactive quiz: the app on the replay (its outline shown while loading),
    answers saved per trainee."""
    from workbench.services.workspace import Workspace
    from workbench.tui.screens.quiz import QuizScreen

    def load(report: Report) -> Workspace:
        return Workspace.open_quiz(repo, merge, result, trainee, title, policy, report, risky)

    return run_app(load, theme=theme, screen=QuizScreen)
