"""kill -9 in the middle of writing decided files: nothing half-written, resume works."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers.syncs import open_analysis

from workbench.analysis.model import FileStatus
from workbench.analysis.xdiff import Favor
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.session import Session
from workbench.sample import SampleSync

_WRITER = """
import sys
from workbench.analysis.model import FileStatus
from workbench.analysis.xdiff import Favor
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice
from workbench.resolve.writer import write_file
from workbench.services.sync import SyncRequest, open_sync

repo, analysis = open_sync(SyncRequest(repo=sys.argv[1]))
journal = Journal.for_situation(repo.gitdir, Situation.of(analysis))
session = Session(analysis, journal.load(), repo.read_blob)
paths = [f.path for f in analysis.files if f.hunks and f.merge is not None and f.status.value != "conflicted"]
print("ready", flush=True)
n = 0
while True:
    for path in paths:
        choice = (Choice.DEV, Choice.MAIN)[n % 2]
        journal.append(session.decide_file(path, choice))
        outcome = write_file(repo, session, path, overwrite_changed=True)
        if outcome.event is not None:
            journal.append(outcome.event)
    n += 1
    print("pass", flush=True)
"""


def test_kill_during_writes_leaves_whole_files_and_a_resumable_journal(sample_in_progress: SampleSync) -> None:
    root = sample_in_progress.path
    _, before = open_analysis(root)
    written = [f for f in before.files if f.hunks and f.merge is not None and f.status is not FileStatus.CONFLICTED]
    allowed = {
        f.path: {f.result_bytes, f.merge.render(Favor.OURS), f.merge.render(Favor.THEIRS)}
        for f in written
        if f.merge is not None
    }
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(root)], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    assert proc.stdout.readline().strip() == b"pass"  # every file decided and written once, however loaded
    time.sleep(0.2)  # into the second pass: the kill lands in the middle of writing
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()

    for path, contents in allowed.items():
        assert Path(root, path).read_bytes() in contents, f"{path} is half-written"
    repo, after = open_analysis(root)
    events = Journal.for_situation(repo.gitdir, Situation.of(after)).load()
    assert events, "decisions were journalled before the kill"
    session = Session(after, events, repo.read_blob)
    for entry in written:
        assert session.decided(entry.path) == len(entry.hunks), "the journal resumes every decision"
