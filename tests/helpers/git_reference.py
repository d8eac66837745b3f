"""Reference answers from the git binary, for tests that compare against it."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)


def isolated_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
        LC_ALL="C",
    )
    return env


def git(cwd: Path, *args: str, ok: tuple[int, ...] = (0,)) -> bytes:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=isolated_env())
    assert proc.returncode in ok, (args, proc.returncode, proc.stderr)
    return proc.stdout


def diff_no_index(a: bytes, b: bytes, algorithm: str) -> list[tuple[int, int, int, int]]:
    """git's 0-context edit script between two texts as (i1, chg1, i2, chg2)."""
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = Path(tmp, "a"), Path(tmp, "b")
        pa.write_bytes(a)
        pb.write_bytes(b)
        out = git(
            Path(tmp), "diff", "--no-index", "-U0", "--no-indent-heuristic", "-a",
            f"--diff-algorithm={algorithm}", str(pa), str(pb), ok=(0, 1),
        )
    script = []
    for m in _HUNK.finditer(out):
        c1 = int(m[2]) if m[2] is not None else 1
        c2 = int(m[4]) if m[4] is not None else 1
        s1, s2 = int(m[1]), int(m[3])
        script.append((s1 - 1 if c1 else s1, c1, s2 - 1 if c2 else s2, c2))
    return script


def merge_file(base: bytes, ours: bytes, theirs: bytes, *options: str) -> bytes:
    """``git merge-file -p`` with labels OURS/BASE/THEIRS."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp, name) for name in ("ours", "base", "theirs")]
        for path, data in zip(paths, (ours, base, theirs), strict=True):
            path.write_bytes(data)
        return git(
            Path(tmp), "merge-file", "-p", *options, "-L", "OURS", "-L", "BASE", "-L", "THEIRS",
            *(str(p) for p in paths), ok=tuple(range(0, 128)),
        )


def real_merges(tmp: Path, base: bytes, ours: bytes, theirs: bytes) -> dict[str, bytes]:
    """What ``git merge`` (merge-ort, histogram) writes: conflicted, -X ours, -X theirs."""
    git(tmp, "init", "-q", "-b", "dev")
    git(tmp, "config", "core.autocrlf", "false")
    Path(tmp, "f").write_bytes(base)
    git(tmp, "add", "f")
    git(tmp, "commit", "-qm", "base")
    git(tmp, "branch", "main")
    Path(tmp, "f").write_bytes(ours)
    git(tmp, "commit", "-qam", "dev", "--allow-empty")
    dev = git(tmp, "rev-parse", "HEAD").decode().strip()
    git(tmp, "checkout", "-q", "main")
    Path(tmp, "f").write_bytes(theirs)
    git(tmp, "commit", "-qam", "main", "--allow-empty")
    out = {}
    tree = git(tmp, "-c", "merge.conflictStyle=merge", "merge-tree", "--write-tree", "dev", "main", ok=(0, 1))
    out["conflicted"] = git(tmp, "cat-file", "blob", tree.split(b"\n")[0].decode() + ":f")
    git(tmp, "checkout", "-q", "-f", "dev")
    for option in ("ours", "theirs"):
        git(tmp, "merge", "-q", "--no-edit", "-X", option, "main", ok=(0, 1))
        out[option] = Path(tmp, "f").read_bytes()
        git(tmp, "reset", "-q", "--hard", dev)
    return out
