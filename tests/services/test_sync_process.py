"""The app's analysis in a forked process: the same analysis as in the loading thread, its progress relayed,
its errors raised as they would be, and computed in the thread whenever the child gives no answer."""

from __future__ import annotations

import json
import os
import select
import threading
import time
from pathlib import Path

import pytest

from workbench.analysis.forked import can_fork
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.serialize import analysis_to_json
from workbench.errors import WorkbenchError
from workbench.git.identity import SyncIdentity, identify_sync
from workbench.git.repo import GitRepo
from workbench.sample import SampleSync
from workbench.services import sync, sync_process
from workbench.services.sync import Later, LoadProgress, Lookup, SyncRequest, look_up, open_sync


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)


@pytest.fixture
def computed_here(monkeypatch: pytest.MonkeyPatch) -> list[SyncRequest]:
    """The requests the parent analysed itself (the child's answer missing)."""
    parent = os.getpid()
    seen: list[SyncRequest] = []

    def recorded(asked: SyncRequest, progress: sync_process.Progress, lookup: Lookup | None = None,
                 later: Later | None = None) -> tuple[GitRepo, SyncAnalysis]:
        if os.getpid() == parent:
            seen.append(asked)
        return open_sync(asked, progress, lookup, later)

    monkeypatch.setattr(sync_process, "open_sync", recorded)
    return seen


def _json(request: SyncRequest, opener: sync_process.Opener, heard: list[LoadProgress] | None = None) -> str:
    _repo, analysis = opener(request, heard.append if heard is not None else None)
    return json.dumps(analysis_to_json(analysis), sort_keys=True)


def test_the_process_gives_the_analysis_and_its_progress(
    sample_merge_commit: SampleSync, computed_here: list[SyncRequest]
) -> None:
    request = SyncRequest(repo=str(sample_merge_commit.path), cache=False)
    expected = _json(request, open_sync)
    opener = sync_process.start_sync_process(request)
    assert opener.forked
    heard: list[LoadProgress] = []
    assert _json(request, opener, heard) == expected
    assert computed_here == []  # the child's analysis, not the parent's
    phases = [p.phase for p in heard]
    assert phases[0] == "outline" and heard[0].analysis is not None and "files" in phases and "score_risk" in phases


def test_an_error_in_the_process_is_the_error_of_the_thread(
    sample_merge_commit: SampleSync, tmp_path: Path, computed_here: list[SyncRequest]
) -> None:
    request = SyncRequest(repo=str(sample_merge_commit.path), policy=str(tmp_path / "missing.toml"), cache=False)
    with pytest.raises(WorkbenchError) as direct:
        open_sync(request)
    opener = sync_process.start_sync_process(request)
    assert opener.forked
    with pytest.raises(WorkbenchError) as relayed:
        opener(request, None)
    assert str(relayed.value) == str(direct.value)
    assert computed_here == []  # relayed from the child, not met again here


