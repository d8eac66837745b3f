"""Training mode's plumbing: exercises, answer keys with evidence, progress.

An exercise is a sync merge plus the commit holding what the maintainers
shipped (the sync PR head, or the merge itself when fixes were amended in).
The evidence for a hunk is the commits between the two that wrote the
shipped text there, found with the same range-limited blame as the analysis.
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from workbench.analysis.answer_key import AnswerKey, build_answer_key
from workbench.analysis.blame import LineMapper, attribute
from workbench.analysis.model import SyncAnalysis
from workbench.configfile import read_config_text
from workbench.errors import WorkbenchError
from workbench.git.history import side_history
from workbench.git.repo import GitRepo
from workbench.services.sync import LoadProgress, SyncRequest, open_sync

SAMPLE_EXERCISES = (
    ("squash-chain-main-ahead", "easy", "Main squashed dev's feature and improved it: is main's side right?"),
    ("intentional-removal", "easy", "Main removed code on purpose: find the commit that proves it."),
    ("policy-files", "medium", "Files the sync policy says to keep from dev, or take from main."),
    ("dev-line-dropped", "medium", "A dev-only line next to main's unrelated edit."),
    ("renamed-callee", "hard", "Main's caller, dev's renamed callee: the merge compiles and fails."),
    ("squash-chain-dev-ahead", "hard", "Dev refined a feature after main squashed its first PR."),
)


@dataclass(frozen=True)
class CatalogEntry:
    """A real sync of a public repository, by commit id (data only)."""

    id: str
    pr: int
    date: str
    merge: str
    result: str
    title: str
    note: str = ""


def catalog() -> list[CatalogEntry]:
    """The built-in catalogue of Megatron-LM syncs (needs a clone to use)."""
    text = resources.files("workbench.data").joinpath("training_catalog.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return [CatalogEntry(**entry) for entry in data["sync"]]


def exercise_ids() -> list[str]:
    """Every exercise by name: the samples, then the catalogue."""
    return [f"sample:{name}" for name, _, _ in SAMPLE_EXERCISES] + [entry.id for entry in catalog()]


def names_exercise(rev: str) -> bool:
    """``NAME:REST`` names an exercise, never a sync: git reads it as a path in NAME's
    tree, not a commit (``:/text``, a commit found by its message, is a revision)."""
    prefix, colon, _ = rev.partition(":")
    return bool(colon and prefix)


def unknown_exercise(rev: str) -> WorkbenchError:
    return WorkbenchError(f"unknown exercise {rev!r} (exercises: {', '.join(exercise_ids())})")


def find_catalog(exercise_id: str) -> CatalogEntry:
    for entry in catalog():
        if entry.id == exercise_id:
            return entry
    raise unknown_exercise(exercise_id)


def resolve_exercise(repo: GitRepo, rev: str, result: str | None) -> tuple[str, str]:
    """(merge, result) for ``train REV [--result R]`` or a catalogue id."""
    if names_exercise(rev):
        entry = find_catalog(rev)
        return repo.resolve(entry.merge), repo.resolve(result or entry.result)
    sha = repo.resolve(rev)
    if len(repo.parents(sha)) >= 2:
        return sha, repo.resolve(result) if result else sha
    merge = sha
    for _ in range(200):
        parents = repo.parents(merge)
        if len(parents) >= 2:
            return merge, repo.resolve(result) if result else sha
        if not parents:
            break
        merge = parents[0]
    raise WorkbenchError(f"{rev} is not a sync merge and no merge precedes it on its first-parent line")


def load_answer_key(repo_path: str | os.PathLike[str] | None, merge: str, result: str,
                    policy: str | None = None,
                    progress: Callable[[LoadProgress], None] | None = None) -> tuple[GitRepo, SyncAnalysis, AnswerKey]:
    """Analyse the raw replay and the shipped result, and find each hunk's evidence.

    The replay (what the trainee decides) is analysed first and reports to
    ``progress``, so a front end shows its outline while the rest loads.
    """
    dev, main = GitRepo.open(repo_path).parents(merge)[:2]
    _, replay = open_sync(SyncRequest(repo=repo_path, dev=dev, main=main, policy=policy), progress)
    repo, analysis = open_sync(SyncRequest(repo=repo_path, rev=merge, result=result, policy=policy))
    evidence: dict[tuple[str, int], tuple[str, ...]] = {}
    if result != merge:
        paths = [f.path for f in analysis.files if f.hunks and f.result_present]
        history = side_history(repo, result, merge, paths)
        mapper = LineMapper(repo.line_changes)
        for entry in analysis.files:
            if entry.path not in paths or history.blobs[entry.path].get(result) is None:
                continue
            placed = [h for h in entry.hunks if h.result is not None]
            lines = sorted({n for h in placed for n in range(h.result.start - 1, h.result.end)})  # type: ignore[union-attr]
            found = attribute(history, entry.path, lines, mapper)
            order = {sha: i for i, sha in enumerate(history.commits)}
            for hunk in placed:
                assert hunk.result is not None
                shas = {found[n] for n in range(hunk.result.start - 1, hunk.result.end) if n in found}
                evidence[(entry.path, hunk.index)] = tuple(sorted(shas, key=lambda s: order.get(s, 0)))
    return repo, replay, build_answer_key(replay, analysis, merge, result, evidence)


def build_sample_exercise(name: str, path: Path | None = None) -> tuple[Path, str, str]:
    """A scenario from the demo sample, merged by the bot and fixed as a reviewer should.

    Returns (repository, merge, shipped result).  The fix commit writes the
    ground truth's expected content for every file the scenario knows.
    """
    from workbench.sample import RepoBuilder, build_scenario
    from workbench.sample.bot import finish_sync, start_sync

    if name not in {n for n, _, _ in SAMPLE_EXERCISES}:
        raise unknown_exercise(f"sample:{name}")
    root = path or Path(tempfile.mkdtemp(prefix=f"workbench-train-{name}-")) / "repo"
    scenario = build_scenario(name, root)
    builder = RepoBuilder.open(scenario.path)
    start_sync(builder, "main2dev/training", scenario.dev, scenario.main)
    merge = finish_sync(builder, "main2dev/training", scenario.main)
    for truth in scenario.files:
        if truth.expected is None:
            if (scenario.path / truth.path).exists():
                builder.delete(truth.path)
        else:
            builder.write(truth.path, truth.expected)
    if not builder.git("status", "--porcelain").strip():
        return scenario.path, merge, merge  # the bot's merge was already right
    result = builder.commit("fix: restore what the sync dropped (maintainers' answer)")
    return scenario.path, merge, result


@dataclass
class Progress:
    """One trainee's answers and scores, kept across days."""

    trainee: str
    exercises: dict[str, dict[str, Any]] = field(default_factory=dict)
    """merge sha -> {"answers": {"path\\x00index": choice}, "score": float|None, ...}."""

    def answers(self, merge: str) -> dict[tuple[str, int], str]:
        raw = self.exercises.get(merge, {}).get("answers", {})
        out = {}
        for key, choice in raw.items():
            path, _, index = key.rpartition("\0")
            out[(path, int(index))] = choice
        return out

    def record(self, merge: str, path: str, index: int, choice: str) -> None:
        entry = self.exercises.setdefault(merge, {"answers": {}})
        entry.setdefault("answers", {})[f"{path}\0{index}"] = choice

    def finish(self, merge: str, score: float, costly: int) -> None:
        entry = self.exercises.setdefault(merge, {"answers": {}})
        entry["score"] = score
        entry["costly_misses"] = costly


