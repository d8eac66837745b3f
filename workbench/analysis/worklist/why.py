"""One sentence per item, saying what the members share and what is at stake (repository text, unescaped:
front ends escape it as they do every commit subject and path)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.analysis.model import Commit, Whose
from workbench.wording import plural

SUBJECT = 60
"""Characters of a commit subject quoted in a sentence."""


def commit_label(sha: str | None, commits: Mapping[str, Commit]) -> str:
    """``abc1234567 "Subject" (#12)``, or the short sha when the commit is not known."""
    if not sha:
        return "an unknown commit"
    found = commits.get(sha)
    if found is None:
        return sha[:10]
    subject = found.subject if len(found.subject) <= SUBJECT else found.subject[: SUBJECT - 1] + "\u2026"
    pr = f" (#{found.pr})" if found.pr and f"#{found.pr}" not in subject else ""
    return f"{sha[:10]} \u201c{subject}\u201d{pr}"


def places(paths: Sequence[str], hunks: int) -> str:
    """``in 3 hunks of a.py`` / ``in 5 hunks across 2 files``."""
    if len(paths) == 1:
        return f"in {plural(hunks, 'hunk')} of {paths[0]}" if hunks else f"in {paths[0]}"
    return f"in {plural(hunks, 'hunk')} across {plural(len(paths), 'file')}"


def lost(dev: int, main: int) -> str:
    """``losing 12 of dev's lines`` / ``losing 3 of dev's and 4 of main's lines`` / ``losing nothing``."""
    if dev and main:
        return f"losing {dev} of dev's and {main} of main's lines"
    if dev or main:
        count, whose = (dev, "dev") if dev else (main, "main")
        return f"losing {plural(count, 'line')} of {whose}'s"
    return "losing nothing"


def commit_item(side: Whose | None, sha: str | None, squash: bool, commits: Mapping[str, Commit], where: str, loss: str) -> str:
    if squash:
        return f"Main's squash {commit_label(sha, commits)} replaced dev's later work {where}, {loss}."
    whose = f"{side}'s" if side else "the"
    return f"The result lacks {whose} {commit_label(sha, commits)} {where}, {loss}."


def fix_commit(sha: str | None, commits: Mapping[str, Commit], where: str, loss: str) -> str:
    return f"A commit after the merge, {commit_label(sha, commits)}, changed the result {where}, {loss}."


def whole_file(status: str, path: str, loss: str) -> str:
    what = {
        "took-dev-file": "took dev's whole file",
        "took-main-file": "took main's whole file",
        "resolution-added": "added the file",
        "resolution-deleted": "deleted the file",
    }.get(status, "replaced the file")
    return f"The resolution {what} {path} where git had merged both sides, {loss}."


def policy(rule: str, path: str, loss: str) -> str:
    what = {"keep-dev": "keeps dev's version of", "override-from-main": "takes main's version of", "coupled": "keeps together"}
    return f"The sync policy {what.get(rule, 'decides')} {path}; the result differs from that, {loss}."


def rename(old: str, new: str, where: str) -> str:
    return f"{old} became {new} {where}: the lost lines differ from the result only by that name."


def api_break(symbol: str, message: str, where: str) -> str:
    return f"{symbol} fails {where}: {message}"


def api_file(path: str, names: int, first: str) -> str:
    return f"{plural(names, 'name')} fail in {path} (one decision for the file), e.g. {first}"


def duplicate(scope: str, name: str, path: str, lines: Sequence[int]) -> str:
    owner = "" if scope == "<module>" else f"{scope}."
    at = ", ".join(str(n) for n in lines)
    return f"The merge defines {owner}{name} twice in {path} (lines {at}) where dev and main each defined it once."


def deleted(path: str, message: str) -> str:
    return f"Main has {path} and the result does not: {message}"


def formatting(where: str) -> str:
    return f"Only layout differs {where} (what black and isort change): the same tokens are in the result."


def file_item(path: str, causes: int, hunks: int, loss: str) -> str:
    return f"{plural(hunks, 'hunk')} of {path} with {causes} separate causes that touch no other file (decided together), {loss}."


def hunk(path: str, loss: str) -> str:
    return f"One hunk of {path}, {loss}."
