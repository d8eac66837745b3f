"""``workbench mergetool BASE LOCAL REMOTE MERGED``: one file of a merge, for ``git mergetool``.

Configure git once with ``workbench mergetool --install`` (it writes the two
settings below with this command's absolute path, so git finds it even when
``workbench`` is not on PATH), or by hand::

    git config --global mergetool.workbench.cmd 'workbench mergetool "$BASE" "$LOCAL" "$REMOTE" "$MERGED"'
    git config --global mergetool.workbench.trustExitCode true

then ``git mergetool --tool=workbench``.  The app opens on that one file
(LOCAL is dev, REMOTE is main) with the evidence ``workbench open`` shows for
it during the merge (history, risk, policy, API audit); ``w`` writes MERGED
(git stages it, we do not).  The exit status tells git the outcome: 0 when
MERGED was written with every hunk decided, 1 when the user quit with it
unresolved.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo
    from workbench.services.workspace import Workspace


UNRESOLVED = 1
"""Exit status when MERGED is left unresolved (git keeps the conflict)."""


def configure(parser: argparse.ArgumentParser) -> None:
    for name, what in (("base", "the merge base's version (a temporary file)"),
                       ("local", "our version: the sync branch, dev (a temporary file)"),
                       ("remote", "their version: main (a temporary file)"),
                       ("merged", "the work-tree file to write")):
        parser.add_argument(name, metavar=name.upper(), help=what, nargs="?")
    parser.add_argument("--install", action="store_true",
                        help="configure git to use this command as `git mergetool --tool=workbench` (global "
                             "settings, or the repository's with --repo), with its absolute path")
    parser.add_argument("--repo", metavar="PATH", help="with --install: write the repository's config, not the global one")
    parser.add_argument("--policy", metavar="NAME",
                        help="sync policy preset or file (default: the repository's configuration)")
    parser.add_argument("--theme", metavar="NAME", help="colour theme")


def run(args: argparse.Namespace) -> int:
    from workbench.errors import WorkbenchError
    from workbench.services.mergetool_file import (
        FIRST_LOOK_PENDING,
        analyse_mergetool,
        first_look,
        mergetool_repo,
        read_mergetool,
        reads_history,
    )
    from workbench.services.sync import Later
    from workbench.services.sync_process import start_analysis_process

    given_files = [args.base, args.local, args.remote, args.merged]
    if args.install:
        if any(given_files):
            raise WorkbenchError("--install takes no files: it only configures git")
        return install(args.policy, args.repo)
    if args.repo is not None:
        raise WorkbenchError("--repo goes with --install (git mergetool runs the command in the repository)")
    if not all(given_files):
        raise WorkbenchError("give BASE LOCAL REMOTE MERGED (git mergetool does), or --install to configure git")

    # Bad input is a one-line error before the screen is taken over; reading it is cheap.
    given = read_mergetool(args.base, args.local, args.remote, args.merged, args.policy)
    # The analysis (the merge's history, risk and audit for this path) runs while Textual loads: in a
    # forked process where a second core allows (forked now, while this process runs one thread), so
    # neither waits for the other; its answer, else the analysis computed here, is read by a thread.
    # During a merge that takes seconds, cold: the app shows a first look meanwhile (below), and the
    # process runs behind it.
    history = reads_history(given)
    later: Later = []  # the child stores the analysis in the cache once the app has it
    process = start_analysis_process(lambda _progress: analyse_mergetool(given, later), behind=history, later=later)
    from workbench.tui.launch import in_thread, run_app, start_first_look

    def analyse() -> tuple[GitRepo, SyncAnalysis]:
        answer = process.receive(None) if process is not None else None
        if answer is None:  # no second core, or the process gave no answer
            answer = analyse_mergetool(given)
        return mergetool_repo(given), answer

    analysis = in_thread("workbench-mergetool", analyse)  # what it raises goes to the app's loader, which reports it

    from workbench.services.workspace import Workspace
    from workbench.tui.loading import Report

    opened: list[Workspace] = []

    def load(_report: Report) -> Workspace:
        workspace = Workspace.load(*analysis.result())
        opened.append(workspace)
        return workspace

    # While the merge's evidence is read (1-3 s, cold), the file's hunks from its three versions are shown.
    look = start_first_look(lambda: Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING)) if history else None
    run_app(load, theme=args.theme, first_look=look)
    return 0 if opened and resolved(opened[0], Path(args.merged)) else UNRESOLVED


def resolved(workspace: Workspace, merged: Path) -> bool:
    """Every hunk decided and written: MERGED on disk is what the workbench wrote (as git stores it), with no
    markers."""
    from workbench.git.worktree_read import disk_oid
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
    return disk_oid(workspace.repo, entry.path) == expected and not conflict_markers(data)


def recipe(policy: str | None = None) -> str:
    """The command git runs, naming this workbench by absolute path (PATH may lack it where git runs)."""
    script = Path(sys.argv[0])
    if script.name == "workbench" and script.is_file() and os.access(script, os.X_OK):
        command = [str(script.resolve())]
    else:
        command = [sys.executable, "-m", "workbench"]
    words = " ".join(shlex.quote(word) for word in command)
    extra = f" --policy {shlex.quote(policy)}" if policy else ""
    return f'{words} mergetool{extra} "$BASE" "$LOCAL" "$REMOTE" "$MERGED"'


def install(policy: str | None, repo: str | None) -> int:
    """``--install``: write git's mergetool settings for this workbench and say where."""
    from workbench.errors import WorkbenchError
    from workbench.git.config_write import set_config

    target = None
    if repo is not None:
        target = Path(repo)
        if not target.is_dir():
            raise WorkbenchError(f"no such directory: {repo}")
    command = recipe(policy)
    where = set_config([("mergetool.workbench.cmd", command), ("mergetool.workbench.trustExitCode", "true")], target)
    print(f"git mergetool --tool=workbench now runs: {command}")
    print(f"(written to {where}; `git config merge.tool workbench` makes it the default tool)")
    return 0
