"""``workbench agent-guide``: print how a sync agent uses these commands (for its skill file)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    del parser  # no options: the guide is the tool's own


def run(args: argparse.Namespace) -> int:
    import sys

    from workbench.commands.agent_args import version
    from workbench.services.agent.guide import guide

    del args
    sys.stdout.write(guide(version()))
    return 0
