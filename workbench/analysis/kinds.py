"""The analysis' closed sets: situations, statuses, levels, signal kinds and the JSON string sets.

Kept apart from the records in ``model.py`` (which re-exports every name, so
callers import from the model); each is a ``(str, Enum)`` whose members format
as their JSON value, or a ``Literal`` where the value only travels as a string.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

Whose = Literal["dev", "main"]
"""Which side's code (an API mismatch's caller)."""
MismatchKind = Literal["missing-import", "missing-attribute", "arity", "unknown-keyword", "undefined-name"]
Verdict = Literal["restore-file", "leave-deleted", "check"]
"""What to do with a file main has and the result lacks."""
PolicyRule = Literal["keep-dev", "override-from-main", "coupled", "note"]
PolicyKind = Literal[
    "main-text-in-keep-dev", "keep-dev-absent", "override-not-main", "coupled-split", "uv-source-missing", "uv-source-revision"
]
"""What a policy finding found."""
Severity = Literal["high", "medium", "info"]
"""How much a policy finding matters (the closed sets above are JSON strings, hence Literal, not Enum)."""


class SyncReason(str, Enum):
    """Why a commit is the sync's own, not a side's (``reason`` in JSON)."""

    MERGE = "sync merge"
    """A merge of the other side into this one (an earlier sync)."""
    BRANCH = "sync branch"
    """A commit on an earlier sync merge's branch, after the merge (its fixes)."""
    BOT = "sync bot"
    """Authored by one of the policy's bot identities."""


class Mode(str, Enum):
    """Which of the three situations is being analysed (or one file for git mergetool)."""

    IN_PROGRESS = "in-progress"
    MERGE_COMMIT = "merge-commit"
    PREVIEW = "preview"
    MERGETOOL = "mergetool"


class FileStatus(str, Enum):
    """What the sync did to a file that needed a look."""

    CONFLICTED = "conflicted"
    THEIRS_RESOLVED = "theirs-resolved"
    HAND_RESOLVED = "hand-resolved"
    APP_RESOLVED = "app-resolved"
    """The result holds what the workbench wrote from a person's decisions (``decided_by`` app), whichever
    side they took: neither ``-X theirs`` nor an unknown hand."""
    MODIFY_DELETE = "modify-delete"
    ADD_ADD = "add-add"
    BINARY = "binary"
    RESOLUTION_EDITED = "resolution-edited"
    """git merged the file cleanly; the result changed lines of that merge."""
    TOOK_DEV_FILE = "took-dev-file"
    """git merged the file cleanly; the result is dev's whole file (main's changes dropped)."""
    TOOK_MAIN_FILE = "took-main-file"
    """git merged the file cleanly; the result is main's whole file (dev's changes dropped)."""
    RESOLUTION_ADDED = "resolution-added"
    """git's merge has no such file; the result added it."""
    RESOLUTION_DELETED = "resolution-deleted"
    """git's merge has the file; the result deleted it."""

    @property
    def beyond_merge(self) -> bool:
        """A status only a change beyond git's own merge gets (git merged the path cleanly)."""
        return self in _BEYOND


class ConflictKind(str, Enum):
    """The kind of conflict a plain merge reports for the path."""

    CONTENT = "content"
    ADD_ADD = "add-add"
    MODIFY_DELETE = "modify-delete"
    BINARY = "binary"
    MODE = "mode"
    SYMLINK = "symlink"
    SUBMODULE = "submodule"
    RENAME = "rename"
    NONE = "none"
    """No conflict: git merged the path cleanly and the result changed it."""


_BEYOND = frozenset(
    {
        FileStatus.RESOLUTION_EDITED,
        FileStatus.TOOK_DEV_FILE,
        FileStatus.TOOK_MAIN_FILE,
        FileStatus.RESOLUTION_ADDED,
        FileStatus.RESOLUTION_DELETED,
    }
)


class HunkKind(str, Enum):
    """Where a hunk comes from: a conflict of git's merge, or an edit of what git merged cleanly."""

    CONFLICT = "conflict"
    EDIT = "edit"


