"""The installed command in a real terminal: ``workbench demo`` in tmux, the file list appears, ``q`` quits."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.terminal import TMUX, WORKBENCH, Terminal


@pytest.mark.skipif(TMUX is None or WORKBENCH is None, reason="needs tmux and the installed workbench command")
def test_demo_opens_in_a_terminal_and_quits_cleanly(tmp_path: Path) -> None:
    with Terminal(tmp_path, f'"{WORKBENCH}" demo --path "{tmp_path / "demo"}"') as term:
        screen = term.wait_for("undecided", "transformer_layer.py", "hunk 1/", "Quit", timeout=60)
        assert "high risk" in screen
        term.keys("q")
        assert term.exit_status(timeout=20) == 0
