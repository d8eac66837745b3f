"""The journal survives crashes: torn lines are skipped, appends stay line-aligned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from workbench.resolve.events import Change, Event, Field, Op
from workbench.resolve.journal import Journal
from workbench.resolve.splice import Choice, Decision


def _event(n: int) -> Event:
    return Event(Op.DO, (Change(Field.HUNK, f"f{n}.py", 0, None, Decision(Choice.MAIN)),), f"e{n}")


def test_round_trip_and_torn_last_line(tmp_path: Path) -> None:
    journal = Journal.for_sync(tmp_path, "a" * 40, "b" * 40)
    assert journal.load() == []
    for n in range(3):
        journal.append(_event(n))
    with journal.path.open("ab") as handle:
        handle.write(b'{"op": "do", "chan')  # a crash in the middle of a write
    assert [e.label for e in journal.load()] == ["e0", "e1", "e2"]
    journal.append(_event(3))
    assert [e.label for e in journal.load()] == ["e0", "e1", "e2", "e3"]


_WRITER = """
import sys
from workbench.resolve.events import Change, Event, Field, Op
from workbench.resolve.journal import Journal
from workbench.resolve.splice import Choice, Decision
journal = Journal.for_sync(sys.argv[1], "a" * 40, "b" * 40)
n = 0
print("ready", flush=True)
while True:
    journal.append(Event(Op.DO, (Change(Field.HUNK, "f.py", n, None, Decision(Choice.CUSTOM, b"x" * 5000)),), str(n)))
    n += 1
"""


def test_kill_minus_nine_while_appending_loses_at_most_one_event(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    journal = Journal.for_sync(tmp_path, "a" * 40, "b" * 40)
    events = journal.load()
    assert events, "some events were written before the kill"
    assert [e.label for e in events] == [str(n) for n in range(len(events))]
    journal.append(_event(99))
    assert journal.load()[-1].label == "e99"
