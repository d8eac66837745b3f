"""Edit scripts for many blob pairs from one ``git diff-tree`` run (git's own C).

merge-ort diffs base->ours and base->theirs with xdiff's histogram algorithm
and nothing else (no indent heuristic, no whitespace options).  Putting each
side's blobs in a throwaway tree (``git mktree``, written to the object
quarantine) and diffing the trees with the same options yields exactly those
scripts for every conflicted file at once; zero context lines make each hunk
one change of the script.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.git.repo import GitRepo
from workbench.git.runner import StartedGit, run_git
from workbench.git.types import Edit, FileMode, Script

_SECTION = re.compile(rb"^diff --git a/f(\d+) b/f\d+$", re.M)
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)
_DIFF_OPTIONS = (
    "diff-tree",
    "-r",
    "-p",
    "-U0",
    "--inter-hunk-context=0",
    "--histogram",
    "--no-indent-heuristic",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--text",
    "--full-index",
    "--no-color",
)


def histogram_scripts(repo: GitRepo, pairs: Sequence[tuple[str | None, str]]) -> list[Script]:
    """The histogram edit script from ``old`` to ``new`` for each (old, new) blob pair.

    ``old`` None means an empty file (add/add conflicts have no base).
    """
    with PendingScripts(repo, pairs) as pending:
        return pending.scripts()


class PendingScripts:
    """``histogram_scripts(repo, pairs)`` computed by a git process beside this one until ``scripts()``.

    The caller reads something else meanwhile (the side histories); used as
    a context manager, leaving early stops the git process.
    """

    def __init__(self, repo: GitRepo, pairs: Sequence[tuple[str | None, str]]) -> None:
        self._count = len(pairs)
        self._diff: StartedGit | None = None
        if pairs:
            sink = repo.object_sink()
            old_tree = _mktree(repo, [(k, old) for k, (old, _) in enumerate(pairs) if old is not None], sink)
            new_tree = _mktree(repo, [(k, new) for k, (_, new) in enumerate(pairs)], sink)
            self._diff = StartedGit(repo.run_dir, [*repo.reading_options(), *_DIFF_OPTIONS, old_tree, new_tree],
                                    repo.object_quarantine())

    def scripts(self) -> list[Script]:
        """The scripts, in the order of the pairs (waits for git)."""
        return _parse(self._diff.wait().stdout, self._count) if self._diff is not None else []

    def __enter__(self) -> PendingScripts:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._diff is not None:
            self._diff.cancel()


def _mktree(repo: GitRepo, entries: list[tuple[int, str]], env: dict[str, str]) -> str:
    listing = b"".join(f"{FileMode.REGULAR:o} blob {oid}\tf{k}\n".encode("ascii") for k, oid in entries)
    proc = run_git(repo.run_dir, ["mktree", "--missing"], input_bytes=listing, extra_env=env)
    return proc.stdout.decode("ascii").strip()


def _parse(out: bytes, count: int) -> list[Script]:
    scripts: list[Script] = [()] * count
    sections = list(_SECTION.finditer(out))
    for n, section in enumerate(sections):
        end = sections[n + 1].start() if n + 1 < len(sections) else len(out)
        script: list[Edit] = []
        for m in _HUNK.finditer(out, section.end(), end):
            old_start, new_start = int(m[1]), int(m[3])
            old_count = int(m[2]) if m[2] is not None else 1
            new_count = int(m[4]) if m[4] is not None else 1
            script.append(
                Edit(
                    old_start - 1 if old_count else old_start,
                    old_count,
                    new_start - 1 if new_count else new_start,
                    new_count,
                )
            )
        scripts[int(section[1])] = tuple(script)
    return scripts
