"""Where the app keeps its journals, readable without the journal's model.

The cache's warm path asks whether any journal exists before it serves a
stored document; importing ``journal.py`` (and the analysis model behind it)
would cost more than the whole warm run.
"""

from __future__ import annotations

import os
from pathlib import Path

JOURNAL_DIR = ("workbench", "journal")
"""Under the git directory: one journal file per situation."""
JOURNAL_SUFFIX = ".jsonl"
"""A journal's file name ends so; the lock files beside them hold no decisions."""


def keeps_journals(gitdir: Path) -> bool:
    """Whether the app keeps any journal in the repository (one directory listing)."""
    try:
        return any(name.endswith(JOURNAL_SUFFIX) for name in os.listdir(gitdir.joinpath(*JOURNAL_DIR)))
    except OSError:
        return False
