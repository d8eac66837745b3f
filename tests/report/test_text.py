"""``--format text``: Rich output, coloured only on a terminal without ``NO_COLOR``.

``NO_COLOR`` turns colours off, as its convention asks; bold and underline
stay, since they are emphasis rather than colour (Rich's reading too).
"""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.reports import report_for

from workbench.analysis.model import Level
from workbench.report import ReportFormat
from workbench.report.make import write_report
from workbench.report.phrases import SECTIONS
from workbench.sample import SampleSync
from workbench.sample.builder import RepoBuilder
from workbench.sample.dropped_lines import SPECS

ESCAPED_PATH = "pkg/\x1b[31mred\x1b[0m.py"


@pytest.fixture(scope="module")
def escape_in_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sync whose only conflicted file has a terminal escape in its name."""
    b = RepoBuilder.init(tmp_path_factory.mktemp("text") / "repo")
    b.write(ESCAPED_PATH, "x = 1\n")
    b.commit("base")
    b.branch("dev")
    b.write(ESCAPED_PATH, "x = 2\n")
    b.commit("main")
    b.checkout("dev")
    b.write(ESCAPED_PATH, "x = 3\n")
    b.commit("dev")
    b.merge("main", "theirs", check=True)
    return b.path


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")}
    env.update(TERM="xterm-256color", **extra)
    return env


def _on_a_terminal(repo: Path, env: dict[str, str]) -> bytes:
    """Run the text report with stdout on a pseudo-terminal and read what it drew."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "report", "--repo", str(repo), "--format", "text"],
        stdout=follower, stderr=subprocess.PIPE, env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower closed: Linux reports EIO
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else b""
    return b"".join(chunks)


def test_colour_on_a_terminal(escape_in_path: Path) -> None:
    drawn = _on_a_terminal(escape_in_path, _env())
    assert b"\x1b[" in drawn
    assert b"\\x1b[31mred\\x1b[0m.py" in drawn
    assert b"\x1b[31mred" not in drawn  # the path's escape is spelled out, never run


def _colours(drawn: bytes) -> set[int]:
    """Colour parameters of the SGR sequences drawn (bold, dim and underline are not colours)."""
    found = set()
    for params in re.findall(rb"\x1b\[([0-9;]*)m", drawn):
        found |= {int(p) for p in params.split(b";") if p and (30 <= int(p) <= 49 or 90 <= int(p) <= 107)}
    return found


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_colour_with_no_color_set(
    bot_merge: SampleSync, escape_in_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    report = report_for(bot_merge, {(SPECS, 0): (Level.HIGH, ("dev's line is gone",))})
    coloured = _Terminal()
    write_report(report, ReportFormat.TEXT, coloured)
    assert _colours(coloured.getvalue().encode()) >= {31, 32}  # the level and the diff's -/+ lines
    monkeypatch.setenv("NO_COLOR", "1")
    plain = _Terminal()
    write_report(report, ReportFormat.TEXT, plain)
    assert _colours(plain.getvalue().encode()) == set()
    assert "dev's line is gone" in plain.getvalue()
    drawn = _on_a_terminal(escape_in_path, _env(NO_COLOR="1"))
    assert _colours(drawn) == set()
    assert b"\\x1b[31mred\\x1b[0m.py" in drawn


def test_no_colour_and_no_wrapping_into_a_pipe(bot_merge: SampleSync) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "workbench", "report", "--repo", str(bot_merge.path), "--format", "text"],
        capture_output=True, env=_env(), check=True,
    )
    out = proc.stdout.decode()
    assert "\x1b" not in out
    lines = out.splitlines()
    for title in ("Worklist", *SECTIONS[2:]):  # the worklist in place of the risky hunks
        assert title in lines
    summary = lines[1]  # one line, however long: pipes are not wrapped
    assert " files conflicting · " in summary and "(against dev) · worklist: " in summary and summary.endswith(" open")
