"""The write plans of one open sync: each file checked once, and written by the plan its check made.

``w`` (and the quit dialog) check every file with unwritten decisions, then
write those that can be: the plans the checks made are kept here and
carried out, unless the decisions changed since (then the file is checked
again) or the work tree did (then the write says so).  The workspace forgets
them all whenever a decision changes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from workbench.git.repo import GitRepo
from workbench.resolve.session import Session
from workbench.resolve.write_plan import fits, moved
from workbench.resolve.writer import WriteCheck, WriteOutcome, WritePlan, check_write, check_writes, write_files


class WritePlans:
    """Plans by path, for one session (``stage``: writes are staged, during a merge in progress)."""

    def __init__(self, repo: GitRepo, session: Session, stage: bool) -> None:
        self._repo = repo
        self._session = session
        self._stage = stage
        self._plans: dict[str, WritePlan] = {}

    def forget(self) -> None:
        """The decisions changed: every plan is made anew."""
        self._plans.clear()

    def check_all(self, paths: Sequence[str], overwrite: bool = False) -> dict[str, WriteCheck]:
        """Each path's plan (kept while the decisions and the work tree are as they were), or why not."""
        found: dict[str, WriteCheck] = {}
        for path in paths:
            plan = self._plans.get(path)
            if plan is not None and fits(self._session, plan, self._stage, overwrite) and moved(self._repo, plan) is None:
                found[path] = plan
        asked = [path for path in paths if path not in found]
        if len(asked) == 1:
            found[asked[0]] = check_write(self._repo, self._session, asked[0], overwrite, stage=self._stage)
        elif asked:
            found.update(check_writes(self._repo, self._session, asked, stage=self._stage))
        for path in asked:
            made = found[path]
            if isinstance(made, WritePlan):
                self._plans[path] = made
            else:
                self._plans.pop(path, None)
        return {path: found[path] for path in paths}

    def write_all(self, paths: Sequence[str], overwrite: Collection[str] = (),
                  progress: Callable[[int], None] | None = None) -> list[WriteOutcome]:
        """Carry out each path's plan (checked again where the decisions changed since); ``overwrite``: paths
        the user let replace a change on disk."""
        outcomes: dict[str, WriteOutcome] = {}
        plans: list[WritePlan] = []
        for path in paths:
            plan = self._plans.pop(path, None)
            leave = path in overwrite
            if plan is None or not fits(self._session, plan, self._stage, leave):
                check = check_write(self._repo, self._session, path, leave, stage=self._stage)
                if not isinstance(check, WritePlan):
                    outcomes[path] = WriteOutcome(path, False, False, check.message)
                    continue
                plan = check
            plans.append(plan)
        for outcome in write_files(self._repo, self._session, plans, progress):
            outcomes[outcome.path] = outcome
        return [outcomes[path] for path in paths]
