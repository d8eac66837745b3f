"""Git's line diff and three-way merge, reimplemented in pure Python.

Why this exists: the workbench must agree byte for byte with what `git merge`
produced, hunk by hunk.  `git merge` (merge-ort) runs xdiff with the
*histogram* algorithm and the "zealous" conflict level; `git merge-file`
runs *myers* with "zealous_alnum".  libgit2 has no histogram diff, and
Python's difflib aligns differently, so neither can reproduce git's conflict
regions.  This package follows the algorithms of git's xdiff (LibXDiff by
Davide Libenzi, as modified by the git project) closely enough to give the
same edit scripts, and the test-suite checks that against the git binary.

Provenance: the algorithms here are those of git's ``xdiff/`` directory
(LGPL-2.1-or-later); this subpackage is offered under the same licence.

Public entry points:
    diff_lines(a, b, algorithm)  -> tuple[Edit, ...]
    merge_lines(base, ours, theirs, ...) -> MergeResult
"""

from __future__ import annotations

from workbench.analysis.xdiff.diff import Algorithm, diff_lines
from workbench.analysis.xdiff.lines import split_lines
from workbench.analysis.xdiff.merge import (
    ChunkMode,
    Favor,
    MergeChunk,
    MergeLevel,
    MergeResult,
    Style,
    coalesce_alnum,
    merge_lines,
    text_model,
)
from workbench.analysis.xdiff.packed import joined
from workbench.git.types import Edit, Script

__all__ = [
    "Algorithm",
    "Edit",
    "ChunkMode",
    "Favor",
    "MergeLevel",
    "MergeChunk",
    "MergeResult",
    "Script",
    "Style",
    "coalesce_alnum",
    "diff_lines",
    "joined",
    "merge_lines",
    "split_lines",
    "text_model",
]
