"""``workbench mergetool BASE LOCAL REMOTE MERGED``: one file of a merge, for ``git mergetool``.

Configure git once::

    git config --global mergetool.workbench.cmd 'workbench mergetool "$BASE" "$LOCAL" "$REMOTE" "$MERGED"'
    git config --global mergetool.workbench.trustExitCode true

then ``git mergetool --tool=workbench``.  The app opens on that one file
(LOCAL is dev, REMOTE is main); ``w`` writes MERGED (git stages it, we do
not).  The exit status tells git the outcome: 0 when MERGED was written with
every hunk decided, 1 when the user quit with it unresolved.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.errors import WorkbenchError

if TYPE_CHECKING:
    from workbench.tui.workspace import Workspace

HELP = "resolve one conflicted file for git mergetool (BASE LOCAL REMOTE MERGED)"

UNRESOLVED = 1
"""Exit status when MERGED is left unresolved (git keeps the conflict)."""


def configure(parser: argparse.ArgumentParser) -> None:
    for name, what in (("base", "the merge base's version (a temporary file)"),
                       ("local", "our version: the sync branch, dev (a temporary file)"),
                       ("remote", "their version: main (a temporary file)"),
                       ("merged", "the work-tree file to write")):
        parser.add_argument(name, metavar=name.upper(), help=what)
    parser.add_argument("--theme", metavar="NAME", help="colour theme")


def run(args: argparse.Namespace) -> int:
    from workbench.mergetool import load_mergetool
    from workbench.tui.launch import run_app
    from workbench.tui.loading import Report
    from workbench.tui.workspace import Workspace

    # The inputs first, so a wrong path is named rather than reported as MERGED's directory not
    # being a repository.  BASE may be absent: an add/add conflict has no base (read as empty).
    for role, given in (("LOCAL", args.local), ("REMOTE", args.remote)):
        if not Path(given).exists():
            raise WorkbenchError(f"{role} file not found: {given}")
    # One file: cheap to analyse before the screen is taken over, so bad input is a one-line error.
    repo, analysis = load_mergetool(args.base, args.local, args.remote, args.merged)
    opened: list[Workspace] = []

    def load(_report: Report) -> Workspace:
        workspace = Workspace.load(repo, analysis)
        opened.append(workspace)
        return workspace

    run_app(load, theme=args.theme)
    return 0 if opened and resolved(opened[0], Path(args.merged)) else UNRESOLVED


def resolved(workspace: Workspace, merged: Path) -> bool:
    """Every hunk decided and written: MERGED on disk is what the workbench wrote, with no markers."""
    from workbench.resolve.writer import conflict_markers

    session = workspace.session
    (entry,) = workspace.analysis.files
    if not session.all_decided or session.dirty_paths():
        return False
    expected = session.disk_oid(entry.path)
    if expected is None:
        return not merged.exists()  # deleting the file was the decision
    try:
        data = merged.read_bytes()
    except OSError:
        return False
    return workspace.repo.hash_bytes(data) == expected and not conflict_markers(data)
