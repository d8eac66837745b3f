"""Acknowledgements: "reviewed, keep it this way" for a risky hunk, committed with the sync PR.

A reviewer who decides that a high-risk hunk is right as it is (main's side
is correct here: the caller was fixed elsewhere) records it in
``.workbench/acks.toml`` at the top of the work tree, with a reason and who
said so, and commits the file with the PR.  ``report --fail-on`` reads it
from the result (the PR head, or the work tree of a merge in progress) and
does not fail on acknowledged hunks; every report says they were
acknowledged, by whom and why.

A hunk is named by a fingerprint of its path and its base, dev and main
text, never by line numbers: commits that shift the file (fixes above the
hunk, the PR's later commits) leave the fingerprint as it is, while a hunk
whose text changed is a different hunk and needs a new look.  Written with
tomlkit, so comments and order a person added by hand stay as they were.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from workbench.analysis.model import ACKS_PATH, Hunk, HunkKind, SyncAnalysis, Taken
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.resolve.splice import Choice

"""Where acknowledgements live, relative to the top of the work tree (and in the PR's tree)."""

_HEADER = (
    "Hunks of the sync that were reviewed and are kept as decided here (written by `workbench ack` and the\n"
    "app's acknowledge key). `workbench report --fail-on` does not fail on them; commit this file with the PR."
)

_TAKEN_CHOICE = {Taken.MAIN: Choice.MAIN, Taken.DEV: Choice.DEV, Taken.BOTH: Choice.BOTH, Taken.OTHER: Choice.CUSTOM}


@dataclass(frozen=True, slots=True)
class Ack:
    """One acknowledged hunk."""

    path: str
    hunk: str
    """The hunk's fingerprint (``fingerprint``)."""
    decision: Choice
    """What is kept (main, dev, both, both-main-first, custom; result, merged for edits)."""
    reason: str
    who: str
    at: str = ""
    """When, as ISO 8601 UTC."""


def fingerprint(path: str, hunk: Hunk) -> str:
    """The hunk's name in acks.toml: its path and its three texts, without line numbers.

    An edit hunk's name also holds what the result put there: acknowledging it keeps that text, and a
    different edit of the same region is a new question."""
    digest = hashlib.sha256()
    edit = (b"\0edit", *(hunk.result_text or ())) if hunk.kind is HunkKind.EDIT else ()
    for part in (path.encode("utf-8", "surrogateescape"), *hunk.base_text, b"\0", *hunk.dev_text, b"\0",
                 *hunk.main_text, *edit):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()[:20]


def held_choice(hunk: Hunk) -> Choice | None:
    """The choice the result already holds for the hunk (None: still conflicted, nothing to keep); an edit
    hunk holds the result's own text."""
    if hunk.kind is HunkKind.EDIT:
        return Choice.RESULT
    return _TAKEN_CHOICE.get(hunk.taken)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def parse_acks(text: str, where: str = ACKS_PATH) -> list[Ack]:
    """The acknowledgements in a file's text (``WorkbenchError`` naming the file when it is not valid)."""
    import tomlkit  # here: most syncs have no acks file, and importing it costs every start of the app
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise WorkbenchError(f"{where} is not valid TOML: {exc}") from None
    entries = document.get("ack", [])
    if not isinstance(entries, list):
        raise WorkbenchError(f"{where}: 'ack' must be an array of tables ([[ack]])")
    acks: list[Ack] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise WorkbenchError(f"{where}: ack {number} is not a table")
        values = {key: entry.get(key) for key in ("path", "hunk", "decision", "reason", "who", "at")}
        missing = [key for key in ("path", "hunk", "decision", "reason") if not isinstance(values[key], str)
                   or not str(values[key]).strip()]
        if missing:
            raise WorkbenchError(f"{where}: ack {number} lacks {', '.join(missing)}")
        if values["decision"] not in {c.value for c in Choice}:
            raise WorkbenchError(f"{where}: ack {number} has an unknown decision {values['decision']!r}")
        path, hunk, decision, reason, who, at = (str(values[key] or "") for key in ("path", "hunk", "decision", "reason", "who", "at"))
        acks.append(Ack(path, hunk, Choice(decision), reason, who, at))
    return acks


def worktree_acks(root: Path) -> list[Ack]:
    """The acknowledgements in the work tree (none when the file does not exist)."""
    try:
        text = (root / ACKS_PATH).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkbenchError(f"cannot read {ACKS_PATH}: {exc}") from None
    return parse_acks(text)


def commit_acks(repo: GitRepo, commit: str) -> list[Ack]:
    """The acknowledgements committed in ``commit``'s tree (what a PR head carries)."""
    entry = repo.tree_entry(commit, ACKS_PATH)
    if entry is None:
        return []
    try:
        text = repo.read_blob(entry[0]).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkbenchError(f"{ACKS_PATH} in {commit[:10]} is not UTF-8: {exc}") from None
    return parse_acks(text, f"{ACKS_PATH} in {commit[:10]}")


def sync_acks(repo: GitRepo, analysis: SyncAnalysis) -> list[Ack]:
    """The acknowledgements that belong to the sync's result: committed in the result commit, else the work tree's."""
    if analysis.result_commit is not None:
        return commit_acks(repo, analysis.result_commit)
    if repo.workdir is None:
        return []
    return worktree_acks(repo.workdir)


def matched(acks: list[Ack], analysis: SyncAnalysis) -> dict[tuple[str, int], Ack]:
    """(path, hunk index) -> its acknowledgement; the last entry for a hunk wins."""
    wanted = {(a.path, a.hunk): a for a in acks}
    paths = {a.path for a in acks}
    found: dict[tuple[str, int], Ack] = {}
    for entry in analysis.files:
        if entry.path not in paths:  # no hunk of it acknowledged: no fingerprint to take (0.1 s for 620 hunks)
            continue
        for hunk in entry.all_hunks:
            ack = wanted.get((entry.path, fingerprint(entry.path, hunk)))
            if ack is not None:
                found[(entry.path, hunk.index)] = ack
    return found


def record_ack(root: Path, ack: Ack) -> Path:
    """Add (or replace) ``ack`` in the work tree's acks.toml, atomically; the file's own text stays as it was."""
    target = root / ACKS_PATH
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkbenchError(f"cannot read {ACKS_PATH}: {exc}") from None
    parse_acks(text)  # refuse to rewrite a file that is not valid
    import tomlkit

    document = tomlkit.parse(text) if text else tomlkit.document()
    if not text:
        for line in _HEADER.splitlines():
            document.add(tomlkit.comment(line))
    entries = document.get("ack")
    if entries is None:
        entries = tomlkit.aot()
        document.append("ack", entries)
    for k in reversed(range(len(entries))):
        if entries[k].get("path") == ack.path and entries[k].get("hunk") == ack.hunk:
            del entries[k]
    table = tomlkit.table()
    for key in ("path", "hunk", "decision", "reason", "who", "at"):
        value = getattr(ack, key)
        if value:
            table.add(key, value.value if isinstance(value, Choice) else value)
    entries.append(table)
    _atomic_write(target, tomlkit.dumps(document).encode("utf-8"))
    return target


def _atomic_write(target: Path, data: bytes) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".acks-", dir=target.parent)
    except OSError as exc:
        raise WorkbenchError(f"cannot write {ACKS_PATH}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise WorkbenchError(f"cannot write {ACKS_PATH}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def who_am_i(repo: GitRepo) -> str:
    """The reviewer as git knows them: ``user.name <user.email>`` (what commits would say)."""
    name = repo.config_value("user.name") or os.environ.get("GIT_AUTHOR_NAME") or ""
    email = repo.config_value("user.email") or os.environ.get("GIT_AUTHOR_EMAIL") or ""
    return f"{name} <{email}>".strip() if email else name or "unknown"
