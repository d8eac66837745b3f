"""Starting the app from the command line: settings, themes, and an early start on the analysis.

``launch`` starts the analysis in a thread *before* Textual is imported and
the App is built, so the two overlap and the file list appears sooner; the
App receives a loader that simply waits for that result.  ``run_app`` runs
the app on any loader (e.g. a one-file analysis for ``git mergetool``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from workbench.errors import WorkbenchError
from workbench.sync import SyncRequest

if TYPE_CHECKING:
    from textual.theme import Theme

    from workbench.tui.config import Config
    from workbench.tui.workspace import Workspace


def launch(request: SyncRequest, *, theme: str | None = None, start_file: str | None = None) -> int:
    """Run the workbench on ``request``; returns the exit status."""
    from workbench.git.repo import GitRepo
    from workbench.git.snapshot import locate_sync

    # Bad input (no repository, unknown revision, no merge) is a one-line error
    # before the screen is taken over; this check is cheap.
    locate_sync(GitRepo.open(request.repo), request.rev, request.dev, request.main)
    load_settings(theme)
    from workbench.tui.workspace import Workspace

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="workbench-load")
    future = pool.submit(Workspace.open, request)
    pool.shutdown(wait=False)
    return run_app(future.result, theme=theme, start_file=start_file)


def load_settings(theme: str | None = None) -> tuple[Config, list[Theme]]:
    """The user's config and every theme; bad settings or an unknown ``theme`` are one-line errors."""
    from workbench.tui.config import load_config, user_theme_dir
    from workbench.tui.themes import builtin_theme_dir, load_themes

    config = load_config()
    themes = load_themes(builtin_theme_dir(), user_theme_dir())
    names = {t.name for t in themes}
    if theme is not None and theme not in names:
        raise WorkbenchError(f"no theme named {theme!r} (themes: {', '.join(sorted(names))})")
    return config, themes


def run_app(load: Callable[[], Workspace], *, theme: str | None = None, start_file: str | None = None) -> int:
    """Run the app on whatever ``load`` opens (in a worker); a load failure is a one-line error."""
    from workbench.tui.app import WorkbenchApp

    config, themes = load_settings(theme)
    app = WorkbenchApp(load, config, themes, theme=theme, start_file=start_file)
    status = app.run()
    if app.load_error is not None:
        raise WorkbenchError(app.load_error)
    return int(status or 0)
