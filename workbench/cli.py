"""Command line: ``workbench [open|analyze|report|demo|train|mergetool|ack|queue|show|decide|gate|...] ...``.

Plain ``workbench`` (or ``workbench REV``) means ``open``.  Bad input is one
line on stderr and exit status 2; ``--debug`` shows tracebacks instead.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NamedTuple

from workbench import streams
from workbench.errors import WorkbenchError

EXIT_INTERNAL = 3


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2 (the CLI contract)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


class Command(NamedTuple):
    """A subcommand: its module (``configure(parser)``, ``run(args)``), imported only to run it, and its help."""

    module: str
    help: str


COMMANDS: dict[str, Command] = {
    "open": Command("workbench.commands.open", "open the workbench on a sync (the default command)"),
    "analyze": Command("workbench.commands.analyze", "print the sync analysis (a table, or --json)"),
    "report": Command("workbench.commands.report", "report on the sync for its PR (md), bots (json), a terminal (text) or CI (github)"),
    "demo": Command("workbench.commands.demo", "open the workbench on a built-in sample sync"),
    "train": Command(
        "workbench.commands.train",
        "training: replay a shipped sync, decide each hunk, then see what the maintainers did",
    ),
    "mergetool": Command("workbench.commands.mergetool", "resolve one conflicted file for git mergetool (BASE LOCAL REMOTE MERGED)"),
    "ack": Command(
        "workbench.commands.ack",
        "acknowledge a risky hunk with a reason (.workbench/acks.toml, honoured by report --fail-on)",
    ),
    "queue": Command("workbench.commands.queue", "the sync agent's work queue: open worklist items, highest first"),
    "show": Command("workbench.commands.show", "one worklist item in full, with a ready decide command per choice"),
    "decide": Command(
        "workbench.commands.decide",
        "decide worklist items with a checked claim: write, journal and record them (--batch for many)",
    ),
    "gate": Command("workbench.commands.gate", "the pre-push gate: block on facts and unjustified losses (--hook for git)"),
    "recall": Command("workbench.commands.recall", "earlier syncs' decisions that fit today's items, as decide lines"),
    "agent-guide": Command("workbench.commands.agent_guide", "how a sync agent uses these commands (for its skill file)"),
    "mcp": Command("workbench.commands.mcp", "serve the agent commands over MCP on stdio (needs workbench[mcp])"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command``, only that command's options are configured (the others parse nothing).

    Configuring every command's options costs a few milliseconds of a warm
    run that takes a hundred; the top-level help lists commands, not options.
    """
    parser = _Parser(prog="workbench", description="Review, decide and write a main-to-dev sync merge.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action=_Version, nargs=0, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, (module, words) in COMMANDS.items():
        subparser = sub.add_parser(name, help=words, description=words)
        if command is None or command == name:
            importlib.import_module(module).configure(subparser)
    return parser


class _Version(argparse.Action):
    """``--version``, reading the installed version only when asked (importlib.metadata is slow to import)."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        sys.stdout.write(f"workbench {_version()}\n")
        parser.exit(0)


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


def _command(argv: list[str]) -> str | None:
    """The command ``argv`` (normalised) runs, or None (top-level help or version)."""
    index = 0
    while index < len(argv) and argv[index] == "--debug":
        index += 1
    return argv[index] if index < len(argv) and argv[index] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in raw
    try:
        streams.degrade_to_ascii(sys.stdout, sys.stderr)
        streams.require_stdout()
        argv = _normalise(raw)
        args = build_parser(_command(argv)).parse_args(argv)
        return _dispatch(args)
    except WorkbenchError as exc:
        if debug:
            raise
        print(f"workbench: error: {_one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        streams.stop_writing()
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
    module = importlib.import_module(COMMANDS[args.command].module)
    status = int(module.run(args))
    sys.stdout.flush()  # a reader that went away (`| head`) is met here, not at exit (status 120)
    return status


def _one_line(text: str) -> str:
    from workbench.textsafe import visible

    first = text.strip().splitlines()[0] if text.strip() else "unknown error"
    return visible(first)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("workbench")
    except PackageNotFoundError:
        return "0+unknown"
