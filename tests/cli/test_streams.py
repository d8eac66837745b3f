"""Standard output: closed, piped into a reader that stops, a terminal, or not UTF-8.

Issue 19 items 11-12, issue 18 item 15 and issue 15's ``analyze --json`` bullet.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.report import FORMATS as REPORT_FORMATS
from workbench.sample import RepoBuilder

FORMATS = tuple(spec.format.value for spec in REPORT_FORMATS)


@pytest.fixture
def synced(builder: RepoBuilder) -> RepoBuilder:
    """A sync merge whose one hunk loses a line dev wrote (high risk).

    Dev's line quotes curly text and the file holds enough lines for the output to fill a pipe.
    """
    return _sync_one_line(builder, "a.txt", [f"line {n}\n" for n in range(3000)], "dev’s “quoted” line\n", "main line\n")


def _sync_one_line(builder: RepoBuilder, path: str, lines: list[str], dev_line: str, main_line: str) -> RepoBuilder:
    """A ``-X theirs`` sync merge where dev and main each rewrote line 1501 of ``path``."""
    builder.write(path, "".join(lines)).commit("base")
    dev = lines.copy()
    dev[1500] = dev_line
    builder.branch("dev").checkout("dev").write(path, "".join(dev)).commit("dev (#2)")
    main = lines.copy()
    main[1500] = main_line
    builder.checkout("main").write(path, "".join(main)).commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    return builder


def _run(args: list[str], cwd: Path, *, stdout: int | None, env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workbench", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
                          timeout=120, check=False)


def _into_a_reader_that_stopped(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Like ``workbench ARGS | head -0``: the pipe's reading end is closed before the first write."""
    read, write = os.pipe()
    os.close(read)
    try:
        return _run(args, cwd, stdout=write)
    finally:
        os.close(write)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_reader_that_stops_leaves_the_gates_verdict(builder: RepoBuilder, fmt: str) -> None:
    # A hunk of values in a generated data file is low risk (a lost line of code would be high):
    # --fail-on high passes, --fail-on low fails.
    lines = ["{\n", *(f'  "k{n}": {n},\n' for n in range(3000)), '  "end": 0\n', "}\n"]
    _sync_one_line(builder, "a.json", lines, '  "k1499": "dev’s “quoted” value",\n', '  "k1499": 2,\n')
    passed = _into_a_reader_that_stopped(["report", "--format", fmt, "--fail-on", "high"], builder.path)
    assert (passed.returncode, passed.stderr) == (0, "")
    failed = _into_a_reader_that_stopped(["report", "--format", fmt, "--fail-on", "low"], builder.path)
    assert (failed.returncode, failed.stderr) == (1, "")


@pytest.mark.parametrize("args", [["analyze"], ["analyze", "--all"], ["analyze", "--json"]])
def test_analyze_into_a_reader_that_stops_exits_0_quietly(synced: RepoBuilder, args: list[str]) -> None:
    proc = _into_a_reader_that_stopped(args, synced.path)
    assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.parametrize("args", [["analyze"], ["analyze", "--json"], ["report", "--format", "text"]])
def test_a_closed_stdout_is_one_line_and_exit_2(synced: RepoBuilder, args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "workbench", *args], cwd=synced.path, stderr=subprocess.PIPE,
                          text=True, timeout=120, check=False, close_fds=True,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "workbench: error: standard output is closed: nowhere to write the results (redirect it, e.g. >/dev/null)"
    ]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [["analyze"], ["analyze", "--all"], *(["report", "--format", f] for f in FORMATS)])
def test_an_output_encoding_without_unicode_degrades_to_ascii(synced: RepoBuilder, encoding: str,
                                                              args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "workbench", *args], cwd=synced.path, capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": encoding}, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode(encoding)
    assert "UnicodeEncodeError" not in proc.stderr.decode(encoding, "replace")
    if args[-1] != "json":  # JSON escapes non-ASCII itself
        assert '"quoted"' in text or "\\u201cquoted\\u201d" in text or "quoted" in text
        assert "\u201c" not in text
    if "--all" in args:
        assert 'e.g. "dev\'s "quoted" line"' in text, text


def test_analyze_json_is_pretty_at_a_terminal_and_one_line_in_a_pipe(synced: RepoBuilder) -> None:
    piped = _run(["analyze", "--json"], synced.path, stdout=subprocess.PIPE)
    assert piped.returncode == 0 and piped.stdout.count("\n") == 1
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "analyze", "--json"], cwd=synced.path,
                            stdout=secondary, stderr=subprocess.PIPE)
    os.close(secondary)
    chunks = []
    try:
        while chunk := _read_terminal(primary):
            chunks.append(chunk)
    finally:
        os.close(primary)
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    shown = b"".join(chunks).decode().replace("\r\n", "\n")
    assert shown.startswith('{\n  "')
    assert json.loads(shown) == json.loads(piped.stdout), "the same contract, only indented"


def _read_terminal(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # EIO: the program closed the terminal and everything is read
        return b""


def test_a_document_in_pieces_is_written_whole_from_its_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pieces longer and shorter than a write, the first cut at ``start``: the text and its end, nothing else."""
    from workbench import streams

    monkeypatch.setattr(streams, "WRITE_PIECE", 7)
    streams.write_document(["0\nstatus line skipped", "", "ab", "c" * 20], start=2)
    assert capsys.readouterr().out == "status line skipped" + "ab" + "c" * 20 + "\n"
    streams.write_document(["1\n"], start=2, end="")
    assert capsys.readouterr().out == ""
