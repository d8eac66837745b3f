"""The built-in sample sync behind ``workbench demo``."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.sample import build_sample_sync


def build_demo(path: str | None, state: str) -> Path:
    """Build the sample repository (in a fresh temp dir unless ``path`` is given)."""
    if path is None:
        target = Path(tempfile.mkdtemp(prefix="workbench-demo-")) / "megatron-sample"
    else:
        target = Path(path)
        if target.exists() and not target.is_dir():
            raise WorkbenchError(f"{target} is a file: give an empty or new directory")
        if target.exists() and any(target.iterdir()):
            raise WorkbenchError(f"{target} is not empty: give an empty or new directory")
    build_sample_sync(target, state)  # type: ignore[arg-type]
    return target


MARK = "workbench-demo"
"""A file in the sample's ``.git`` saying which version and state built it."""


def _version() -> str:
    try:
        return version("workbench")
    except PackageNotFoundError:
        return "dev"


def shared_demo(state: str, fresh: bool = False) -> tuple[Path, bool]:
    """This user's sample for this version and state under the temporary directory: reused, else built;
    (path, reused).

    One sample per user, version and state instead of a new
    repository on every run; the decisions made in it are kept (the journal
    resumes them).  A sample whose merge was finished or whose mark is
    missing is rebuilt, as is any with ``fresh``.  The directory is named
    with the user's id and is the user's alone (0700): another user's sample
    on the same machine is never reused (git would refuse a repository
    another user owns), and a directory of that name that someone else made
    or can write is left alone for a private one of its own.
    """
    folder = Path(tempfile.gettempdir()) / f"workbench-demo-{os.geteuid()}-{_version()}-{state}"
    if not _private(folder):
        return build_demo(None, state), False
    target = folder / "megatron-sample"
    mark = target / ".git" / MARK
    expected = f"{_version()} {state}\n"
    usable = (mark.is_file() and mark.read_text(encoding="utf-8") == expected
              and (state != "in-progress" or (target / ".git" / "MERGE_HEAD").is_file()))
    if usable and not fresh:
        return target, True
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(mode=0o700)
    build_sample_sync(target, state)  # type: ignore[arg-type]
    mark.write_text(expected, encoding="utf-8")
    return target, False


def _private(folder: Path) -> bool:
    """Whether ``folder`` is absent, or a directory (not a symlink) of this user's that nobody else can write."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return True
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077
