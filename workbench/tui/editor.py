"""Editing a hunk's result in the user's own editor.

The command comes from git's order of precedence (see ``Workspace.editor``)
and is split like a shell would split it (``code --wait`` works), but never
run through a shell.  The app is suspended around it by the caller.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

_SUFFIX = re.compile(r"\.[A-Za-z0-9_+-]{1,16}")


def editor_suffix(suffix: str) -> str:
    """The file's extension for the temporary file (so the editor picks its syntax), when it is a
    short, plain one; ``.txt`` otherwise (a 300-character extension made the name too long)."""
    return suffix if _SUFFIX.fullmatch(suffix) else ".txt"


class EditorFailed(Exception):
    """The editor could not start or exited with an error: a set-up problem, not the user's cancel."""


def run_editor(command: str, text: bytes, suffix: str) -> bytes:
    """Open ``text`` in ``command`` and return what the user saved."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise EditorFailed(f"the editor command {command!r} cannot be read: {error}") from None
    if not argv:
        raise EditorFailed("the editor command is empty")
    try:
        fd, name = tempfile.mkstemp(prefix="workbench-hunk-", suffix=editor_suffix(suffix))
    except OSError as error:
        raise EditorFailed(f"no temporary file for the editor ({error.strerror})") from None
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text)
        try:
            status = subprocess.run([*argv, str(path)], check=False).returncode
        except OSError as error:
            raise EditorFailed(f"the editor {argv[0]!r} could not be started ({error.strerror})") from None
        if status != 0:
            raise EditorFailed(f"the editor {argv[0]!r} exited with status {status}")
        return path.read_bytes()
    finally:
        path.unlink(missing_ok=True)
