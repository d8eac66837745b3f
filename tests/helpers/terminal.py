"""A command in a real terminal, for tests of the installed ``workbench``: a private tmux server,
its screen, keys, and the command's exit status."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

WORKBENCH = shutil.which("workbench")
TMUX = shutil.which("tmux")


class Terminal:
    """``command`` (a ``sh -c`` line) running in a tmux server of its own, ``size`` columns x rows."""

    def __init__(self, tmp: Path, command: str, size: tuple[int, int] = (140, 40)) -> None:
        self.status = tmp / "status"
        self.tmux = [str(TMUX), "-S", str(tmp / "tmux.sock"), "-f", "/dev/null"]
        # COLUMNS/LINES (set under pytest) would override the terminal's real size.
        wrapped = f'unset COLUMNS LINES; {command}; echo $? > "{self.status}"'
        columns, rows = size
        subprocess.run([*self.tmux, "new-session", "-d", "-x", str(columns), "-y", str(rows), "sh", "-c", wrapped],
                       check=True)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def screen(self, escapes: bool = False) -> str:
        args = ["capture-pane", "-p", *(["-e"] if escapes else [])]
        return subprocess.run([*self.tmux, *args], capture_output=True, check=False).stdout.decode()

    def wait_for(self, *texts: str, timeout: float = 60) -> str:
        """The screen once it shows every one of ``texts``."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} never all appeared:\n{screen}")

    def keys(self, *keys: str, pause: float = 0.3) -> None:
        """Press ``keys`` one by one, giving the app ``pause`` seconds after each."""
        for key in keys:
            subprocess.run([*self.tmux, "send-keys", key], check=True)
            time.sleep(pause)

    def exit_status(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while not self.status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        return int(self.status.read_text().strip())

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)
