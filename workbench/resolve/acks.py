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

import contextlib
import errno
import hashlib
import os
import secrets
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.analysis.model import ACKS_PATH, Hunk, HunkKind, SyncAnalysis, Taken
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.types import FileMode
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision, chosen_text

"""Where acknowledgements live, relative to the top of the work tree (and in the PR's tree)."""

_HEADER = (
    "Hunks of the sync that were reviewed and are kept as decided here (written by `workbench ack`, the app's\n"
    "acknowledge key and `workbench decide`). `workbench report --fail-on` and `workbench gate` read them, each\n"
    "claim checked again; commit this file with the PR."
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
    by: str = ""
    """``agent`` or ``human`` (empty: written before the field existed, by a person)."""
    claim: str = ""
    """Why the decision may leave lines lost (``claims.ClaimKind``'s values); checked whenever read, never trusted."""
    evidence: tuple[str, ...] = ()
    """What the claim cites: commit ids, ``PATH:LINE`` places."""
    run: str = ""
    """The agent run that decided (a CI run id), when known."""
    item: str = ""
    """The worklist item the hunk belonged to when decided."""
    member: str = ""
    """The member's worklist fingerprint when decided (its lost text): how a later sync recalls the decision."""
    take: str = ""
    """What ``decide --take`` chose for the item (``file-main``, ``both``, ...), when it differs in kind from ``decision``."""

    @property
    def by_agent(self) -> bool:
        return self.by == "agent"


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


def hunk_holds(hunk: Hunk, choice: Choice, text: bytes | None = None) -> bool:
    """Whether the result holds ``choice`` in ``hunk``: the text it would put there is the result's text.

    ``text``: a ``custom`` decision's; a recorded ``custom`` names none, and is held by any edit of the
    result's own (``other``).  An edit hunk's ``result`` is what the result holds by definition, and
    ``merged`` is held only once the result holds git's merge there again.
    """
    if hunk.result_text is None:
        return False
    held = b"".join(hunk.result_text)
    if hunk.kind is HunkKind.EDIT:
        if choice is Choice.RESULT:
            return True
        return choice is Choice.MERGED and hunk.merged_text is not None and held == b"".join(hunk.merged_text)
    if choice in EDIT_ONLY:
        return False
    if choice is Choice.CUSTOM and text is None:
        return hunk.taken is Taken.OTHER
    crlf = any(line.endswith(b"\r\n") for line in (*hunk.dev_text, *hunk.main_text))
    return held == chosen_text(hunk.dev_text, hunk.main_text, Decision(choice, text), crlf)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def parse_acks(text: str, where: str = ACKS_PATH) -> list[Ack]:
    """The acknowledgements in a file's text (``WorkbenchError`` naming the file when it is not valid)."""
    import tomllib  # the standard library's reader: the record is read far more often than written

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
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
        acks.append(Ack(path, hunk, Choice(decision), reason, who, at, **_extended(entry, where, number)))
    return acks


BY = ("agent", "human")
_EXTENDED = ("by", "claim", "run", "item", "member", "take")


def _extended(entry: dict[str, Any], where: str, number: int) -> dict[str, Any]:
    """The agent's fields of an entry (``by``, ``claim``, ``evidence``, ``run``, ``item``, ``member``, ``take``)."""
    from workbench.resolve.claims import ClaimKind

    found: dict[str, Any] = {}
    for key in _EXTENDED:
        value = entry.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise WorkbenchError(f"{where}: ack {number}'s {key} must be a string")
        found[key] = str(value)
    if found.get("by", "") not in ("", *BY):
        raise WorkbenchError(f"{where}: ack {number} has an unknown 'by' {found['by']!r} (agent or human)")
    if found.get("claim", "") not in ("", *(c.value for c in ClaimKind)):
        raise WorkbenchError(f"{where}: ack {number} has an unknown claim {found['claim']!r}")
    evidence = entry.get("evidence")
    if evidence is not None:
        if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
            raise WorkbenchError(f"{where}: ack {number}'s evidence must be a list of strings")
        found["evidence"] = tuple(str(e) for e in evidence)
    return found


def worktree_acks(root: Path) -> list[Ack]:
    """The acknowledgements in the work tree (none when the file does not exist); never read through a symlink."""
    folder = _record_dir(root, create=False)
    if folder is None:
        return []
    try:
        text = _read_record(folder)
    finally:
        os.close(folder)
    return parse_acks(text) if text else []


def commit_acks(repo: GitRepo, commit: str) -> list[Ack]:
    """The acknowledgements committed in ``commit``'s tree (what a PR head carries)."""
    entry = repo.tree_entry(commit, ACKS_PATH)
    if entry is None:
        return []
    if entry[1] != FileMode.REGULAR and entry[1] != FileMode.EXECUTABLE:
        what = "a symlink" if entry[1] == FileMode.SYMLINK else "not a file"
        raise WorkbenchError(f"{ACKS_PATH} in {commit[:10]} is {what}: acknowledgements are only read from a "
                             "regular file")
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


def matched(acks: Sequence[Ack], analysis: SyncAnalysis) -> dict[tuple[str, int], Ack]:
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
    """Add (or replace) ``ack`` in the work tree's acks.toml, atomically; the file's own text stays as it was.

    Neither ``.workbench`` nor the file is ever followed when it is a
    symlink (a branch can commit one pointing anywhere): ``WorkbenchError``.
    """
    return record_acks(root, [ack])


def record_acks(root: Path, acks: list[Ack]) -> Path:
    """``record_ack`` of several, in one write of the file.  New entries are appended as text (the file's own
    text stays byte for byte); only replacing an entry rewrites the document (with tomlkit, comments kept)."""
    folder = _record_dir(root, create=True)
    assert folder is not None
    try:
        text = _read_record(folder)
        present = {(a.path, a.hunk) for a in parse_acks(text)}  # refuse to rewrite a file that is not valid
        import tomlkit
        from tomlkit.items import AoT

        data = None if any((ack.path, ack.hunk) in present for ack in acks) else _appended(text, acks)
        if data is None:
            document = tomlkit.parse(text)
            entries = document["ack"]
            if not isinstance(entries, AoT):  # an inline ``ack = [...]``: rewritten as tables
                entries = tomlkit.aot()
                for entry in document["ack"]:
                    entries.append(tomlkit.item(entry.unwrap()))
                document["ack"] = entries
            for ack in acks:
                for k in reversed(range(len(entries))):
                    if entries[k].get("path") == ack.path and entries[k].get("hunk") == ack.hunk:
                        del entries[k]
                entries.append(_table(ack))
            data = tomlkit.dumps(document)
        parse_acks(data)  # never leave a record the next read refuses
        _atomic_write(folder, data.encode("utf-8"))
    finally:
        os.close(folder)
    return root / ACKS_PATH


def _appended(text: str, acks: list[Ack]) -> str | None:
    """The file's text with ``acks`` appended as new ``[[ack]]`` tables (None: the text does not take an
    appended table, say an inline ``ack = [...]`` array, so the document is rewritten instead)."""
    import tomlkit

    added = tomlkit.document()
    if not text:
        for line in _HEADER.splitlines():
            added.add(tomlkit.comment(line))
    table = tomlkit.aot()
    for ack in acks:
        table.append(_table(ack))
    added.append("ack", table)
    data = text + ("" if not text or text.endswith("\n") else "\n") + tomlkit.dumps(added)
    try:
        parse_acks(data)
    except WorkbenchError:
        return None
    return data


def _table(ack: Ack) -> Any:
    import tomlkit

    table = tomlkit.table()
    for key in ("path", "hunk", "decision", "reason", "who", "at", *_EXTENDED[:2], "evidence", *_EXTENDED[2:]):
        value = getattr(ack, key)
        if value:
            table.add(key, value.value if isinstance(value, Choice) else list(value) if isinstance(value, tuple)
                      else value)
    return table


_FOLDER, _NAME = ACKS_PATH.split("/")
_SYMLINK = (f"{ACKS_PATH}: {{what}} is a symlink; acknowledgements are never read or written through one "
            "(replace it with a regular {{kind}})")


def _record_dir(root: Path, *, create: bool) -> int | None:
    """A descriptor of the work tree's ``.workbench`` directory, opened without following a symlink
    (None: absent and not ``create``d)."""
    folder = root / _FOLDER
    for attempt in range(2):
        try:
            return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            if not create or attempt:
                return None
            try:
                folder.mkdir()
            except FileExistsError:
                pass
            except OSError as exc:
                raise WorkbenchError(f"cannot write {ACKS_PATH}: {exc.strerror or exc}") from None
        except OSError as exc:
            if folder.is_symlink():
                raise WorkbenchError(_SYMLINK.format(what=_FOLDER, kind="directory")) from None
            raise WorkbenchError(f"cannot {'write' if create else 'read'} {ACKS_PATH}: {_FOLDER} is not a directory "
                                 f"({exc.strerror or exc})") from None
    return None


def _read_record(folder: int) -> str:
    """The text of acks.toml in ``folder`` ("" when absent): a regular file, never a symlink."""
    try:
        fd = os.open(_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=folder)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WorkbenchError(_SYMLINK.format(what=ACKS_PATH, kind="file")) from None
        raise WorkbenchError(f"cannot read {ACKS_PATH}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise WorkbenchError(f"cannot read {ACKS_PATH}: not a regular file")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise WorkbenchError(f"cannot read {ACKS_PATH}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkbenchError(f"cannot read {ACKS_PATH}: {exc}") from None


def _atomic_write(folder: int, data: bytes) -> None:
    """Write acks.toml in ``folder`` through a temporary file and a rename (the umask's permissions)."""
    temp = f".acks-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=folder)
    except OSError as exc:
        raise WorkbenchError(f"cannot write {ACKS_PATH}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, _NAME, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise WorkbenchError(f"cannot write {ACKS_PATH}: {exc.strerror or exc}") from None


def who_am_i(repo: GitRepo) -> str:
    """The reviewer as git names a commit's author (``git var GIT_AUTHOR_IDENT``: ``GIT_AUTHOR_NAME`` before
    ``user.name``, the configuration files git reads), or "unknown" when git has no identity to give."""
    return repo.author_ident() or "unknown"
