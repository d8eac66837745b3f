"""Editing a hunk's result in the user's own editor.

The command comes from git's order of precedence (see ``Workspace.editor``)
and is split like a shell would split it (``code --wait`` works), but never
run through a shell.  The app is suspended around it by the caller.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path


def run_editor(command: str, text: bytes, suffix: str) -> bytes | None:
    """Open ``text`` in ``command`` and return what the user saved (None: the editor failed)."""
    argv = shlex.split(command)
    if not argv:
        return None
    fd, name = tempfile.mkstemp(prefix="workbench-hunk-", suffix=suffix)
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text)
        try:
            status = subprocess.run([*argv, str(path)], check=False).returncode
        except OSError:
            return None
        return path.read_bytes() if status == 0 else None
    finally:
        path.unlink(missing_ok=True)
