"""The installed command in a real terminal: ``workbench demo`` in tmux, the file list appears, ``q`` quits."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

WORKBENCH = shutil.which("workbench")
TMUX = shutil.which("tmux")


@pytest.mark.skipif(TMUX is None or WORKBENCH is None, reason="needs tmux and the installed workbench command")
def test_demo_opens_in_a_terminal_and_quits_cleanly(tmp_path: Path) -> None:
    socket = str(tmp_path / "tmux.sock")
    status = tmp_path / "status"
    # COLUMNS/LINES (set under pytest) would override the terminal's real size.
    command = f'unset COLUMNS LINES; "{WORKBENCH}" demo --path "{tmp_path / "demo"}"; echo $? > "{status}"'
    tmux = [TMUX, "-S", socket, "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "140", "-y", "40", "sh", "-c", command], check=True)
    try:
        screen = _wait_for(tmux, ("undecided", "transformer_layer.py", "hunk 1/", "Quit"), timeout=60)
        assert "high risk" in screen
        subprocess.run([*tmux, "send-keys", "q"], check=True)
        deadline = time.monotonic() + 20
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status.read_text().strip() == "0"
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)


def _wait_for(tmux: list[str], texts: tuple[str, ...], timeout: float) -> str:
    """The pane's text once it shows every one of ``texts``."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, check=False).stdout.decode()
        if all(text in screen for text in texts):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{texts!r} never all appeared:\n{screen}")
