"""``workbench demo``: the workbench on a built-in sample sync."""

from __future__ import annotations

import argparse
import shutil
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state", choices=("in-progress", "merge-commit"), default="in-progress",
                        help="a merge left in progress by the bot (default) or its finished merge commit")
    parser.add_argument("--path", metavar="DIR",
                        help="build the sample repository here (default: one of your own per version and state in the "
                             "temporary directory, reused by the next run)")
    parser.add_argument("--fresh", action="store_true",
                        help="build the default sample again (forgetting decisions made in it)")
    parser.add_argument("--print", dest="print_only", action="store_true",
                        help="print the analysis instead of opening the app")
    parser.add_argument("--theme", metavar="NAME", help="colour theme")
    parser.add_argument("--file", metavar="PATH", help="open straight on this file")


def run(args: argparse.Namespace) -> int:
    from workbench.services.demo_repo import build_demo, shared_demo
    from workbench.services.sync import SyncRequest

    if not args.print_only:
        from workbench.tui.launch import load_settings

        load_settings(args.theme)  # bad settings fail before anything is built
    reused = False
    if args.path is not None:
        path = build_demo(args.path, args.state)
    else:
        path, reused = shared_demo(args.state, args.fresh)
        if reused:
            print(f"Reusing the sample repository at {path} (decisions made in it are resumed; --fresh builds "
                  "a new one)", file=sys.stderr)
    request = SyncRequest(repo=path)
    if args.print_only:
        from workbench.report.listing import print_analysis
        from workbench.services.sync import open_sync

        _repo, analysis = open_sync(request)
        print_analysis(analysis, show_all=True)
        print(f"\nSample repository: {path} (open it with `workbench --repo {path}`)")
        return 0
    from workbench.errors import WorkbenchError
    from workbench.tui.launch import launch

    try:
        status = launch(request, theme=args.theme, start_file=args.file)
    except WorkbenchError:
        if args.path is None and not reused:  # a sample nobody asked to keep (say --file named no file of it)
            shutil.rmtree(path.parent, ignore_errors=True)
        raise
    print(f"The sample repository is kept at {path}. Reopen it with `workbench --repo {path}` "
          f"(or `workbench demo`, which reuses it).", file=sys.stderr)
    return status