def progress_path(trainee: str) -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in trainee) or "trainee"
    return Path(base, "workbench", "training", f"{safe}.json")


def load_progress(trainee: str) -> Progress:
    """The trainee's saved progress (none yet: empty); a file of the wrong shape is a one-line error."""
    path = progress_path(trainee)
    try:
        text = read_config_text(path, "training progress")
    except FileNotFoundError:
        return Progress(trainee)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise WorkbenchError(f"{path}: cannot read training progress: invalid JSON: {exc}") from None
    except RecursionError:
        raise WorkbenchError(f"{path}: cannot read training progress: invalid JSON: nested too deeply") from None
    problem = _progress_problem(data)
    if problem is not None:
        raise WorkbenchError(f"{path}: cannot read training progress: {problem} (move the file away to start afresh)")
    return Progress(trainee, dict(data.get("exercises", {})))


def _progress_problem(data: Any) -> str | None:
    """What is wrong with a progress file's JSON (the shape ``save_progress`` writes), or None."""
    if not isinstance(data, dict):
        return f"expected an object, found {_json_kind(data)}"
    if not isinstance(data.get("trainee", ""), str):
        return f"trainee: expected a string, found {_json_kind(data['trainee'])}"
    exercises = data.get("exercises", {})
    if not isinstance(exercises, dict):
        return f"exercises: expected an object, found {_json_kind(exercises)}"
    for merge, entry in exercises.items():
        if not isinstance(entry, dict):
            return f"exercises.{merge[:12]}: expected an object, found {_json_kind(entry)}"
        answers = entry.get("answers", {})
        if not isinstance(answers, dict):
            return f"exercises.{merge[:12]}.answers: expected an object, found {_json_kind(answers)}"
        for key, choice in answers.items():
            path, nul, index = key.rpartition("\0")
            if not nul or not path or not index.isdigit() or not index.isascii() or not isinstance(choice, str):
                return f"exercises.{merge[:12]}.answers: an entry is not \"path\\u0000index\": \"choice\""
        score = entry.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float))):
            return f"exercises.{merge[:12]}.score: expected a number, found {_json_kind(score)}"
        costly = entry.get("costly_misses", 0)
        if isinstance(costly, bool) or not isinstance(costly, int):
            return f"exercises.{merge[:12]}.costly_misses: expected a whole number, found {_json_kind(costly)}"
    return None


def _json_kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def save_progress(progress: Progress) -> Path:
    """Atomically replace the trainee's progress file."""
    path = progress_path(progress.trainee)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".progress-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"trainee": progress.trainee, "exercises": progress.exercises}, handle, indent=1)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path
