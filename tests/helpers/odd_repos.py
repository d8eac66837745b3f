"""Repositories with every odd thing git allows, for the tests of odd input (command line, git reads, analysis)."""

from __future__ import annotations

import os
from pathlib import Path

from workbench.sample import RepoBuilder

BODY = "".join(f"line {i}\n" for i in range(30))
HOSTILE_PATH = "sp ace/üñí [bold]\x1b[31mred.txt"
HOSTILE_SUBJECT = "dev work [link=https://evil]click[/link] \x1b[31mred\x1b[0m (#2)"


def every_conflict_kind(root: Path) -> RepoBuilder:
    """dev and main conflicting in every way; dev is checked out, nothing merged yet."""
    sub = RepoBuilder.init(root / "sub")
    shas = []
    for n in range(3):
        sub.write("x", f"{n}\n")
        shas.append(sub.commit(f"s{n}"))
    b = RepoBuilder.init(root / "repo")
    b.write("rr.txt", BODY).write("rd.txt", BODY.replace("line", "row")).write("mode.sh", "echo hi\n")
    b.write("md_dev.py", "a = 1\n").write("md_main.py", "b = 1\n").write("bin.dat", b"\x00\x01base")
    b.write("crlf.py", "a = 1\r\nb = 2\r\nc = 3\r\n").write("nonl.txt", "x\ny").write("empty.txt", "")
    b.write("latin.txt", "caf\xe9\n".encode("latin-1")).write(HOSTILE_PATH, "a\nb\n")
    b.symlink("link", "target-a")
    os.makedirs(b.path / "subm", exist_ok=True)
    b.git("update-index", "--add", "--cacheinfo", f"160000,{shas[0]},subm")
    b.commit("base [bold]red[/bold] \x1b[31mANSI\x1b[0m (#1)")
    b.branch("dev").checkout("dev")
    b.rename("rr.txt", "rr_dev.txt").rename("rd.txt", "rd_dev.txt").chmod("mode.sh", executable=True)
    b.write("md_dev.py", "a = 2\n").delete("md_main.py").write("bin.dat", b"\x00dev")
    b.write("crlf.py", "a = 1\r\nb = 20\r\nc = 3\r\n").write("nonl.txt", "x\ndev").write("empty.txt", "dev\n")
    b.write("latin.txt", "caf\xe9 dev\n".encode("latin-1")).write(HOSTILE_PATH, "a\ndev\n")
    b.write("addadd.py", "def f():\n    return 1\n").symlink("link", "target-dev")
    b.git("update-index", "--add", "--cacheinfo", f"160000,{shas[1]},subm")
    b.commit(HOSTILE_SUBJECT)
    b.checkout("main")
    b.rename("rr.txt", "rr_main.txt").delete("rd.txt").write("mode.sh", "echo main\n").chmod("mode.sh", executable=False)
    b.delete("md_dev.py").write("md_main.py", "b = 2\n").write("bin.dat", b"\x00main")
    b.write("crlf.py", "a = 1\r\nb = 200\r\nc = 3\r\n").write("nonl.txt", "x\nmain").write("empty.txt", "main\n")
    b.write("latin.txt", "caf\xe9 main\n".encode("latin-1")).write(HOSTILE_PATH, "a\nmain\n")
    b.write("addadd.py", "def f():\n    return 2\n").symlink("link", "target-main")
    b.git("update-index", "--add", "--cacheinfo", f"160000,{shas[2]},subm")
    b.commit("main work (#3)")
    b.checkout("dev")
    return b


def tree_digest(path: Path) -> dict[str, bytes]:
    """Every file under ``path`` (work tree and .git) with its bytes, links as targets."""
    out: dict[str, bytes] = {}
    for full in sorted(path.rglob("*")):
        rel = str(full.relative_to(path))
        if full.is_symlink():
            out[rel] = b"-> " + os.fsencode(os.readlink(full))
        elif full.is_file():
            out[rel] = full.read_bytes()
    return out


OLD = 1_000_000_000
"""A time (2001) every file under .git gets before a read-only check, so any touch shows."""


def age_git_dir(path: Path) -> None:
    """Set the access and modification times of everything under ``path/.git`` to ``OLD``."""
    for full in (path / ".git").rglob("*"):
        if not full.is_symlink():
            os.utime(full, ns=(OLD * 10**9, OLD * 10**9))


def git_dir_times(path: Path) -> dict[str, int]:
    """Every file under ``path/.git`` with its modification time (ns)."""
    return {
        str(full.relative_to(path)): full.stat().st_mtime_ns
        for full in sorted((path / ".git").rglob("*"))
        if full.is_file() and not full.is_symlink()
    }
