"""The plain merge of the two tips, computed by git itself, in memory.

``git merge-tree --write-tree`` runs merge-ort (rename detection, content
merges, every conflict kind) without touching the index or the work tree,
and reports each conflicted path's stages.  Those stages, not conflict
markers, are what the hunk model is built from.
"""

from __future__ import annotations

from dataclasses import replace

from workbench.errors import WorkbenchError
from workbench.git.attributes import attributes_of
from workbench.git.repo import GitRepo
from workbench.git.runner import StartedGit, require_merge_tree
from workbench.git.types import ConflictEntry, MergeMessage, MergeTreeResult, StageEntry


def merge_tree(repo: GitRepo, ours: str, theirs: str) -> MergeTreeResult:
    """Merge ``theirs`` into ``ours`` (no strategy option) and collect conflicts.

    The objects git computes go to a private quarantine: ``.git`` is untouched.
    Attributes are ``ours``'s, as in the real merge (see attributes.py).
    """
    with PendingMergeTree(repo, ours, theirs) as pending:
        return pending.result()


class PendingMergeTree:
    """``merge_tree(repo, ours, theirs)`` computed by git beside this process until ``result()``.

    The caller does other work meanwhile (e.g. imports the analysis); used as
    a context manager, leaving early stops git.  The times of the object
    files git freshens are put back once it is done, whatever happened.
    """

    def __init__(self, repo: GitRepo, ours: str, theirs: str) -> None:
        require_merge_tree()
        self._repo = repo
        self._ours, self._theirs = ours, theirs
        env = {**repo.object_quarantine(), **attributes_of(repo, ours)}
        self._git = StartedGit(env["GIT_WORK_TREE"], [*repo.reading_options(), "-c", "merge.conflictStyle=merge",
                                                      "merge-tree", "--write-tree", "-z", ours, theirs],
                               env, around=repo.object_times_kept())

    def result(self) -> MergeTreeResult:
        """The plain merge (waits for git)."""
        proc = self._git.wait(check=False)
        if proc.returncode not in (0, 1):
            lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            detail = lines[-1] if lines else f"exit status {proc.returncode}"
            raise WorkbenchError(f"git merge-tree failed: {detail}")
        parsed = parse_merge_tree(proc.stdout, clean=proc.returncode == 0)
        return _with_merged_blobs(self._repo, _named(parsed, {self._ours: "dev", self._theirs: "main"}))

    def __enter__(self) -> PendingMergeTree:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._git.cancel()


def _named(result: MergeTreeResult, sides: dict[str, str]) -> MergeTreeResult:
    """git's messages with the merged commits' ids as the sync names them: ``deleted in main (28e13c484b)``.

    git names each side by the argument it was given, here a full commit id
    (``deleted in 28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2``): in the Why panel and the JSON a
    reader needs to know which side that is.  Ours is the sync's dev, theirs its main.
    """
    def named(text: str) -> str:
        for sha, side in sides.items():
            text = text.replace(sha, f"{side} ({sha[:10]})")
        return text

    def message(m: MergeMessage) -> MergeMessage:
        return replace(m, text=named(m.text))

    if not any(sha in m.text for m in result.messages for sha in sides):
        return result
    conflicts = tuple(replace(c, messages=tuple(message(m) for m in c.messages)) for c in result.conflicts)
    return replace(result, conflicts=conflicts, messages=tuple(message(m) for m in result.messages))


def parse_merge_tree(out: bytes, clean: bool) -> MergeTreeResult:
    """Parse ``merge-tree --write-tree -z`` output (tree, stages, messages)."""
    fields = out.split(b"\0")
    tree = fields[0].decode("ascii").strip()
    pos = 1
    stages: dict[str, dict[int, StageEntry]] = {}
    order: list[str] = []
    if not clean:
        while pos < len(fields) and fields[pos]:
            head, _, raw_path = fields[pos].partition(b"\t")
            mode, oid, stage = head.decode("ascii").split(" ")
            path = _path(raw_path)
            if path not in stages:
                stages[path] = {}
                order.append(path)
            stages[path][int(stage)] = StageEntry(path, oid, int(mode, 8))
            pos += 1
        pos += 1
    messages: list[MergeMessage] = []
    while pos < len(fields) and fields[pos]:
        if not fields[pos].isdigit():
            # git appends free-form advice (e.g. about submodules) after the
            # structured messages; keep it as one message for no path.
            text = b"\0".join(fields[pos:]).rstrip(b"\0").decode("utf-8", "replace").strip()
            messages.append(MergeMessage((), "advice", text))
            break
        count = int(fields[pos])
        paths = tuple(_path(p) for p in fields[pos + 1 : pos + 1 + count])
        kind = fields[pos + 1 + count].decode("utf-8", "replace")
        text = fields[pos + 2 + count].decode("utf-8", "replace").rstrip("\n")
        messages.append(MergeMessage(paths, kind, text))
        pos += 3 + count
    by_path: dict[str, list[MergeMessage]] = {}
    for message in messages:
        for path in dict.fromkeys(message.paths):
            by_path.setdefault(path, []).append(message)
    conflicts = tuple(
        ConflictEntry(
            path=path,
            base=stages[path].get(1),
            ours=stages[path].get(2),
            theirs=stages[path].get(3),
            messages=tuple(by_path.get(path, ())),
        )
        for path in order
    )
    return MergeTreeResult(tree, clean, conflicts, tuple(messages))


def _with_merged_blobs(repo: GitRepo, result: MergeTreeResult) -> MergeTreeResult:
    """Attach the blob git wrote at each conflicted path (markers and all)."""
    if result.clean:
        return result
    entries = []
    for entry in result.conflicts:
        found = repo.tree_entry_in_tree(result.tree, entry.path)
        entries.append(
            ConflictEntry(
                entry.path,
                entry.base,
                entry.ours,
                entry.theirs,
                entry.messages,
                merged_oid=found[0] if found else None,
            )
        )
    return MergeTreeResult(result.tree, result.clean, tuple(entries), result.messages)


def _path(raw: bytes) -> str:
    """Paths are bytes in git; keep undecodable bytes round-trippable."""
    return raw.decode("utf-8", "surrogateescape")
