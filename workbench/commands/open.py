"""``workbench open`` (and plain ``workbench``): the interactive workbench."""

from __future__ import annotations

import argparse

from workbench.commands import add_sync_options, sync_request


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument("--file", metavar="PATH", help="open straight on this file")
    parser.add_argument("--theme", metavar="NAME", help="colour theme (remembered with t in the app)")


def run(args: argparse.Namespace) -> int:
    from workbench.tui.launch import launch

    return launch(sync_request(args), theme=args.theme, start_file=args.file)
