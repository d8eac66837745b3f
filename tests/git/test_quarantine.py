"""The object quarantine: any directory name, private, and never left behind (issue 19.1, 19.16)."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.git.quarantine import PREFIX, quote_alternate, unquote_alternate
from workbench.sample import RepoBuilder


def _conflict(b: RepoBuilder) -> RepoBuilder:
    b.write("a.txt", "one\ntwo\nthree\n").commit("base")
    b.branch("dev").checkout("dev").write("a.txt", "one\ndev\nthree\n").commit("dev (#2)")
    b.checkout("main").write("a.txt", "one\nmain\nthree\n").commit("main (#3)")
    b.checkout("dev")
    return b


def _workbench(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], cwd=cwd, capture_output=True, text=True, check=False,
        env={**os.environ, **(env or {})}, timeout=300,
    )


def test_a_repository_under_a_directory_with_a_colon(tmp_path: Path) -> None:
    b = _conflict(RepoBuilder.init(tmp_path / "run 2024-01-01T10:00" / 'odd "name"' / "repo"))
    preview = _workbench(b.path, "analyze", "--dev", "dev", "--main", "main", "--json")
    assert preview.returncode == 0, preview.stderr
    assert [f["path"] for f in json.loads(preview.stdout)["files"]] == ["a.txt"]
    b.merge("main")
    in_progress = _workbench(b.path, "analyze", "--json")
    assert in_progress.returncode == 0, in_progress.stderr
    assert json.loads(in_progress.stdout)["files"][0]["status"] == "conflicted"


@pytest.mark.parametrize("path", ["/a:b/c", '/x"y\\z', "/tab\there", "/new\nline", "/caf\udce9"])
def test_alternate_quoting_round_trips(path: str) -> None:
    assert unquote_alternate(quote_alternate(path)) == path


def _quarantines(tmp: Path) -> list[Path]:
    return sorted(p for p in tmp.iterdir() if p.name.startswith(PREFIX))


def _default_dispositions() -> None:
    """The signals' default actions in the child, as a terminal's shell gives them: a test run under ``nohup`` or as
    a background job passes SIGHUP or SIGINT on ignored, and a process then rightly leaves an ignored signal alone."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGINT])
def test_a_signal_during_analyze_leaves_no_quarantine(tmp_path: Path, signum: int) -> None:
    b = _conflict(RepoBuilder.init(tmp_path / "repo"))
    b.merge("main")
    started = tmp_path / "filter-started"
    # A clean filter that waits: analyze is caught while it reads the work tree through git.
    b.git("config", "filter.slow.clean", f"touch '{started}'; sleep 20; cat")
    (b.path / ".git" / "info" / "attributes").write_text("* filter=slow\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "analyze", "--json"], cwd=b.path, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(tmp)},
        preexec_fn=_default_dispositions,  # noqa: PLW1509 - the test process runs no threads that could hold a lock
    )
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists(), "analyze never reached the work tree"
        (made,) = _quarantines(tmp)
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, "private to its user"
        proc.send_signal(signum)
        expected = 130 if signum == signal.SIGINT else -signum
        assert proc.wait(timeout=30) == expected, "dies of the signal, as without a handler (Ctrl-C: exit 130)"
        assert _quarantines(tmp) == []
    finally:
        if proc.poll() is None:
            proc.kill()
        os.killpg(proc.pid, signal.SIGKILL)


def test_stale_quarantines_of_dead_processes_are_swept(tmp_path: Path) -> None:
    b = _conflict(RepoBuilder.init(tmp_path / "repo"))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp / f"{PREFIX}{dead.pid}-abc"
    live = tmp / f"{PREFIX}{os.getpid()}-def"
    unknown = tmp / f"{PREFIX}12345678"  # an older version's name: no process to check
    for d in (stale, live, unknown):
        (d / "ab").mkdir(parents=True)
        (d / "ab" / "cdef").write_bytes(b"a copy of a blob")
    result = _workbench(b.path, "analyze", "--dev", "dev", "--main", "main", env={"TMPDIR": str(tmp)})
    assert result.returncode == 0, result.stderr
    assert not stale.exists(), "the dead process's copies are removed"
    assert live.exists(), "a running process keeps its quarantine"
    assert set(_quarantines(tmp)) == {unknown, live}, "and this run removed its own at exit"
