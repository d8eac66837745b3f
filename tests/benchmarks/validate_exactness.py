"""Validate the hunk model against git on every conflicting file of a real sync.

For each content conflict of ``git merge MAIN`` onto DEV:
  * taking main in every hunk must equal ``git merge -X theirs`` (real merge),
  * taking dev in every hunk must equal ``git merge -X ours``,
  * taking both must equal ``git merge-file --union`` (myers, the merge-file
    default before git 2.43) on the same stage blobs: compared for the model
    built with myers; the histogram model is reported alongside.

Usage: MEGATRON_GIT=/path/to/Megatron-LM python tests/benchmarks/validate_exactness.py [DEV MAIN]
(default: sync #4291).  The clone is never modified: the merges run in a
temporary shared clone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from workbench.analysis.xdiff import Algorithm, MergeLevel, coalesce_alnum, merge_lines, split_lines
from workbench.git.merge_tree import merge_tree
from workbench.git.repo import GitRepo
from workbench.resolve.splice import Choice, Decision, splice_merge

SYNC_4291 = ("7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2")


def _git(cwd: Path, *args: str, ok: tuple[int, ...] = (0,), data: bytes | None = None) -> bytes:
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C",
               GIT_AUTHOR_NAME="v", GIT_AUTHOR_EMAIL="v@example.com",
               GIT_COMMITTER_NAME="v", GIT_COMMITTER_EMAIL="v@example.com")
    proc = subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True, env=env)
    if proc.returncode not in ok:
        raise SystemExit(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def _merged_files(clone: Path, dev: str, main: str, option: str, paths: list[str]) -> dict[str, bytes | None]:
    _git(clone, "checkout", "-q", "--detach", "-f", dev)
    _git(clone, "merge", "-q", "--no-edit", "-X", option, main, ok=(0, 1))
    out = {}
    for path in paths:
        full = clone / path
        out[path] = full.read_bytes() if full.is_file() else None
    _git(clone, "merge", "--abort", ok=(0, 128))
    _git(clone, "reset", "-q", "--hard", dev)
    return out


def _union(repo: GitRepo, tmp: Path, base: str | None, ours: str, theirs: str) -> bytes:
    files = []
    for name, oid in (("o", ours), ("b", base), ("t", theirs)):
        path = tmp / name
        path.write_bytes(repo.read_blob(oid) if oid else b"")
        files.append(str(path))
    return _git(tmp, "merge-file", "-p", "--union", *files, ok=tuple(range(128)))


def main() -> int:
    source = os.environ.get("MEGATRON_GIT")
    if not source:
        print("MEGATRON_GIT is not set: nothing to validate")
        return 0
    dev, main_ = (sys.argv[1], sys.argv[2]) if len(sys.argv) == 3 else SYNC_4291
    repo = GitRepo.open(source)
    dev, main_ = repo.resolve(dev), repo.resolve(main_)
    plain = merge_tree(repo, dev, main_)
    content = [c for c in plain.conflicts if c.ours and c.theirs]
    paths = [c.path for c in content]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        clone = tmp / "clone"
        _git(tmp, "clone", "-q", "--shared", "--no-checkout", source, str(clone))
        theirs_files = _merged_files(clone, dev, main_, "theirs", paths)
        ours_files = _merged_files(clone, dev, main_, "ours", paths)
        counts = {"theirs": 0, "ours": 0, "union(myers)": 0, "union(histogram)": 0}
        for entry in content:
            assert entry.ours is not None and entry.theirs is not None  # content conflicts: both sides there
            base, ours, theirs = (split_lines(repo.read_blob(s.oid)) if s else [] for s in (entry.base, entry.ours, entry.theirs))
            model = coalesce_alnum(merge_lines(base, ours, theirs, Algorithm.HISTOGRAM, MergeLevel.ZEALOUS))
            n = len(model.conflicts)
            counts["theirs"] += splice_merge(model, [Decision(Choice.MAIN)] * n) == theirs_files[entry.path]
            counts["ours"] += splice_merge(model, [Decision(Choice.DEV)] * n) == ours_files[entry.path]
            union = _union(repo, tmp, entry.base.oid if entry.base else None, entry.ours.oid, entry.theirs.oid)
            counts["union(histogram)"] += splice_merge(model, [Decision(Choice.BOTH)] * n) == union
            myers = merge_lines(base, ours, theirs, Algorithm.MYERS, MergeLevel.ZEALOUS_ALNUM)
            counts["union(myers)"] += splice_merge(myers, [Decision(Choice.BOTH)] * len(myers.conflicts)) == union
    total = len(content)
    print(f"sync {dev[:10]}..{main_[:10]}: {total} conflicting text files")
    for name, count in counts.items():
        print(f"  {name:18s} {count}/{total} byte-identical")
    exact = counts["theirs"] == counts["ours"] == counts["union(myers)"] == total
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
