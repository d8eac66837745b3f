"""``GitRepo.index_holds``: the index's paths among a few, as ``index_paths`` has them, without listing the index."""

from __future__ import annotations

from workbench.git.repo import GitRepo
from workbench.sample.truth import SampleSync


def test_it_agrees_with_the_whole_listing_at_every_stage(sample_in_progress: SampleSync) -> None:
    repo = GitRepo.open(sample_in_progress.path)
    listed = repo.index_paths()
    unmerged = set(repo.index_unmerged())
    assert unmerged and unmerged <= listed, "a merge in progress: conflicted paths have stages 1-3 only"
    asked = [*sorted(unmerged), *sorted(listed - unmerged)[:3], "absent.py", "dir/absent.py", sorted(unmerged)[0] + "x"]
    assert repo.index_holds(asked) == listed & set(asked)
    assert repo.index_holds(sorted(listed)) == listed and repo.index_holds([]) == frozenset()
