"""Ground truth: what a careful reviewer concludes about each file of a built sync.

The scenarios know what they did to each file, so they can say, before any
analysis runs, which hunks `-X theirs` got wrong, which dev commits it threw
away, which main commit carried the text that won, and what the file should
finally contain.  Tests for detection and risk scoring assert against these
records; the scenario tests check every claim with the git binary.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path


class Pathology(enum.Enum):
    """What happened to the file between dev, main and the `-X theirs` merge."""

    SQUASH_CHAIN_DEV_AHEAD = "squash-chain-dev-ahead"
    SQUASH_CHAIN_MAIN_AHEAD = "squash-chain-main-ahead"
    DEV_LINE_DROPPED = "dev-line-dropped"
    INTENTIONAL_REMOVAL = "intentional-removal"
    POLICY_KEEP_DEV = "policy-keep-dev"
    POLICY_TAKE_MAIN = "policy-take-main"
    API_MISMATCH = "api-mismatch"
    MODIFY_DELETE = "modify-delete"
    ADD_ADD = "add-add"
    BINARY = "binary"
    CRLF = "crlf"
    NO_TRAILING_NEWLINE = "no-trailing-newline"
    RENAME = "rename"


class Risk(enum.IntEnum):
    """How likely the bot's result silently broke dev (ordered, so ``max`` works)."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3


class Verdict(enum.Enum):
    """What the reviewer should do with the file as a whole."""

    ACCEPT = "accept"
    """Git's merge is right as it stands (no conflict was resolved blindly)."""
    TAKE_MAIN = "take-main"
    """`-X theirs` chose correctly: main's side is the one to ship."""
    KEEP_DEV = "keep-dev"
    """Dev's side must be restored where main won."""
    COMBINE = "combine"
    """Both sides carry needed work; the result must be written by hand."""
    DELETE = "delete"
    """The file should not exist in the merge."""


class Conflict(enum.Enum):
    """How a plain merge of the tips (``git merge-tree``) reports the file."""

    NONE = "none"
    CONTENT = "content"
    ADD_ADD = "add/add"
    MODIFY_DELETE = "modify/delete"
    BINARY = "binary"

    @property
    def survives_x_theirs(self) -> bool:
        """Whether the bot's ``-X theirs`` merge still stops on it (only tree-level conflicts do)."""
        return self is Conflict.MODIFY_DELETE


@dataclass(frozen=True)
class FileTruth:
    """One file a reviewer has to look at, and the right conclusion about it."""

    path: str
    """Where the file lives in the merge (after renames)."""
    pathology: Pathology
    risk: Risk
    conflict: Conflict
    verdict: Verdict
    expected: bytes | None
    """The content a careful reviewer ships; None means the file must be absent."""
    lost_lines: tuple[str, ...] = ()
    """Lines dev wrote (on dev, not at the merge base; no line ending) that the bot's
    `-X theirs` result no longer has anywhere in the file: a set difference, like the
    skill's ``comm`` audit.  Empty for binaries and when the result has no such file."""
    dropped_commits: tuple[str, ...] = ()
    """Dev commits whose work on this file the bot's result discards."""
    carriers: tuple[str, ...] = ()
    """The main commits whose text won where dev lost."""
    evidence: str | None = None
    """The commit proving a removal was meant (main's delete, or dev's own deletion)."""
    missing_names: tuple[str, ...] = ()
    """Names the bot's version uses that nothing in the merged tree defines any more."""
    note: str = ""
    """The sentence a reviewer would write in the sync PR."""


@dataclass(frozen=True)
class Scenario:
    """A built repository with ``dev`` and ``main`` sharing ``base``, and its ground truth."""

    name: str
    path: Path
    dev: str
    main: str
    base: str
    files: tuple[FileTruth, ...]

    def truth(self, path: str) -> FileTruth:
        """The ground truth for one path; KeyError when the scenario says nothing about it."""
        for item in self.files:
            if item.path == path:
                return item
        raise KeyError(path)


@dataclass(frozen=True)
class SampleSync(Scenario):
    """The demo sync: every scenario in one repository, in one of three states."""

    state: str = "branches"
    """``branches``, ``in-progress`` (the bot's merge stopped) or ``merge-commit``."""
    sync_branch: str | None = None
    """The bot's ``main2dev/DD_MM_YYYY`` branch, checked out unless state is ``branches``."""
    merge: str | None = None
    """The bot's merge commit (parents dev, main) when state is ``merge-commit``."""