class Taken(str, Enum):
    """Which side's text the result holds for a hunk."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    OTHER = "other"
    UNRESOLVED = "unresolved"


class Resolver(str, Enum):
    """Who decided the conflicts of the sync merge (``resolver.py`` tells)."""

    THEIRS = "-X theirs"
    """Every conflict holds what ``-X theirs`` writes, and nothing git merged cleanly changed."""
    RESOLUTION = "resolution"
    """The bot or a person resolved them (or the merge is still being resolved)."""


class Rendered(str, Enum):
    """Which of a file's texts are rendered from its merge whenever read instead of kept (``FileAnalysis``).

    A text file resolved as ``-X theirs`` (every file of a preview) holds
    exactly the merge rendered for main: keeping those bytes as well as the
    merge's lines took a fifth of the memory of a sync of 10,000 files
    (1.34 GB at the end of its stages, 1.09 GB without them).
    """

    NOTHING = "nothing"
    """Both texts are kept as they are (or absent)."""
    THEIRS = "theirs"
    """What ``-X theirs`` writes is the merge rendered for main; the result is kept."""
    BOTH = "both"
    """The result is that rendering too."""


class Decider(str, Enum):
    """Who settled a file's content (``decided_by`` in JSON)."""

    APP = "app"
    """The workbench wrote what the result holds (its journal says so)."""
    FIX_COMMIT = "fix commit"
    """A commit after the merge changed the file (the result is a later commit)."""
    THEIRS = "-X theirs"
    """Main's file as the strategy left it."""
    HAND = "hand"
    """Any other resolution: a person, or the bot's own."""


class Level(str, Enum):
    """Risk level; ``rank`` orders them."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def rank(self) -> int:
        return {"low": 0, "medium": 1, "high": 2}[self.value]


class SignalKind(str, Enum):
    """What a piece of risk evidence says (``signals[].kind`` in JSON); each stage gives its own a weight."""

    # the risk stage, on conflict hunks and whole files (docs/risk.md)
    OLDER_DEV_STATE = "older-dev-state"
    SQUASH_COUNTERPART = "squash-counterpart"
    MAIN_AHEAD = "main-ahead"
    DEV_ONLY_LINES_DROPPED = "dev-only-lines-dropped"
    MAIN_REMOVED_INTENTIONALLY = "main-removed-intentionally"
    MAIN_ONLY_LINES_DROPPED = "main-only-lines-dropped"
    DEV_REMOVED_INTENTIONALLY = "dev-removed-intentionally"
    LAYOUT_ONLY = "layout-only"
    """Lost lines the result holds laid out anew (the same tokens, or an import it still makes): not lost."""
    MOVED_IN_RESULT = "moved-in-result"
    """Lost lines the result holds elsewhere, as often as the side's file does: not lost."""
    REMOVED_ON_PURPOSE = "removed-on-purpose"
    """Lost lines the other side once had and a commit of its own (never the sync's) removed: its intent."""
    LOST_WITH_ITS_CHANGE = "lost-with-its-change"
    """A medium hunk losing lines of the same change as a high item's other hunks: read and restored with them."""
    POLICY_KEEPS_DEV = "policy-keeps-dev"
    MAIN_DELETED_FILE = "main-deleted-file"
    DEV_DELETED_FILE = "dev-deleted-file"
    BINARY_CHANGED_BOTH = "binary-changed-both"
    TYPE_CONFLICT = "type-conflict"
    """The sides hold different types at the path (a file, a symlink, a submodule, a directory)."""
    RESULT_HAS_DEV = "result-has-dev"
    STILL_CONFLICTED = "still-conflicted"
    # edits beyond git's merge
    RESOLUTION_DROPPED_DEV = "resolution-dropped-dev"
    RESOLUTION_DROPPED_MAIN = "resolution-dropped-main"
    # the API audit and the deleted-files audit
    API_MISMATCH = "api-mismatch"
    API_MISMATCH_CALLEE = "api-mismatch-callee"
    DELETED_IMPORTED = "deleted-imported"
    DUPLICATE_DEFINITION = "duplicate-definition"
    """The result defines a name twice in one scope where dev and main each defined it once (git merged it)."""
    # the sync policy
    POLICY_KEEP_DEV = "policy-keep-dev"
    POLICY_COUPLED = "policy-coupled"
    POLICY_UV_SOURCE = "policy-uv-source"
    POLICY_UV_REVISION = "policy-uv-revision"
    POLICY_OVERRIDE = "policy-override"
    POLICY_OVERRIDE_DIVERGED = "policy-override-diverged"
    POLICY_NOTE = "policy-note"
    # warnings without weight
    MODEL_MISMATCH = "model-mismatch"
    """The hunks do not re-create what git wrote for the file (never silent)."""
    MODE_CONFLICT = "mode-conflict"
    """Dev and main give the file different modes (executable or not), neither the base's: git cannot merge them."""
    NO_HISTORY = "no-history"
    """git mergetool passed three versions and no repository history could be read."""


