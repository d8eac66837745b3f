"""The Markdown report keeps identifiers in reasons as code, and links commits when origin is a known forge."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from helpers.reports import merged, render_html, report_for
from helpers.syncs import open_analysis

from workbench.analysis.model import Level
from workbench.report.escape import md_prose
from workbench.report.links import commit_link_template
from workbench.report.make import make_report
from workbench.report.markdown import render_markdown
from workbench.sample.builder import RepoBuilder


def test_identifiers_in_backticks_stay_code_and_the_rest_stays_literal() -> None:
    rendered = render_html(md_prose("`configure_nvtx_profiling` is called *without* its import; a lone ` stays"))
    assert "<code>configure_nvtx_profiling</code>" in rendered
    assert "<em>" not in rendered and "*without*" in rendered and "a lone ` stays" in rendered
    hostile = render_html(md_prose("`a` <script>x</script> `b` [l](http://e)"))
    assert "<script>" not in hostile and "<a " not in hostile and hostile.count("<code>") == 2


def test_forge_remotes_become_commit_links_and_others_stay_plain() -> None:
    assert commit_link_template("git@github.com:NVIDIA/Megatron-LM.git") == \
        "https://github.com/NVIDIA/Megatron-LM/commit/{sha}"
    assert commit_link_template("https://gitlab.com/group/sub/project.git") == \
        "https://gitlab.com/group/sub/project/-/commit/{sha}"
    for plain in (None, "", "/srv/git/repo.git", "https://git.example.com/a/b.git", "https://github.com/a/b)x",
                  "https://github.com/a/b/c"):
        assert commit_link_template(plain) is None, plain


def _repo(tmp_path: Path) -> RepoBuilder:
    b = RepoBuilder.init(tmp_path / "repo")
    b.write("a.py", "a = 1\nb = 2\n").commit("base")
    b.branch("dev")
    b.write("a.py", "a = 1\nb = 3\n").commit("main side")
    b.checkout("dev")
    b.write("a.py", "a = 1\nb = 4\n").commit("dev side")
    b.merge("main", "theirs", check=True)
    return b


def test_commit_ids_link_to_the_forge(tmp_path: Path) -> None:
    b = _repo(tmp_path)
    sync = merged(b)
    plain = render_markdown(report_for(sync, {("a.py", 0): (Level.HIGH, ("calls `f`",))}))
    assert "](https://" not in plain, "no remote: plain ids"
    assert "calls `f`" in plain, "the identifier keeps its code formatting"
    b.git("remote", "add", "origin", "git@github.com:owner/name.git")
    repo, analysis = open_analysis(b.path)
    report = make_report(repo, analysis)
    assert report.commit_url == "https://github.com/owner/name/commit/{sha}"
    linked = render_markdown(replace(report_for(sync, {("a.py", 0): (Level.HIGH, ("x",))}), commit_url=report.commit_url))
    links = re.findall(r"\[`([0-9a-f]+)`\]\(https://github\.com/owner/name/commit/([0-9a-f]{40})\)", linked)
    assert links and all(full.startswith(short) for short, full in links)
