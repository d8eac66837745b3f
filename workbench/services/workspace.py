"""The open sync behind the app: repository, analysis, decisions and their journal.

Screens delegate every command here and only redraw; nothing in this module
imports Textual, so the whole decide/undo/write cycle is testable without an
App.  Every session event is appended to the journal before the command
returns, so a crash loses nothing and reopening resumes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from workbench.analysis.answer_key import risky_subset
from workbench.analysis.model import FileAnalysis, FileStatus, Hunk, HunkKind, Level, Mode, SignalKind, SyncAnalysis
from workbench.analysis.xdiff import split_lines
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.resolve.acks import Ack, fingerprint, held_choice, matched, now_iso, record_ack, who_am_i, worktree_acks
from workbench.resolve.events import Event, Field, FileChoice, Op
from workbench.resolve.journal import EventLog, Journal, Situation
from workbench.resolve.provenance import with_provenance
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision, chosen_text, edit_text, keeps_result
from workbench.resolve.writer import (
    Blocked,
    Refusal,
    WriteCheck,
    WriteOutcome,
    write_blocker,
)
from workbench.services.exercises import load_answer_key, load_progress
from workbench.services.quiz import Quiz, QuizJournal
from workbench.services.sync import LoadProgress, SyncRequest, open_sync
from workbench.services.sync_process import Opener
from workbench.services.write_plans import WritePlans
from workbench.wording import plural


@dataclass(frozen=True, slots=True)
class Position:
    """A place in the sync: a file and (for text files) one of its hunks."""

    path: str
    hunk: int | None = None


class HunkScope:
    """Which hunks the app visits and counts: every hunk, or only those a training quiz asks.

    A quiz's replay also holds hunks it does not ask (shown for context); the
    session still splices every hunk, so the restriction is this object, which
    the cursor (``services/cursor.py``) and the presenters take.
    """

    def __init__(self, asked: dict[str, tuple[int, ...]] | None = None) -> None:
        self._asked = asked
        """Path -> asked hunk indexes in file order; None: every hunk is asked."""

    @property
    def restricted(self) -> bool:
        """Only some hunks are asked (a quiz)."""
        return self._asked is not None

    def asks(self, path: str, index: int) -> bool:
        return self._asked is None or index in self._asked.get(path, ())

    def asked(self, path: str) -> tuple[int, ...]:
        """The asked hunks of ``path``, in file order (a quiz; every hunk is asked otherwise)."""
        return () if self._asked is None else self._asked.get(path, ())

    @property
    def asked_paths(self) -> tuple[str, ...]:
        return () if self._asked is None else tuple(self._asked)


EVERY_HUNK = HunkScope()


class Workspace:
    """One sync opened for deciding: what the app's screens act on."""

    def __init__(self, repo: GitRepo, analysis: SyncAnalysis, journal: EventLog, session: Session,
                 unsaved: str | None = None, quiz: Quiz | None = None) -> None:
        self.repo = repo
        self.analysis = analysis
        self.journal = journal
        self.session = session
        self.resumed = bool(session.can_undo or session.can_redo or session.dirty_paths())
        """Decisions were replayed from an earlier run."""
        self.files = tuple(sorted(analysis.files, key=_risk_order))
        """Files in review order: highest risk first, then by path."""
        self._paths = frozenset(f.path for f in analysis.files)
        self.unsaved = unsaved
        """Why decisions are not saved (another instance holds the journal, a read-only repository), or None:
        the app then works read-only: it decides in memory, and writes nothing."""
        self.unsaved_news = unsaved is not None
        """``unsaved`` changed and the user has not been told yet (the screen clears it once it has)."""
        self._claimed = False
        self.acks: dict[tuple[str, int], Ack] = {}
        """Acknowledged hunks (``.workbench/acks.toml`` in the work tree), by (path, hunk index)."""
        self.acks_problem: str | None = None
        """Why the work tree's acks.toml could not be read (shown once loaded), or None."""
        if repo.workdir is not None and analysis.mode is not Mode.MERGETOOL:
            try:
                self.acks = matched(worktree_acks(repo.workdir), analysis)
            except WorkbenchError as exc:
                self.acks_problem = str(exc)
        self.request: SyncRequest | None = None
        """What was opened, when ``open`` opened it (so it can be reopened with another policy)."""
        self.quiz = quiz
        """The training quiz this replay is decided for (``open_quiz``), or None: a quiz writes nothing."""
        self.scope = HunkScope(quiz.asked()) if quiz is not None else EVERY_HUNK
        """The hunks visited and counted (a quiz: the asked ones)."""
        self.pending: str | None = None
        """A first look (``first_look``): the evidence still being read, in a few words; None: complete."""
        self._plans = WritePlans(repo, session, self.stages)
        """Each file's write plan from its last check, kept until the decisions change (``w`` checks once)."""

    @classmethod
    def open(cls, request: SyncRequest, progress: Callable[[LoadProgress], None] | None = None,
             opener: Opener = open_sync) -> Workspace:
        """Analyse the sync (``progress`` hears the outline, then files and stages) and resume.

        ``opener``: what analyses it (e.g. a process started early, ``sync_process.py``).
        """
        repo, analysis = opener(request, progress)
        workspace = cls.load(repo, analysis)
        workspace.request = request
        return workspace

    @classmethod
    def open_quiz(cls, repo_path: str | os.PathLike[str] | None, merge: str, result: str, trainee: str, title: str,
                  policy: str | None = None, progress: Callable[[LoadProgress], None] | None = None,
                  risky: bool = False) -> Workspace:
        """A training quiz: the replay and the shipped result analysed, the trainee's answers resumed (slow).

        ``progress`` hears the replay's outline first (the app shows the file list
        while the rest loads); ``risky`` asks only the "risky hunks" exercise: high
        and medium risk, and every hunk the maintainers changed.  Only the asked
        files are in the workspace; their hunks that are not asked are context.
        """
        repo, replay, key = load_answer_key(repo_path, merge, result, policy, progress)
        if risky:
            key = risky_subset(key)
        asked = {q.path for q in key.hunks}
        analysis = replace(replay, files=tuple(f for f in replay.files if f.path in asked))
        commits = {sha: repo.commit_info(sha) for sha in {sha for q in key.hunks for sha in q.evidence}}
        quiz = Quiz(key, load_progress(trainee), commits, title)
        journal = QuizJournal(quiz)
        session = Session(analysis, journal.load(), read_blob=repo.read_blob)
        journal.session = session
        return cls(repo, analysis, journal, session, quiz=quiz)

    @classmethod
    def load(cls, repo: GitRepo, analysis: SyncAnalysis) -> Workspace:
        """Resume from the sync's journal (the session guards against changes made on disk)."""
        journal = Journal.for_situation(repo.gitdir, situation_of(repo, analysis), str(repo.workdir or repo.gitdir))
        events = journal.load()
        analysis = with_provenance(repo, analysis, events)
        session = Session(analysis, events, read_blob=repo.read_blob, resumed_on_disk=analysis.mode is Mode.IN_PROGRESS)
        return cls(repo, analysis, journal, session)

    @classmethod
    def first_look(cls, repo: GitRepo, analysis: SyncAnalysis, pending: str) -> Workspace:
        """``load`` of an analysis shown while the complete one is computed (``git mergetool``'s three
        versions while the merge's history and risk are read): nothing is decided or written on it, and its
        risk is unknown, not low. ``pending`` names what is still being read."""
        workspace = cls.load(repo, analysis)
        workspace.pending = pending
        return workspace

    def resumed_words(self) -> str:
        """Where and when the resumed decisions were made, in one sentence."""
        events = [e for e in self.journal.load() if e.changes]
        when = f" made {_when(events[-1].at)}" if events else ""
        situation = self.journal.situation
        where = f" in {situation.describe()}" if situation is not None else ""
        header = self.journal.header()
        other = header.get("where")
        if isinstance(other, str) and other and other != self.journal.where:
            where += f" (in {other})"
        changed = self.session.changed_since_decided()
        since = ""
        if changed:
            named = changed[0] if len(changed) == 1 else plural(len(changed), "file")
            since = f" {named} changed on disk since then: w asks before overwriting."
        return f"Resumed the decisions{when}{where}.{since}"

    # -- queries ----------------------------------------------------------------

    def entry(self, path: str) -> FileAnalysis:
        return self.session.file(path)

    def _claim(self) -> None:
        """Take the journal before the first thing that changes it (a decision, a write).

        Not on open: opening and looking changes nothing under ``.git``.  A second instance (or a
        repository where nothing can be saved) learns it here and turns read-only before anything is written."""
        if self.unsaved is None and not self._claimed:
            self._claimed = True
            problem = self.journal.claim()
            if problem is not None:
                self.unsaved = problem
                self.unsaved_news = True

    def write_blocker(self) -> str | None:
        """Why nothing may be written now (a quiz, a preview, another checkout, decisions not saved), or None."""
        if self.quiz is not None:
            return "a training quiz is a replay and writes nothing to the work tree"
        if self.pending is not None:
            return self._incomplete()
        self._claim()
        if self.unsaved is not None:
            return f"read-only: {self.unsaved}"
        return write_blocker(self.repo, self.analysis)

    @property
    def writes(self) -> bool:
        """Decisions can be written at all (a preview has no merge on disk); ``write_blocker`` says if now."""
        return self.quiz is None and self.analysis.mode is not Mode.PREVIEW

    @property
    def saved_words(self) -> str:
        """What is kept when nothing is written."""
        return "Your answers are saved." if self.quiz is not None else "Your decisions are saved."

    @property
    def stages(self) -> bool:
        """Writes are staged only while the merge is in progress."""
        return self.analysis.mode is Mode.IN_PROGRESS

    def place_of(self, event: Event) -> Position | None:
        """Where an event changed decisions: its one hunk, else its file (None: only notes)."""
        changes = [c for c in event.changes if c.field is not Field.NOTE and c.path in self._paths]
        if not changes:
            return None
        path = changes[0].path
        hunks = {c.index for c in changes if c.field is Field.HUNK and c.path == path}
        return Position(path, hunks.pop() if len(hunks) == 1 else None)

    def hunk(self, path: str, index: int) -> Hunk:
        """The conflict hunk or, past them, the edit hunk at ``index``."""
        return self.entry(path).all_hunks[index]

    def is_edit(self, path: str, index: int) -> bool:
        """Whether hunk ``index`` is an edit outside git's conflicts (kept, restored to git's merge, or a side)."""
        return self.hunk(path, index).kind is HunkKind.EDIT

    def hunk_result(self, path: str, index: int) -> tuple[bytes, ...] | None:
        """What the file holds (or would hold, once written) in the hunk's place; None: absent."""
        entry = self.entry(path)
        hunk = self.hunk(path, index)
        choice = self.session.file_choice(path)
        if choice is not None:
            return None if choice is FileChoice.DELETE else tuple(hunk.dev_text if choice is FileChoice.KEEP_DEV else hunk.main_text)
        decision = self.session.decision(path, index)
        if decision is not None:
            return tuple(split_lines(self._decided_text(hunk, decision)))
        if entry.status is FileStatus.CONFLICTED and entry.merge is not None and hunk.kind is HunkKind.CONFLICT:
            found = self.session.work_tree_blocks(path)
            if found is not None and found.agrees:  # the work tree's own block: git's labels, style and markers
                return found.text.lines[slice(*found.ranges[index])]
            return tuple(split_lines(entry.merge.conflict_block(entry.merge.conflicts[index], ("dev", "main", None), 7)))
        return hunk.result_text

    def edit_seed(self, path: str, index: int) -> bytes:
        """The text ``e`` opens: the decided text, or both sides and the base between markers."""
        hunk = self.hunk(path, index)
        decision = self.session.decision(path, index)
        if decision is not None:
            return self._decided_text(hunk, decision)
        if hunk.kind is HunkKind.EDIT or self.resolved_by_hand(path, index):
            return b"".join(hunk.result_text or ())
        eol = b"\r\n" if _crlf(hunk) else b"\n"
        parts = [b"<<<<<<< dev" + eol, _terminated(hunk.dev_text, eol), b"||||||| base" + eol,
                 _terminated(hunk.base_text, eol), b"=======" + eol, _terminated(hunk.main_text, eol),
                 b">>>>>>> main" + eol]
        return b"".join(parts)

    def keeps_result(self, path: str, index: int) -> bool:
        """Whether R (keep what the file holds) can decide hunk ``index``: an edit, or a conflict resolved by
        hand in a merge in progress (not one still holding git's markers)."""
        return keeps_result(self.entry(path), self.hunk(path, index))

    def resolved_by_hand(self, path: str, index: int) -> bool:
        """A conflict hunk of a file still conflicted whose markers someone replaced by text (``e`` opens it)."""
        hunk = self.hunk(path, index)
        return hunk.kind is HunkKind.CONFLICT and keeps_result(self.entry(path), hunk)

    @staticmethod
    def _decided_text(hunk: Hunk, decision: Decision) -> bytes:
        if hunk.kind is HunkKind.EDIT:
            return edit_text(hunk, decision)
        if decision.choice is Choice.RESULT:
            return b"".join(hunk.result_text or ())
        return chosen_text(hunk.dev_text, hunk.main_text, decision, _crlf(hunk))

    # -- commands (each journals its event) --------------------------------------

    def _record(self, event: Event | None) -> Event | None:
        """Journal the event; when that fails, keep working in memory and say so once (``unsaved_news``)."""
        if event is not None and event.op is not Op.WRITTEN:
            self._plans.forget()  # the decisions changed: every plan is made again
        self._claim()
        if event is not None and self.unsaved is None:
            try:
                self.journal.append(event)
            except OSError as exc:
                self.unsaved = f"decisions cannot be saved ({exc.strerror or exc})"
                self.unsaved_news = True
        return event

    def _incomplete(self) -> str:
        return f"the analysis is not complete yet ({self.pending} still being read)"

    def _complete(self) -> None:
        """A first look decides and writes nothing (the screen refuses the keys; this guards the session)."""
        if self.pending is not None:
            raise WorkbenchError(self._incomplete())

    def decide(self, path: str, index: int, decision: Decision) -> Event:
        self._complete()
        return self._recorded(self.session.decide(path, index, decision))

    def decide_file(self, path: str, choice: Choice) -> Event:
        self._complete()
        return self._recorded(self.session.decide_file(path, choice))

    def decide_many(self, targets: list[tuple[str, int]], choice: Choice, label: str) -> Event:
        """A bulk move (``moves.py``): one event, so one undo."""
        self._complete()
        return self._recorded(self.session.decide_many(targets, choice, label))

    def decide_each(self, decisions: Sequence[tuple[str, int, Decision]], files: Sequence[tuple[str, FileChoice]],
                    label: str) -> Event:
        """Hunks each with its own decision, and whole-file choices, as one event (one undo)."""
        self._complete()
        return self._recorded(self.session.decide_each(decisions, files, label))

    def choose_file(self, path: str, choice: FileChoice) -> Event:
        self._complete()
        return self._recorded(self.session.choose_file(path, choice))

    def set_note(self, path: str, index: int | None, text: str) -> Event:
        self._complete()
        return self._recorded(self.session.set_note(path, index, text))

    def _recorded(self, event: Event) -> Event:
        self._record(event)
        return event

    def undo(self) -> Event | None:
        self._complete()
        return self._record(self.session.undo())

    def redo(self) -> Event | None:
        self._complete()
        return self._record(self.session.redo())

    def check(self, path: str, overwrite_changed: bool = False) -> WriteCheck:
        """Whether ``path`` can be written now: its plan (kept for ``write``), or why not."""
        return self.check_all([path], overwrite_changed)[path]

    def check_all(self, paths: Sequence[str], overwrite_changed: bool = False) -> dict[str, WriteCheck]:
        """``check`` of every path, git asked about them all at once (``write_plans.py``)."""
        self._claim()
        if self.unsaved is not None:
            return {path: Refusal(path, Blocked.NOT_WRITABLE, f"read-only: {self.unsaved}") for path in paths}
        return self._plans.check_all(paths, overwrite_changed)

    def write(self, path: str, overwrite_changed: bool = False) -> WriteOutcome:
        """Write one file (staged during a merge in progress) by its plan from ``check``; see ``write_all``."""
        return self.write_all([path], [path] if overwrite_changed else [])[0]

    def write_all(self, paths: Sequence[str], overwrite: Collection[str] = (),
                  progress: Callable[[int], None] | None = None) -> list[WriteOutcome]:
        """Write the files (staged together during a merge in progress) by their plans from ``check``;
        ``overwrite``: paths the user let replace a change on disk.  Journal what was written.

        Never while decisions are not saved: the journal would not know the file changed."""
        self._complete()
        self._claim()
        if self.unsaved is not None:
            return [WriteOutcome(path, False, False, f"read-only: {self.unsaved}") for path in paths]
        outcomes = self._plans.write_all(paths, overwrite, progress)
        for outcome in outcomes:
            self._record(outcome.event)
        return outcomes

    def ack_blocker(self, path: str, index: int) -> str | None:
        """Why the hunk cannot be acknowledged here (asked before the reason is), or None."""
        if not self.writes or self.repo.workdir is None:
            return ("acknowledgements are committed with the sync PR: open the merge (or the sync branch) "
                    "to write them")
        blocker = self.write_blocker()
        if blocker is not None:
            return f"acknowledgements go in the sync PR's work tree, and {blocker}"
        if self._kept_choice(path, index) is None:
            return f"hunk {index + 1} of {path} is still conflicted: decide it first, then acknowledge it"
        return None

    def _kept_choice(self, path: str, index: int) -> Choice | None:
        decision = self.session.decision(path, index)
        return decision.choice if decision is not None else held_choice(self.hunk(path, index))

    def acknowledge(self, path: str, index: int, reason: str) -> Ack:
        """Record in the work tree's acks.toml that the hunk stays as decided (or as the result holds it).

        ``WorkbenchError`` when it cannot be (``ack_blocker``) or the file cannot be written."""
        blocker = self.ack_blocker(path, index)
        if blocker is not None:
            raise WorkbenchError(blocker)
        assert self.repo.workdir is not None
        hunk = self.hunk(path, index)
        choice = self._kept_choice(path, index)
        assert choice is not None
        ack = Ack(path, fingerprint(path, hunk), choice, reason, who_am_i(self.repo), now_iso())
        earlier = self.acks.get((path, index))
        if earlier is not None and earlier.by_agent and earlier.decision is choice:  # a person confirms the agent's
            ack = replace(ack, hunk=earlier.hunk, by="human", claim=earlier.claim, evidence=earlier.evidence,
                          run=earlier.run, item=earlier.item, member=earlier.member, take=earlier.take)
        record_ack(self.repo.workdir, ack)
        self.acks[(path, index)] = ack
        return ack

    def editor(self, configured: str | None) -> str | None:
        """The editor for ``e``, in git's order: the config's, GIT_EDITOR, core.editor, VISUAL, EDITOR."""
        for candidate in (configured, os.environ.get("GIT_EDITOR"), self.repo.config_value("core.editor"),
                          os.environ.get("VISUAL"), os.environ.get("EDITOR")):
            if candidate and candidate.strip():
                return candidate
        return None