class Take(str, Enum):
    """What a candidate writes in place of a hunk (``take`` in JSON, a ``decide --take`` name)."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    """Dev's lines, then main's."""
    BOTH_MAIN_FIRST = "both-main-first"
    SPLICE = "splice"
    """Dev's lines plus main's new lines, each side's deletions kept (dev's first where both wrote)."""
    SPLICE_MAIN_FIRST = "splice-main-first"
    WORDS = "words"
    """The three texts merged word by word, where that merge is clean."""
    MAIN_FORMATTED = "main-formatted"
    """Main's lines laid out by the repository's formatter (black, isort)."""
    BOTH_FORMATTED = "both-formatted"
    """Dev's lines then main's, laid out by the repository's formatter."""

    @property
    def computed(self) -> bool:
        """A resolution whose text is not one side or a concatenation: JSON carries its ``text``."""
        return self not in (Take.MAIN, Take.DEV, Take.BOTH, Take.BOTH_MAIN_FIRST)


class Rung(str, Enum):
    """The evidence a suggestion stands on (``rung`` in JSON), in the order the ladder tries them."""

    MAIN_REMOVED = "main-removed"
    """A main commit deleted the base lines on purpose: main."""
    MAIN_REMOVED_INCIDENTALLY = "main-removed-incidentally"
    """Main deleted the lines while doing something else (or the result still needs them): dev."""
    SQUASH_CHAIN = "squash-chain"
    """Main's side is an older dev state, or the squash of one dev PR that dev built on since: dev."""
    MAIN_AHEAD = "main-ahead"
    """Main already contains dev's change here: main."""
    GATHERED_SQUASH = "gathered-squash"
    """Main's lines come from a squash of several dev PRs (main took dev's chain as one): main."""
    DEV_LAYOUT_ONLY = "dev-layout-only"
    """Dev only re-laid the base's code out; main changed it: main, laid out by the formatter."""
    ONE_SIDE_IS_MERGE = "one-side-is-merge"
    """The three texts merge cleanly word by word, and the merge is one side's text: that side."""
    DEV_UNCHANGED = "dev-unchanged"
    """Dev's lines are the base's (main's edit is the only one here), and no squash evidence says otherwise: main."""
    MAIN_WITHIN_DEV = "main-within-dev"
    """Every line main wrote is in dev's text and every base line main deleted dev deleted too: dev."""
    DEV_DELETED = "dev-deleted"
    """Dev deleted the base lines; main only added lines among them (it deleted none): dev."""
    IMPORT_UNION = "import-union"
    """No base lines, and each side only added imports: both, sorted by the repository's isort when it has one."""


class FileTake(str, Enum):
    """What a per-file suggestion keeps (``take``, a ``decide --take`` name)."""

    FILE_DEV = "file-dev"
    FILE_MAIN = "file-main"


class FileRung(str, Enum):
    """Why one choice fits the whole file."""

    LOCK_FILE = "lock-file"
    MEASURED_VALUES = "measured-values"
