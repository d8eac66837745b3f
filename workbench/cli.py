"""Command line: ``workbench [open|analyze|report|demo|train|mergetool] ...``.

Plain ``workbench`` (or ``workbench REV``) means ``open``.  Bad input is one
line on stderr and exit status 2; ``--debug`` shows tracebacks instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from workbench.errors import WorkbenchError

COMMANDS = ("open", "analyze", "report", "demo", "train", "mergetool")
EXIT_INTERNAL = 3


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2 (the CLI contract)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _sync_options(parser: argparse.ArgumentParser) -> None:
    """The options every command that reads a sync shares."""
    parser.add_argument("rev", nargs="?", metavar="REV", help="a sync merge commit (default: the merge in progress)")
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the one containing the current directory)")
    parser.add_argument("--dev", metavar="A", help="preview: dev tip (with --main)")
    parser.add_argument("--main", metavar="B", help="preview: main tip (with --dev)")
    parser.add_argument("--result", metavar="R", help="take the result from commit R (e.g. the sync PR head) instead of REV")
    parser.add_argument("--policy", metavar="NAME", help="sync policy preset or file (default: the repository's .workbench.toml)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench", description="Review, decide and write a main-to-dev sync merge.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action="version", version=f"workbench {_version()}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    open_p = sub.add_parser("open", help="open the workbench on a sync (the default command)")
    _sync_options(open_p)
    open_p.add_argument("--file", metavar="PATH", help="open straight on this file")
    open_p.add_argument("--theme", metavar="NAME", help="colour theme")

    analyze_p = sub.add_parser("analyze", help="print the sync analysis (table, or --json)")
    _sync_options(analyze_p)
    analyze_p.add_argument("--json", action="store_true", help="machine-readable workbench.analysis/1 JSON")
    analyze_p.add_argument("--all", action="store_true", help="list every hunk, not only the risky ones")

    demo_p = sub.add_parser("demo", help="open the workbench on a built-in sample sync")
    demo_p.add_argument("--state", choices=("merge-commit", "in-progress"), default="in-progress")
    demo_p.add_argument("--path", metavar="DIR", help="build the sample repository here (default: a temporary directory)")
    demo_p.add_argument("--print", dest="print_only", action="store_true", help="print the analysis instead of opening the app")
    demo_p.add_argument("--theme", metavar="NAME", help="colour theme")
    return parser


def _normalise(argv: list[str]) -> list[str]:
    """``workbench`` and ``workbench REV`` mean ``workbench open [REV]``."""
    args = list(argv)
    index = 0
    while index < len(args) and args[index] == "--debug":
        index += 1
    rest = args[index:]
    if not rest or (rest[0] not in COMMANDS and rest[0] not in ("-h", "--help", "--version")):
        args.insert(index, "open")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in raw
    try:
        args = build_parser().parse_args(_normalise(raw))
        return _dispatch(args)
    except WorkbenchError as exc:
        if debug:
            raise
        print(f"workbench: error: {_one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 0
    except Exception as exc:  # noqa: BLE001 - the CLI contract: never a traceback
        if debug:
            raise
        print(
            f"workbench: internal error: {type(exc).__name__}: {_one_line(str(exc))} (run with --debug for details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace) -> int:
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "analyze": _cmd_analyze,
        "open": _cmd_open,
        "demo": _cmd_demo,
    }
    handler = handlers.get(args.command)
    if handler is None:
        raise WorkbenchError(f"'{args.command}' is not available yet")
    return handler(args)


def _request(args: argparse.Namespace):  # noqa: ANN202 - SyncRequest, imported lazily
    from workbench.sync import SyncRequest

    return SyncRequest(repo=args.repo, rev=args.rev, dev=args.dev, main=args.main, result=args.result)


def _cmd_analyze(args: argparse.Namespace) -> int:
    from workbench.analyze_view import print_analysis, print_json
    from workbench.sync import open_sync

    _repo, analysis = open_sync(_request(args))
    if args.json:
        print_json(analysis)
    else:
        print_analysis(analysis, show_all=args.all)
    return 0


def _cmd_open(args: argparse.Namespace) -> int:
    raise WorkbenchError("the interactive workbench is not available yet: use `workbench analyze`")


def _cmd_demo(args: argparse.Namespace) -> int:
    from workbench.analyze_view import print_analysis
    from workbench.demo import build_demo
    from workbench.sync import SyncRequest, open_sync

    path = build_demo(args.path, args.state)
    _repo, analysis = open_sync(SyncRequest(repo=path))
    print_analysis(analysis, show_all=True)
    print(f"\nSample repository: {path}")
    return 0


def _one_line(text: str) -> str:
    from workbench.textsafe import visible

    first = text.strip().splitlines()[0] if text.strip() else "unknown error"
    return visible(first)


def _quiet_broken_pipe() -> None:
    """Output piped into ``head``: stop quietly, as git does."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("workbench")
    except PackageNotFoundError:
        return "0+unknown"
