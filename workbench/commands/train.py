"""``workbench train``: replay a real sync, decide, then compare with what shipped.

``workbench train REV [--trainee NAME]`` opens the quiz: the app on the raw
``-X theirs`` replay, the same keys to decide, ``r`` to reveal what shipped
for a hunk and ``s`` for the score; answers are saved per trainee as they are
made, and reopening the exercise resumes.  The repository is only read.

Non-interactive forms for instructors:
    workbench train REV --answer-key [--json]
    workbench train REV --answers FILE [--json]
    workbench train REV --suggestions [--json]
    workbench train --list
REV is a shipped sync (a merge commit, or a sync branch head with fixes),
a catalogue id (``megatron:4291``) or a sample exercise (``sample:NAME``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.errors import WorkbenchError

if TYPE_CHECKING:
    from workbench.analysis.answer_key import AnswerKey
    from workbench.git.repo import GitRepo


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rev", nargs="?", metavar="REV", help="shipped sync, catalogue id (megatron:4291) or sample:NAME")
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the one containing the current directory)")
    parser.add_argument("--result", metavar="R", help="the shipped result when REV is the bot's merge")
    parser.add_argument("--policy", metavar="NAME", help="sync policy preset or file")
    parser.add_argument("--answer-key", action="store_true", help="print every quiz hunk with what shipped")
    parser.add_argument("--answers", metavar="FILE", help='grade a trainee\'s {"hunks": [{"path", "index", "choice"}]} file')
    parser.add_argument("--suggestions", action="store_true",
                        help="grade the workbench's own suggestions against what shipped")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--list", action="store_true", help="list the exercises")
    parser.add_argument("--trainee", metavar="NAME", help="whose progress to keep (default: $USER)")
    parser.add_argument("--risky", action="store_true",
                        help='the "risky hunks" exercise: only high and medium risk, plus every hunk the '
                             "maintainers changed")


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args.json)
    if args.rev is None:
        raise WorkbenchError("name a sync to train on (see `workbench train --list`)")
    import tempfile  # here: every command's start imports this module

    with tempfile.TemporaryDirectory(prefix="workbench-train-") as scratch:
        return _run(args, Path(scratch))


def _run(args: argparse.Namespace, scratch: Path) -> int:
    if args.suggestions and (args.answers is not None or args.answer_key):
        raise WorkbenchError("--suggestions grades the workbench's suggestions: not with --answers or --answer-key")
    quiz = args.answers is None and not args.answer_key and not args.suggestions
    trainee = args.trainee or os.environ.get("USER") or "trainee"
    if quiz:
        from workbench.services.exercises import load_progress

        load_progress(trainee)  # a damaged progress file is a one-line error before any work or screen
    repo_path, merge, result = _exercise(args, scratch)
    if quiz:
        from workbench.tui.launch import run_quiz

        title = _title(args.rev, merge) + (" · risky hunks" if args.risky else "")
        return run_quiz(repo_path, merge, result, trainee, title, policy=args.policy, risky=args.risky)
    from workbench.services.exercises import load_answer_key

    repo, _analysis, key = load_answer_key(repo_path, merge, result, args.policy)
    if args.risky:
        from workbench.analysis.answer_key import risky_subset

        key = risky_subset(key)
    if args.answers is not None:
        return _grade(key, Path(args.answers), args.json, repo)
    if args.suggestions:
        return _grade_suggestions(key, args.json)
    return _print_key(key, args.json, repo)


def _title(rev: str, merge: str) -> str:
    """How the quiz names its exercise."""
    from workbench.services.exercises import catalog

    for entry in catalog():
        if entry.id == rev:
            return f"{entry.id} ({entry.date}): {entry.title}"
    return rev if rev.startswith("sample:") else f"sync {merge[:10]}"


def _exercise(args: argparse.Namespace, scratch: Path) -> tuple[str | None, str, str]:
    """(repository, merge, shipped result); sample exercises are built in ``scratch``."""
    from workbench.git.repo import GitRepo
    from workbench.services.exercises import build_sample_exercise, find_catalog, names_exercise, resolve_exercise

    if args.rev.startswith("sample:"):
        path, merge, result = build_sample_exercise(args.rev.split(":", 1)[1], scratch / "repo")
        return str(path), merge, result
    if names_exercise(args.rev):
        find_catalog(args.rev)  # an unknown exercise is named as such, before any repository is read
    repo = GitRepo.open(args.repo)
    try:
        merge, result = resolve_exercise(repo, args.rev, args.result)
    except WorkbenchError as exc:
        if names_exercise(args.rev):
            raise WorkbenchError(f"{args.rev} needs a Megatron-LM clone with both branches (--repo CLONE): {exc}") from None
        raise
    return args.repo, merge, result


def _list(as_json: bool) -> int:
    from workbench.services.exercises import SAMPLE_EXERCISES, catalog

    samples = [{"id": f"sample:{n}", "level": level, "title": title} for n, level, title in SAMPLE_EXERCISES]
    real = [
        {"id": e.id, "pr": e.pr, "date": e.date, "merge": e.merge, "result": e.result, "title": e.title, "note": e.note}
        for e in catalog()
    ]
    if as_json:
        print(json.dumps({"samples": samples, "megatron": real}, indent=2))
        return 0
    print("Sample exercises (no clone needed):")
    for item in samples:
        print(f"  {item['id']:36s} {item['level']:7s} {item['title']}")
    print("\nReal Megatron-LM syncs (run inside a Megatron-LM clone, or pass --repo):")
    for entry in real:
        print(f"  {entry['id']:16s} {entry['date']}  {entry['title']}")
        if entry["note"]:
            print(f"  {'':16s} {entry['note']}")
    return 0


def _print_key(key: AnswerKey, as_json: bool, repo: GitRepo) -> int:
    from workbench.analysis.answer_key import answer_key_json, summary
    from workbench.textsafe import visible
    from workbench.wording import plural

    if as_json:
        sys.stdout.write(json.dumps(answer_key_json(key)) + "\n")
        return 0
    counts = summary(key)
    print(
        f"merge {key.merge[:10]} -> shipped {key.result[:10]}: {plural(len(key.hunks), 'hunk')}; "
        f"shipped main {counts['main']}, dev {counts['dev']}, both {counts['both']}, other {counts['other']}"
    )
    for quiz in key.hunks:
        evidence = ", ".join(_commit_label(repo, sha) for sha in quiz.evidence) or "-"
        print(
            f"  {visible(quiz.path)} hunk {quiz.index + 1} (dev {quiz.hunk.dev.start}-{quiz.hunk.dev.end}): "
            f"shipped {quiz.shipped}; evidence: {evidence}"
        )
    return 0


def _grade(key: AnswerKey, path: Path, as_json: bool, repo: GitRepo) -> int:
    from workbench.analysis.answer_key import grade, grade_json, parse_answers
    from workbench.configfile import read_config_text
    from workbench.textsafe import visible
    from workbench.wording import plural

    try:
        raw = json.loads(read_config_text(path, "answers file"))
    except FileNotFoundError:
        raise WorkbenchError(f"no such answers file: {path}") from None
    except ValueError as exc:
        raise WorkbenchError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise WorkbenchError(f"{path} is not valid JSON: nested too deeply") from None
    try:
        answers = parse_answers(raw, str(path))
    except ValueError as exc:
        raise WorkbenchError(str(exc)) from None
    result = grade(key, answers)
    if answers and not result.answered:
        raise WorkbenchError(
            f"{path}: none of its {plural(len(answers), 'answer')} matches a hunk of this sync "
            f"({_places(result.unmatched)}); `--answer-key` lists the hunks"
        )
    if as_json:
        print(json.dumps(grade_json(result)))
        return 0
    unanswered = len(result.unanswered)
    if result.answered:
        print(
            f"score {result.score:.0%}: {len(result.agreed)} of {plural(result.answered, 'answered hunk')} "
            f"{'agrees' if result.answered == 1 else 'agree'} with what shipped "
            f"({unanswered} unanswered); costly misses {len(result.costly)}, harmless {len(result.harmless)}"
        )
    else:
        print(f"no answered hunks ({unanswered} unanswered)")
    if result.unmatched:
        print(f"{plural(len(result.unmatched), 'answer')} in {path} "
              f"{'matches' if len(result.unmatched) == 1 else 'match'} no hunk of this sync "
              "(`--answer-key` lists the hunks):")
        for where, index in result.unmatched:
            print(f"  {visible(where)} index {index}")
    for label, misses in (("costly (dev work the maintainers restored)", result.costly), ("harmless", result.harmless)):
        if misses:
            print(f"{label}:")
        for miss in misses:
            evidence = ", ".join(_commit_label(repo, sha) for sha in miss.quiz.evidence) or "-"
            print(f"  {visible(miss.quiz.path)} hunk {miss.quiz.index + 1}: you chose {miss.answered}, "
                  f"shipped {miss.quiz.shipped} (evidence: {evidence})")
    return 0


def _grade_suggestions(key: AnswerKey, as_json: bool) -> int:
    from workbench.analysis.suggest.graded import grade_lines, grade_suggestions, grade_suggestions_json

    result = grade_suggestions(key)
    if as_json:
        print(json.dumps(grade_suggestions_json(result)))
        return 0
    print(f"suggestions for merge {key.merge[:10]} against what shipped in {key.result[:10]}:")
    for line in grade_lines(result):
        print(line)
    return 0


def _places(found: tuple[tuple[str, int], ...], shown: int = 3) -> str:
    """``a.py index 0, b.py index 4 and 7 more``: answers named in one line."""
    from workbench.textsafe import visible

    names = ", ".join(f"{visible(path)} index {index}" for path, index in found[:shown])
    return names + (f" and {len(found) - shown} more" if len(found) > shown else "")


def _commit_label(repo: GitRepo, sha: str) -> str:
    from workbench.textsafe import visible

    info = repo.commit_info(sha)
    return f"{sha[:10]} {_clip(visible(info.subject))}"


def _clip(text: str, width: int = 72) -> str:
    """``text`` in at most ``width`` characters, cut after a whole word and marked with "…"
    (a word longer than half the width is cut inside)."""
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space > width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"