def situation_of(repo: GitRepo, analysis: SyncAnalysis) -> Situation:
    """The journal's key: ``git mergetool`` on a file of a merge in progress shares that merge's journal."""
    if analysis.mode is Mode.MERGETOOL and not any(s.kind == SignalKind.NO_HISTORY for f in analysis.files for s in f.signals):
        heads, head = repo.merge_heads(), repo.head()
        if len(heads) == 1 and head is not None:
            return Situation.merging(head, heads[0])
    return Situation.of(analysis)


def _when(at: float) -> str:
    """A journal time as the user reads it: "at 14:03 UTC today", or with its date."""
    stamp = time.gmtime(at)
    clock = time.strftime("%H:%M UTC", stamp)
    if time.strftime("%Y-%m-%d", stamp) == time.strftime("%Y-%m-%d", time.gmtime()):
        return f"at {clock} today"
    return f"on {time.strftime('%Y-%m-%d', stamp)} at {clock}"


def file_level(entry: FileAnalysis) -> Level:
    """A file is as risky as its riskiest hunk (or its own file-wide findings)."""
    return max((entry.level, *(h.level for h in entry.hunks)), key=lambda level: level.rank)


def _risk_order(entry: FileAnalysis) -> tuple[int, int, str]:
    score = max((entry.risk, *(h.risk for h in entry.hunks)))
    return (-file_level(entry).rank, -score, entry.path)


def _crlf(hunk: Hunk) -> bool:
    """Whether the side texts end their lines with CRLF (for the newline ``both`` adds)."""
    return any(line.endswith(b"\r\n") for line in (*hunk.dev_text, *hunk.main_text))


def _terminated(lines: Sequence[bytes], eol: bytes) -> bytes:
    data = b"".join(lines)
    return data + eol if data and not data.endswith(b"\n") else data
