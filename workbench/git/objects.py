"""pygit2's trees and commits read into plain values: entries, file lists, commit records."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pygit2

from workbench.git.content import decode
from workbench.git.types import BLOB_MODES, CommitInfo

_PR = re.compile(r"\(#(\d+)\)")


def parse_pr(subject: str) -> int | None:
    """The PR number a squash subject ends with: ``Fix X (#4291)`` -> 4291."""
    found = _PR.findall(subject)
    return int(found[-1]) if found else None


def entry_at(tree: pygit2.Tree, path: str) -> tuple[str, int] | None:
    """The blob id and mode at ``path`` in ``tree`` (None: nothing there)."""
    try:
        obj = tree[path]
    except (KeyError, ValueError):
        return None
    return str(obj.id), int(obj.filemode)


def walk_tree(tree: pygit2.Tree, prefix: str, out: dict[str, tuple[str, int]]) -> None:
    """Every file of ``tree`` under ``prefix`` into ``out``: path -> (blob id, mode)."""
    for obj in tree:
        path = prefix + (obj.name or "")
        if isinstance(obj, pygit2.Tree):
            walk_tree(obj, path + "/", out)
        else:
            out[path] = (str(obj.id), int(obj.filemode))


def walk_named(tree: pygit2.Tree, prefix: str, name: str, out: list[tuple[str, str]]) -> None:
    """Every regular file called ``name`` in ``tree`` into ``out`` as (path, blob id)."""
    for obj in tree:
        if obj.name is None or obj.name in (".", "..") or "/" in obj.name:
            continue  # a crafted tree; git would refuse to check it out
        if isinstance(obj, pygit2.Tree):
            walk_named(obj, prefix + obj.name + "/", name, out)
        elif obj.name == name and int(obj.filemode) in BLOB_MODES:
            out.append((prefix + obj.name, str(obj.id)))


def commit_info(commit: pygit2.Commit) -> CommitInfo:
    """A commit as the plain record the analysis reads (subject, author, date, PR number, parents)."""
    message = decode(commit.raw_message)
    subject = message.split("\n", 1)[0].strip()
    author = decode(commit.author.raw_name) if commit.author else ""
    when = datetime.fromtimestamp(
        commit.author.time, timezone(timedelta(minutes=commit.author.offset))
    )
    return CommitInfo(
        sha=str(commit.id),
        subject=subject,
        author=author,
        date=when.isoformat(),
        pr=parse_pr(subject),
        message=message[:4000],
        parents=tuple(str(p) for p in commit.parent_ids),
    )
