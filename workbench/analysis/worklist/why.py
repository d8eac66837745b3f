"""One sentence per item, saying what the members share and what is at stake (repository text, unescaped:
front ends escape it as they do every commit subject and path)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.analysis.model import Commit, Whose
from workbench.analysis.worklist.items import Item
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
    """``in 3 hunks of a.py`` / ``in 5 hunks across 2 files`` / ``in 2 files`` (members that are files only)."""
    if len(paths) == 1:
        return f"in {plural(hunks, 'hunk')} of {paths[0]}" if hunks else f"in {paths[0]}"
    return f"in {plural(hunks, 'hunk')} across {plural(len(paths), 'file')}" if hunks else f"in {plural(len(paths), 'file')}"


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


def duplicate(scope: str, names: Sequence[tuple[str, Sequence[int]]], path: str) -> str:
    """``The merge defines Config.beta twice in cfg.py (lines 287, 317)...``, every name of the scope."""
    owner = "" if scope == "<module>" else f"{scope}."
    each = ", ".join(f"{owner}{name} twice (lines {', '.join(str(n) for n in lines)})" for name, lines in names)
    what = "it" if len(names) == 1 else "each"
    return f"The merge defines {each} in {path} where dev and main each defined {what} once."


def deleted(path: str, message: str) -> str:
    return f"Main has {path} and the result does not: {message}"


def formatting(where: str) -> str:
    return f"Only layout differs {where} (what black and isort change): the same tokens are in the result."


def file_item(path: str, causes: int, hunks: int, loss: str) -> str:
    return f"{plural(hunks, 'hunk')} of {path} with {causes} separate causes that touch no other file (decided together), {loss}."


def hunk(path: str, loss: str) -> str:
    return f"One hunk of {path}, {loss}."


def size_words(item: Item) -> str:
    """``3 hunks in 2 files`` (``1 file`` for a whole-file member alone): the app and the reports say it alike."""
    hunks = sum(1 for m in item.members if m.hunk is not None)
    files = len(item.paths)
    if not hunks:
        return plural(files, "file")
    return plural(hunks, "hunk") + (f" in {plural(files, 'file')}" if files > 1 else "")


def lost_words(item: Item) -> str:
    """What the result loses, both sides: ``the result loses 12 lines of dev's and 3 of main's``."""
    dev, main = item.lost_dev, item.lost_main
    if not dev and not main:
        return "the result loses no line of either side"
    first, whose = (dev, "dev's") if dev else (main, "main's")
    said = f"the result loses {plural(first, 'line')} of {whose}"
    return said + (f" and {main} of main's" if dev and main else "")