def test_a_child_that_gives_no_answer_leaves_the_analysis_to_the_thread(
    sample_merge_commit: SampleSync, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = SyncRequest(repo=str(sample_merge_commit.path), cache=False)
    expected = _json(request, open_sync)
    parent = os.getpid()
    computed_here: list[SyncRequest] = []

    def dies_in_the_child(asked: SyncRequest, progress: sync_process.Progress, lookup: Lookup | None = None,
                          later: Later | None = None) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        computed_here.append(asked)
        assert lookup is None, "the state may have changed during the child's run: its identity is read again"
        return open_sync(asked, progress, lookup)

    monkeypatch.setattr(sync_process, "open_sync", dies_in_the_child)
    opener = sync_process.start_sync_process(request)
    assert opener.forked
    assert _json(request, opener) == expected
    assert computed_here == [request]


def test_no_process_where_forking_is_unsafe(
    sample_merge_commit: SampleSync, monkeypatch: pytest.MonkeyPatch, computed_here: list[SyncRequest]
) -> None:
    monkeypatch.setattr(sync_process, "can_fork", lambda: False)
    request = SyncRequest(repo=str(sample_merge_commit.path), cache=False)
    opener = sync_process.start_sync_process(request)
    assert not opener.forked
    assert _json(request, opener) == _json(request, open_sync)
    assert computed_here == [request]


def test_the_opener_serves_only_its_request(sample_merge_commit: SampleSync) -> None:
    request = SyncRequest(repo=str(sample_merge_commit.path), cache=False)
    opener = sync_process.start_sync_process(request)
    assert opener.forked
    with pytest.raises(ValueError, match="another request"):
        opener(SyncRequest(repo=str(sample_merge_commit.path)), None)
    _json(request, opener)  # and reaps the child


def test_a_cached_analysis_is_read_in_the_thread(sample_merge_commit: SampleSync, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    request = SyncRequest(repo=str(sample_merge_commit.path))
    opener = sync_process.start_sync_process(request)
    assert opener.forked  # nothing cached yet
    opener(request, None)  # the child analyses the sync and stores it once the answer is sent
    _until_cached(request)
    assert can_fork()  # so that "not forked" below is the cache's doing
    assert not sync_process.start_sync_process(request).forked


def test_the_identity_is_read_once(sample_merge_commit: SampleSync, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch, computed_here: list[SyncRequest]) -> None:
    """The lookup's identity is the one the analysis is served and stored with: git is not asked again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    request = SyncRequest(repo=str(sample_merge_commit.path))
    sync_process.start_sync_process(request)(request, None)  # computed, then stored behind the app
    _until_cached(request)
    asked: list[tuple[object, ...]] = []

    def recorded(path: str | os.PathLike[str] | None, rev: str | None, dev: str | None, main: str | None,
                 result: str | None) -> SyncIdentity | None:
        asked.append((path, rev, dev, main, result))
        return identify_sync(path, rev, dev, main, result)

    monkeypatch.setattr(sync, "identify_sync", recorded)
    opener = sync_process.start_sync_process(request)
    assert not opener.forked and len(asked) == 1
    assert _json(request, opener) == _json(request, open_sync)
    assert len(asked) == 2  # once for the opener, once for the direct open_sync


def test_a_lookup_serves_only_its_request(sample_merge_commit: SampleSync) -> None:
    request = SyncRequest(repo=str(sample_merge_commit.path), cache=False)
    with pytest.raises(ValueError, match="another request"):
        open_sync(SyncRequest(repo=str(sample_merge_commit.path)), None, look_up(request))


@pytest.mark.parametrize("behind", [False, True])
def test_a_child_behind_the_app_runs_at_the_lowest_priority(behind: bool) -> None:
    """``git mergetool``'s child yields the CPU to the app's start (its first look); otherwise it keeps the
    app's priority. The git it runs inherits the child's."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    process = sync_process.start_analysis_process(
        lambda _progress: os.getpriority(os.PRIO_PROCESS, 0), behind=behind)  # type: ignore[arg-type,return-value]
    assert process is not None
    seen: object = process.receive(None)  # what compute returned: a number here
    assert seen == (min(mine + sync_process.BEHIND, 19) if behind else mine)
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine, "the app's own priority is untouched"


def test_the_answer_comes_before_the_child_stores_it(
    sample_merge_commit: SampleSync, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app has the analysis as soon as it is computed; the child stores it in the cache after sending it
    (here it waits for the test to say so), and the next start finds it cached."""
    from workbench.cache import analyses

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    release = tmp_path / "release"
    original = analyses.save_analysis

    def held(*args: object) -> bool:
        deadline = time.monotonic() + 30
        while not release.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(analyses, "save_analysis", held)
    request = SyncRequest(repo=str(sample_merge_commit.path))
    opener = sync_process.start_sync_process(request)
    assert opener.forked
    assert _json(request, opener) == _json(SyncRequest(repo=str(sample_merge_commit.path), cache=False), open_sync)
    assert not look_up(request).cached  # answered, not stored yet
    release.touch()
    _until_cached(request)
    assert threading.active_count() == 1  # nothing left running here that would stop the next fork


def test_the_store_holds_none_of_the_apps_descriptors_and_is_ended_if_it_hangs(
    sample_merge_commit: SampleSync, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipe the app had open (a caller reading its output to the end, say) is not held open by the store
    left behind the app; and a store that never finishes is ended after ``DETACHED_SECONDS``."""
    from workbench.cache import analyses

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(sync_process, "DETACHED_SECONDS", 4)
    storing = tmp_path / "storing"

    def hangs(*_args: object) -> bool:
        storing.write_text(str(os.getpid()))
        time.sleep(60)
        return False

    monkeypatch.setattr(analyses, "save_analysis", hangs)
    read, write = os.pipe()
    request = SyncRequest(repo=str(sample_merge_commit.path))
    opener = sync_process.start_sync_process(request)
    _json(request, opener)
    deadline = time.monotonic() + 30
    while not storing.exists():
        assert time.monotonic() < deadline, "the store never started"
        time.sleep(0.01)
    os.close(write)
    ready, _, _ = select.select([read], [], [], 2)  # well before the store is ended (which closes all it holds)
    assert ready and os.read(read, 1) == b"", "the store holds the app's pipe open"
    os.close(read)
    pid = int(storing.read_text())
    while _running(pid):
        assert time.monotonic() < deadline, "a hung store was never ended"
        time.sleep(0.05)
    assert not look_up(request).cached


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for init to reap it has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _until_cached(request: SyncRequest) -> None:
    """Wait (at most 30 s) until the analysis of ``request`` is in the cache (stored behind the app)."""
    deadline = time.monotonic() + 30
    while not look_up(request).cached:
        assert time.monotonic() < deadline, "the analysis was never stored"
        time.sleep(0.01)
