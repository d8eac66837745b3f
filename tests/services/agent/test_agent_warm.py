"""``queue`` and ``show`` answered from the cache: exactly what a run without the cache prints, and never once
anything they read changed (a decision journaled or written, the record edited by hand, a work-tree file a
claim's check read), nor when what they read may read otherwise later (a claim citing a short commit id)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit
from helpers.agent import git, one_file_merge, workbench

from workbench.git import work_state
from workbench.git.repo import GitRepo
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.services.agent import context, warm
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace

RECORD = Path(".workbench/acks.toml")


@pytest.fixture(autouse=True)
def _no_racy_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixtures just copied are too recent for their ``lstat`` to tell their bytes: nothing would be stored."""
    monkeypatch.setattr(work_state, "RACY_SECONDS", 0.0)


class _Counted:
    """``open_agent`` counting its calls: a warm answer opens nothing."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = context.open_agent

        def counted(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(context, "open_agent", counted)


def _out(repo: Path, *args: str) -> str:
    ran = workbench(*args, "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    return ran.stdout


def _both(repo: Path, *args: str) -> tuple[str, str]:
    """The command's output, and what it prints without the cache."""
    return _out(repo, *args), _out(repo, *args, "--no-cache")


def test_a_warm_queue_and_show_print_what_no_cache_prints_and_open_nothing(
        sample_in_progress: SampleSync, isolated_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = sample_in_progress.path
    counted = _Counted(monkeypatch)
    first = workbench("queue", "--json", "--repo", str(repo)).json()["items"][0]["id"]
    for args in (("queue", "--json"), ("queue",), ("queue", "--all"), ("show", first, "--json"), ("show", first)):
        cold = _out(repo, *args)
        opened = counted.calls
        assert _out(repo, *args) == cold == _out(repo, *args, "--no-cache"), args
        assert counted.calls == opened + 1, f"{args}: the warm run opened the sync"  # the --no-cache run alone


def test_after_each_decision_the_warm_answer_is_the_new_one(sample_in_progress: SampleSync, isolated_cache: Path) -> None:
    repo = sample_in_progress.path
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    before = _out(repo, "queue", "--json")
    item = queue["items"][0]["id"]
    shown = _out(repo, "show", item, "--json")
    take = workbench("show", item, "--json", "--repo", str(repo)).json()["item"]["commands"][0]["take"]
    ran = workbench("decide", item, "--take", take, "--claim", "judgement", "--reason", "the test decides",
                    "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    warm_queue, cold_queue = _both(repo, "queue", "--json", "--all")
    assert warm_queue == cold_queue and warm_queue != before
    warm_show, cold_show = _both(repo, "show", item, "--json")
    assert warm_show == cold_show and warm_show != shown


def _two_conflicts(repo: Path) -> None:
    """A merge in progress stopped on two conflicts in one file."""
    base = "def f():\n    return 1\n" + "".join(f"\n\ndef pad{n}():\n    pass\n" for n in range(8)) + "\n\ndef g():\n    return 2\n"
    dev, main = (base.replace("return 1", f"return 1{d}").replace("return 2", f"return 2{d}") for d in ("0", "00"))
    one_file_merge(repo, "a.py", base, dev, main, ("dev's change", "main's change"))


def test_a_decision_only_journaled_is_seen(tmp_path: Path, isolated_cache: Path) -> None:
    """The app decides one of a file's two conflicts: it writes nothing to the work tree or the record, only the
    journal changes."""
    repo = tmp_path / "repo"
    _two_conflicts(repo)
    before = _out(repo, "queue", "--json")
    workspace = Workspace.open(SyncRequest(repo=str(repo)))
    workspace.decide("a.py", 0, Decision(Choice.DEV))
    warm_queue, cold_queue = _both(repo, "queue", "--json")
    assert warm_queue == cold_queue != before


def test_the_record_edited_by_hand_is_seen(sample_merge_commit: SampleSync, isolated_cache: Path) -> None:
    repo = sample_merge_commit.path
    ran = workbench("decide", "commit-9a3c14db0e", "--take", "result", "--claim", "intentional-removal",
                    "--evidence", "9bf380ac3905f5234075c8c275c812efb21c2b47", "--reason", "main removed it",
                    "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    rev = git(repo, "rev-parse", "HEAD").strip()
    decided = _out(repo, "queue", "--all", "--json", rev)
    assert _out(repo, "queue", "--all", "--json", rev) == decided
    document = tomlkit.parse((repo / RECORD).read_text())
    document["ack"][0]["claim"] = "restored"  # a false claim: the lines are lost
    (repo / RECORD).write_text(tomlkit.dumps(document))
    warm_queue, cold_queue = _both(repo, "queue", "--all", "--json", rev)
    assert warm_queue == cold_queue != decided


def test_a_claim_citing_a_short_id_is_checked_again_every_time(sample_merge_commit: SampleSync,
                                                                isolated_cache: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``9bf380a`` may name two objects tomorrow: the answer resting on it is not kept."""
    repo = sample_merge_commit.path
    ran = workbench("decide", "commit-9a3c14db0e", "--take", "result", "--claim", "intentional-removal",
                    "--evidence", "9bf380a", "--reason", "main removed it", "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    document = tomlkit.parse((repo / RECORD).read_text())
    document["ack"][0]["evidence"] = ["9bf380a"]
    (repo / RECORD).write_text(tomlkit.dumps(document))
    rev = git(repo, "rev-parse", "HEAD").strip()
    counted = _Counted(monkeypatch)
    assert _out(repo, "queue", "--all", rev) == _out(repo, "queue", "--all", rev)
    assert counted.calls == 2


def test_a_work_tree_file_read_is_read_again_before_serving(sample_in_progress: SampleSync,
                                                            isolated_cache: Path) -> None:
    """A file outside the analysis (``moved`` evidence, untracked) that making the answer read."""
    repo = sample_in_progress.path
    notes = repo / "notes.txt"
    notes.write_text("one\n")
    made: list[bytes | None] = []
    request = SyncRequest(repo=str(repo))

    def make(reads: warm.Reads) -> tuple[str, GitRepo]:
        data = warm.worktree_bytes(repo, "notes.txt")
        reads.file("notes.txt", data)
        made.append(data)
        return f"read {data!r}\n", GitRepo.open(repo)

    assert warm.warm_output(request, "test", {}, make) == "read b'one\\n'\n"
    assert warm.warm_output(request, "test", {}, make) == "read b'one\\n'\n"
    assert made == [b"one\n"]
    notes.write_text("two\n")
    assert warm.warm_output(request, "test", {}, make) == "read b'two\\n'\n"
    notes.unlink()
    assert warm.warm_output(request, "test", {}, make) == "read None\n"
    assert made == [b"one\n", b"two\n", None]


def test_a_path_out_of_the_work_tree_reads_as_absent(tmp_path: Path) -> None:
    (tmp_path / "top").mkdir()
    (tmp_path / "secret").write_text("x")
    (tmp_path / "top" / "link").symlink_to(tmp_path / "secret")
    assert warm.worktree_bytes(tmp_path / "top", "../secret") is None
    assert warm.worktree_bytes(tmp_path / "top", "link") is None
