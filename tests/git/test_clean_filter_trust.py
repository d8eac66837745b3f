"""The read-only ``analyze`` runs the repository's clean filters (as ``git diff`` does) and writes nothing else.

During a merge the result is the work tree read as ``git add`` would store
it, so a configured clean filter runs on the files git left conflicted: the
trust is git's own (docs/analyze.md says so).  Whatever the filter does is
the filter's; the workbench itself leaves ``.git`` and the work tree as they
were, byte for byte and time for time.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from workbench.cli import main
from workbench.sample import RepoBuilder


def _state(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``root``: bytes, mode and mtime (ns)."""
    found = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            info = path.lstat()
            data = path.read_bytes() if stat.S_ISREG(info.st_mode) else os.readlink(path).encode()
            found[str(path.relative_to(root))] = (data, info.st_mode, info.st_mtime_ns)
    return found


def test_a_clean_filter_runs_and_nothing_else_is_written(builder: RepoBuilder, tmp_path: Path) -> None:
    log = tmp_path / "filter.log"
    script = tmp_path / "clean.sh"
    script.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\nexec cat\n')
    script.chmod(0o755)
    lines = "".join(f"v{i} = {i}\n" for i in range(8))
    builder.write(".gitattributes", "*.py filter=trace\n").write("a.py", lines).commit("base")
    builder.branch("dev").checkout("dev").write("a.py", lines.replace("v2 = 2", "v2 = 20")).commit("dev (#1)")
    builder.checkout("main").write("a.py", lines.replace("v2 = 2", "v2 = 200")).commit("main (#2)")
    builder.checkout("dev")
    builder.git("config", "filter.trace.clean", f"{script} %f")
    assert builder.merge("main") == 1
    log.unlink(missing_ok=True)
    before = _state(builder.path)
    assert main(["analyze", "--json", "--repo", str(builder.path), "--no-cache"]) == 0
    assert _state(builder.path) == before, "the analysis wrote nothing in .git or the work tree"
    assert "a.py" in log.read_text().split(), "the clean filter ran on the conflicted file, as git diff runs it"
