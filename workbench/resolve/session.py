"""The decisions for one sync, with undo and redo: pure state, no I/O.

Like Textual's ``Document`` under ``TextArea``: the session holds the state
and the widgets render it.  Every command returns the ``Event`` it applied,
which the caller appends to the journal; ``Session(analysis, events)``
replays a journal, so reopening resumes exactly where the user stopped.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.analysis.conflict_map import Located
from workbench.analysis.model import FileAnalysis, FileStatus, Level, Mode, SyncAnalysis
from workbench.git.types import ReadBlob
from workbench.resolve.events import FILE_CHOICE_LABEL, Change, Event, Field, FileChoice, Op, Value, decision_label, evidence_json
from workbench.resolve.file_content import ContentError, FileState, FoundBlocks, spliced, whole_file, written_content
from workbench.resolve.markers import conflict_markers
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision, keeps_result


class SessionError(ValueError):
    """A command that does not fit the file (a bug in the caller, not user input)."""


class Session:
    """Decisions per hunk and per file, notes, undo/redo, and what is written."""

    def __init__(
        self,
        analysis: SyncAnalysis,
        events: Iterable[Event] = (),
        read_blob: ReadBlob | None = None,
        *,
        resumed_on_disk: bool = False,
    ) -> None:
        """``resumed_on_disk``: ``analysis`` was read from the work tree after ``events`` (a reopened app), so a
        write the work tree no longer holds is known to be stale (see ``_forget_stale_writes``)."""
        self.analysis = analysis
        self._read_blob = read_blob
        # What the work tree must still hold before a write: the analysed result
        # (a write updates it).  Anything else means someone changed the file.
        self._disk: dict[str, str | None] = {
            f.path: (f.result_oid if f.result_present else None) for f in analysis.files
        }
        self._files = {f.path: f for f in analysis.files}
        self._blocks = FoundBlocks()
        self._hunks: dict[tuple[str, int], Decision] = {}
        self._file_choices: dict[str, FileChoice] = {}
        self._notes: dict[tuple[str, int | None], str] = {}
        self._undo: list[Event] = []
        self._redo: list[Event] = []
        self._touched: set[str] = set()
        """Files whose decisions changed since they were loaded or last written."""
        self._baseline: dict[str, FileState] = {}
        """The decisions each file was last written with (absent: none were written, the file is as loaded)."""
        self._dirty: dict[str, bool] = {}
        """``is_dirty`` per touched file, until its decisions change again."""
        self._written: dict[str, str | None] = {}
        self._when: dict[tuple[str, int | None], float] = {}
        """When each hunk decision (index) or whole-file choice (None) in force was made."""
        for event in events:
            self._replay(event)
        if resumed_on_disk:
            self._forget_stale_writes()

    def _forget_stale_writes(self) -> None:
        """A file an earlier run wrote that no longer holds what was written (the merge was aborted and made
        again, a hand edit) is not written any more: its decisions are to be written again, and ``w`` asks
        first because the disk changed behind the journal (``_disk`` keeps what was written)."""
        for path, oid in list(self._written.items()):
            entry = self._files[path]
            if oid != (entry.result_oid if entry.result_present else None):
                del self._written[path]
                self._baseline.pop(path, None)
                self._touched.add(path)
                self._dirty.pop(path, None)

    # -- queries ------------------------------------------------------------

    def file(self, path: str) -> FileAnalysis:
        try:
            return self._files[path]
        except KeyError:
            raise SessionError(f"no such file in this sync: {path}") from None

    def conflict_blocks(self, path: str) -> Located | None:
        """git's conflict blocks found in ``path`` as analysed (a merge in progress), once per session."""
        return self._blocks.analysed(self.file(path))

    def work_tree_blocks(self, path: str) -> Located | None:
        """git's conflict blocks as the work tree holds them (the user's conflict style), for showing them."""
        return self._blocks.shown(self.file(path))

    def decision(self, path: str, index: int) -> Decision | None:
        return self._hunks.get((path, index))

    def file_choice(self, path: str) -> FileChoice | None:
        return self._file_choices.get(path)

    def decided_at(self, path: str, index: int | None) -> float | None:
        """When the decision in force for a hunk (or the file's choice, ``index`` None) was made."""
        return self._when.get((path, index))

    def note(self, path: str, index: int | None = None) -> str:
        return self._notes.get((path, index), "")

    def notes(self) -> dict[tuple[str, int | None], str]:
        return dict(self._notes)

    def decided(self, path: str) -> int:
        """Hunks of ``path`` (conflicts and edits) with a decision (all of them after a whole-file choice)."""
        entry = self.file(path)
        if path in self._file_choices:
            return len(entry.all_hunks)
        return sum(1 for h in entry.all_hunks if (path, h.index) in self._hunks)

    def is_decided(self, path: str) -> bool:
        """Every conflict of ``path`` is decided (or the whole file is): writing it leaves no markers.  Edit
        hunks do not count here: an undecided one keeps what the result holds."""
        entry = self.file(path)
        if path in self._file_choices:
            return True
        if not entry.hunks:
            return False
        return all((path, h.index) in self._hunks for h in entry.hunks)

    def marked_hunks(self, path: str) -> tuple[int, ...]:
        """Hunks of ``path`` whose edited text still holds conflict markers (decided, but not writable)."""
        if path in self._file_choices:
            return ()
        entry = self.file(path)
        return tuple(
            h.index for h in entry.all_hunks
            if (d := self._hunks.get((path, h.index))) is not None and d.text is not None and conflict_markers(d.text)
        )

    def marked_count(self) -> int:
        """How many hunks of the whole sync ``marked_hunks`` would name: only edits carry text, so
        only they are read (the counters ask on every refresh, over every file)."""
        return sum(
            1 for (path, _index), d in self._hunks.items()
            if d.text is not None and path not in self._file_choices and conflict_markers(d.text)
        )

    def undecided(self, path: str | None = None) -> int:
        """Undecided hunks, edits included (a file without hunks counts as one until chosen)."""
        paths = [path] if path is not None else list(self._files)
        total = 0
        for name in paths:
            entry = self.file(name)
            if name in self._file_choices:
                continue
            total += len(entry.all_hunks) - self.decided(name) if entry.all_hunks else 1
        return total

    def undecided_high(self) -> int:
        """Undecided high-risk hunks; a high-risk file without hunks counts as one until chosen (as in ``undecided``)."""
        return sum(
            sum(1 for h in f.all_hunks if h.level is Level.HIGH and (f.path, h.index) not in self._hunks)
            if f.all_hunks else int(f.level is Level.HIGH)
            for f in self.analysis.files
            if f.path not in self._file_choices
        )

    @property
    def all_decided(self) -> bool:
        return self.undecided() == 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def next_undo(self) -> Event | None:
        """The decision ``undo`` would take back (its changes say which file and hunk)."""
        return self._undo[-1] if self._undo else None

    def next_redo(self) -> Event | None:
        """The decision ``redo`` would make again."""
        return self._redo[-1] if self._redo else None

    def dirty_paths(self) -> list[str]:
        """Files that writing now would change (see ``is_dirty``), in the analysis' order."""
        return [p for p in self._files if self.is_dirty(p)]

    def is_dirty(self, path: str) -> bool:
        """Whether writing ``path`` now would do something.

        True when the file its decisions make differs from the one last
        written (or, before any write, from the one analysed), and during a
        merge in progress when a decided conflict is not written yet (writing
        stages it, even with the bytes already in place).  Deciding and then
        undoing, or choosing what the file already holds, leaves nothing to do.
        """
        if path not in self._touched:
            return False
        dirty = self._dirty.get(path)
        if dirty is None:
            dirty = self._dirty[path] = self._differs(path)
        return dirty

    def _state(self, path: str) -> FileState:
        entry = self._files[path]
        return self._file_choices.get(path), tuple(self._hunks.get((path, h.index)) for h in entry.all_hunks)

    def _differs(self, path: str) -> bool:
        entry = self._files[path]
        state = self._state(path)
        written = self._baseline.get(path, (None, (None,) * len(entry.all_hunks)))
        if state == written:
            return False
        if self._resolves_conflict(entry, state):
            return True
        try:
            blocks = self.conflict_blocks(path)
            return written_content(entry, state, blocks) != written_content(entry, written, blocks)
        except ContentError:
            return True  # cannot be rendered (overlapping hunks): let the write check say why

    def _resolves_conflict(self, entry: FileAnalysis, state: FileState) -> bool:
        """A decided conflict of a merge in progress, not written yet: writing it resolves the index entry."""
        choice, decisions = state
        return (
            self.analysis.mode is Mode.IN_PROGRESS
            and entry.status is FileStatus.CONFLICTED
            and entry.path not in self._written
            and (choice is not None or any(d is not None for d in decisions[: len(entry.hunks)]))
        )

    def changed_since_decided(self) -> list[str]:
        """Files whose work-tree content is no longer what the journal's decisions (or writes) were made over."""
        return [f.path for f in self.analysis.files
                if self._disk[f.path] != (f.result_oid if f.result_present else None)]

    def was_written(self, path: str) -> bool:
        """The workbench has written ``path`` (in this run or one it resumes)."""
        return path in self._written

    def disk_oid(self, path: str) -> str | None:
        """The blob the work tree held at ``path`` when loaded or last written (None: no file there).

        Known for every file of the sync; any other path is a ``SessionError``, as in ``file``.
        """
        self.file(path)
        return self._disk[path]

    def preview(self, path: str) -> bytes | None:
        """The file as writing it now would make it (None: it would be deleted)."""
        entry = self.file(path)
        choice = self._file_choices.get(path)
        try:
            if choice is not None:
                return whole_file(entry, choice, self._read_blob)
            if entry.merge is None:
                return entry.result_bytes if entry.result_present else None
            return spliced(entry, [self._hunks.get((path, h.index)) for h in entry.all_hunks], self.conflict_blocks(path))
        except ContentError as exc:
            raise SessionError(str(exc)) from exc.__cause__  # the splice's own error says why (the write check reads it)

    # -- commands (each returns the event to journal) -----------------------

    def decide(self, path: str, index: int, decision: Decision | None) -> Event:
        """A decision for one hunk; ``result``/``merged`` only for an edit hunk (and ``merged`` only where
        git's merge of the region is known)."""
        entry = self.file(path)
        hunk = next((h for h in entry.all_hunks if h.index == index), None)
        if hunk is None:
            raise SessionError(f"{path} has no hunk {index}")
        if decision is not None and decision.choice in EDIT_ONLY and hunk not in entry.edits \
                and not (decision.choice is Choice.RESULT and keeps_result(entry, hunk)):
            raise SessionError(f"hunk {index + 1} of {path} is a conflict: '{decision.choice.value}' is for edits")
        if decision is not None and decision.choice is Choice.MERGED and hunk.merged_text is None:
            raise SessionError(f"hunk {index + 1} of {path}: git's merge of this region is not known")
        changes = [Change(Field.HUNK, path, index, self._hunks.get((path, index)), decision)]
        if path in self._file_choices:
            changes.append(Change(Field.FILE, path, None, self._file_choices[path], None))
        label = f"{decision_label(decision)} in hunk {index + 1} of {path}"
        return self._do(tuple(changes), label)

    def decide_file(self, path: str, choice: Choice) -> Event:
        """The same choice for every hunk of a text file (``M``/``D``)."""
        entry = self.file(path)
        if not entry.hunks:
            raise SessionError(f"{path} has no hunks; choose the whole file instead")
        decision = Decision(choice)
        changes = [Change(Field.HUNK, path, h.index, self._hunks.get((path, h.index)), decision) for h in entry.hunks]
        if path in self._file_choices:
            changes.append(Change(Field.FILE, path, None, self._file_choices[path], None))
        return self._do(tuple(changes), f"{decision_label(decision)} in all of {path}")

    def decide_many(self, targets: Iterable[tuple[str, int]], choice: Choice, label: str) -> Event:
        """One choice for many hunks across files, as ONE event: a single undo takes it all back.

        Bulk moves ("take main for every undecided low-risk hunk") journal and
        undo like any decision; hunks of files with a whole-file choice are
        refused (the caller picks undecided hunks).
        """
        decision = Decision(choice)
        return self.decide_each([(path, index, decision) for path, index in targets], (), label)

    def decide_each(self, decisions: Iterable[tuple[str, int, Decision]], files: Iterable[tuple[str, FileChoice]],
                    label: str) -> Event:
        """Many hunks, each with its own decision, and whole-file choices, as ONE event (accepting suggestions in
        bulk); hunks of files with a whole-file choice are refused, as in ``decide_many``."""
        changes: list[Change] = []
        for path, index, decision in decisions:
            entry = self.file(path)
            hunk = next((h for h in entry.all_hunks if h.index == index), None)
            if path in self._file_choices or hunk is None:
                raise SessionError(f"{path} has no undecided hunk {index}")
            if decision.choice in EDIT_ONLY and hunk not in entry.edits \
                    and not (decision.choice is Choice.RESULT and keeps_result(entry, hunk)):
                raise SessionError(f"hunk {index + 1} of {path} is a conflict: '{decision.choice.value}' is for edits")
            changes.append(Change(Field.HUNK, path, index, self._hunks.get((path, index)), decision))
        for path, choice in files:
            self.file(path)
            changes.append(Change(Field.FILE, path, None, self._file_choices.get(path), choice))
        if not changes:
            raise SessionError("no hunks to decide")
        return self._do(tuple(changes), label)

    def choose_file(self, path: str, choice: FileChoice | None) -> Event:
        """Keep dev's file, take main's, or delete it (binary, modify/delete, ...)."""
        self.file(path)
        change = Change(Field.FILE, path, None, self._file_choices.get(path), choice)
        label = f"{FILE_CHOICE_LABEL[choice] if choice else 'undecide'} {path}"
        return self._do((change,), label)

    def set_note(self, path: str, index: int | None, text: str) -> Event:
        self.file(path)
        change = Change(Field.NOTE, path, index, self._notes.get((path, index)), text or None)
        return self._do((change,), f"note on {path}")

    def undo(self) -> Event | None:
        if not self._undo:
            return None
        event = Event(Op.UNDO, label=self._undo[-1].label)
        self._replay(event)
        return event

    def redo(self) -> Event | None:
        if not self._redo:
            return None
        event = Event(Op.REDO, label=self._redo[-1].label)
        self._replay(event)
        return event

    def mark_written(self, path: str, oid: str | None) -> Event:
        self.file(path)
        event = Event(Op.WRITTEN, path=path, oid=oid, label=f"wrote {path}", evidence=evidence_json(self.file(path)))
        self._replay(event)
        self._disk[path] = oid
        return event

    # -- replay -------------------------------------------------------------

    def _do(self, changes: tuple[Change, ...], label: str) -> Event:
        paths = dict.fromkeys(c.path for c in changes if c.field is not Field.NOTE)
        event = Event(Op.DO, changes, label, disk=tuple((p, self._disk.get(p)) for p in paths))
        self._replay(event)
        return event

    def _replay(self, event: Event) -> None:
        if event.op is Op.DO:
            for path, oid in event.disk:
                if path in self._disk:
                    self._disk[path] = oid  # what the decision was made over: a write must still find it
            self._apply(event.changes, forward=True, at=event.at)
            self._undo.append(event)
            self._redo.clear()
        elif event.op is Op.UNDO and self._undo:
            done = self._undo.pop()
            self._apply(done.changes, forward=False, at=event.at)
            self._redo.append(done)
        elif event.op is Op.REDO and self._redo:
            done = self._redo.pop()
            self._apply(done.changes, forward=True, at=event.at)
            self._undo.append(done)
        elif event.op is Op.WRITTEN and event.path in self._files:
            self._disk[event.path] = event.oid
            self._written[event.path] = event.oid
            self._baseline[event.path] = self._state(event.path)
            self._touched.discard(event.path)
            self._dirty.pop(event.path, None)

    def _apply(self, changes: tuple[Change, ...], forward: bool, at: float) -> None:
        for change in changes if forward else reversed(changes):
            value = change.after if forward else change.before
            self._set(change.field, change.path, change.index, value)
            if change.field is not Field.NOTE:
                key = (change.path, change.index if change.field is Field.HUNK else None)
                if value is None:
                    self._when.pop(key, None)
                else:
                    self._when[key] = at
                self._touched.add(change.path)
                self._dirty.pop(change.path, None)

    def _set(self, field: Field, path: str, index: int | None, value: Value) -> None:
        if path not in self._files:
            return
        if field is Field.HUNK:
            key = (path, int(index or 0))
            if isinstance(value, Decision):
                self._hunks[key] = value
            else:
                self._hunks.pop(key, None)
        elif field is Field.FILE:
            if isinstance(value, FileChoice):
                self._file_choices[path] = value
            else:
                self._file_choices.pop(path, None)
        else:
            if isinstance(value, str) and value:
                self._notes[(path, index)] = value
            else:
                self._notes.pop((path, index), None)
