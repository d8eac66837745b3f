"""The terminal's styles, one set for every Rich listing (``report --format text`` and ``analyze``).

A risk level, a diff line, a policy severity or a deleted file's verdict
looks the same wherever it is printed.
"""

from __future__ import annotations

from workbench.analysis.model import Level

LEVEL_STYLE = {Level.HIGH: "bold red", Level.MEDIUM: "yellow", Level.LOW: "green"}
LEVEL_MARK = {Level.HIGH: "H", Level.MEDIUM: "M", Level.LOW: "L"}
DIFF_STYLE = {"-": "red", "+": "green", "@": "cyan", "…": "dim", " ": ""}
SEVERITY_STYLE = {"high": "bold red", "medium": "yellow", "info": "dim"}
VERDICT_STYLE = {"restore-file": "bold red", "check": "yellow", "leave-deleted": "green"}
GATE_STYLE = {True: "bold red", False: "bold green"}
"""The gate sentence: failed, passed."""

def weight_style(weight: int) -> str:
    """A signal's weight by its direction: raising the risk, lowering it, neither."""
    return "red" if weight > 0 else "green" if weight < 0 else "dim"
