"""The Markdown report, rendered as GitHub would and checked section by section."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

from helpers.reports import bare, git, git_run, html_sections, merged, render_html, report_for
from helpers.syncs import open_analysis

from workbench.analysis.model import DeletedFile, Importer, Level
from workbench.report.document import RecordedDecision, build_report
from workbench.report.markdown import WORKLIST, render_markdown
from workbench.report.phrases import SECTIONS, lines
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.sample.api import CALLER
from workbench.sample.builder import RepoBuilder
from workbench.sample.dropped_lines import SPECS
from workbench.sample.policy import CODEOWNERS
from workbench.sample.structure import IMAGE, RMS_NORM, SHIM


def _text(fragment: str) -> str:
    """The visible text of an HTML fragment."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_every_section_in_order_and_empty_ones_say_none(bot_merge: SampleSync) -> None:
    sections = html_sections(render_html(render_markdown(report_for(bot_merge))))
    assert list(sections) == ["", WORKLIST, *SECTIONS[2:]]  # the worklist in place of the risky hunks
    for empty in ("Policy findings", "API mismatches", "Decisions recorded in the app"):
        assert sections[empty].startswith("<p>none") and sections[empty].count("<p>") == 1, empty


def test_summary_line_agrees_with_git(bot_merge: SampleSync) -> None:
    summary = _text(html_sections(render_html(render_markdown(report_for(bot_merge))))[""])
    commits = int(git(bot_merge, "rev-list", "--count", f"{bot_merge.dev}..{bot_merge.main}"))
    conflicted = git_run(bot_merge, "merge-tree", "--write-tree", "--name-only", bot_merge.dev, bot_merge.main)
    paths = [p for p in conflicted.stdout.decode().split("\n\n")[0].splitlines()[1:] if p]
    added = deleted = files = 0
    for row in git(bot_merge, "diff", "--numstat", f"{bot_merge.dev}...HEAD", "--", "*.py").decode().splitlines():
        a, d, _ = row.split("\t", 2)
        added, deleted, files = added + int(a), deleted + int(d), files + 1
    assert files > 0
    assert f"{commits} commits from main" in summary
    assert f"{len(set(paths))} files conflicting" in summary
    assert "hunks decided by -X theirs" in summary
    assert "0 high / 0 medium /" in summary
    assert f"Python lines: +{added} / -{deleted} across {files} files (against dev)" in summary


def test_the_worklist_holds_the_risky_hunks_with_reasons_commits_and_text(bot_merge: SampleSync) -> None:
    marks = {
        (SPECS, 0): (Level.HIGH, ("dev's qk_l2_norm line is missing from the result",)),
        (CALLER, 1): (Level.MEDIUM, ("main calls group_commit, which dev renamed",)),
        (CALLER, 0): (Level.HIGH, ("an import of a name dev renamed",)),
    }
    report = report_for(bot_merge, marks)
    hunks = {(r.path, r.hunk.index): r.hunk for r in report.risky}
    sections = html_sections(render_html(render_markdown(report)))
    high = medium = _text(sections[WORKLIST])  # a medium hunk is shown under its (high) item
    for key, text in (((SPECS, 0), high), ((CALLER, 0), high), ((CALLER, 1), medium)):
        result = hunks[key].result
        assert result is not None
        assert f"{key[0]} {lines(result)}" in text
    assert "dev's qk_l2_norm line is missing from the result" in high
    assert "main calls group_commit, which dev renamed" in medium
    assert "the result loses 1 line of dev's; taking dev's side loses 1 line of main's" in high
    dev_commit = git(bot_merge, "log", "-1", "--format=%H %s", bot_merge.dev, "--", SPECS).decode().split(" ", 1)
    assert f"{dev_commit[0][:10]} {dev_commit[1].strip()}" in high
    assert sections[WORKLIST].count("<details><summary>dev / main / result text</summary>") == 3
    specs_item = sections[WORKLIST].split(f"{SPECS} line", 1)[1]
    diff = re.search(r'<code class="language-diff">(.*?)</code>', specs_item, re.S)
    assert diff is not None
    shown = html.unescape(diff.group(1)).splitlines()
    specs = hunks[(SPECS, 0)]
    assert specs.result is not None
    assert shown[0] == (
        f"@@ dev {lines(specs.dev)} -> result {lines(specs.result)} @@"
    )
    assert "-        qk_l2_norm=qk_l2_norm," in shown
    assert "+        qk_layernorm=config.qk_layernorm or config.qk_clip," in shown


def test_files_main_won_and_files_deleted_or_restored(bot_merge: SampleSync) -> None:
    sections = html_sections(render_html(render_markdown(report_for(bot_merge))))
    taken = _text(sections["Files where main's version was taken"])
    assert f"{CODEOWNERS}: -X theirs, 1 hunk" in taken
    assert f"{IMAGE}: main's file" in taken
    events = _text(sections["Files deleted or restored"])
    assert f"{SHIM}: restored" in events
    assert f"{RMS_NORM}: deleted, main deleted it; dev changed it; the result drops dev's" in events


def test_modify_delete_conflicts_still_in_the_index(in_progress: SampleSync) -> None:
    events = _text(html_sections(render_html(render_markdown(report_for(in_progress))))["Files deleted or restored"])
    assert f"{SHIM}: unresolved, dev deleted it; main changed it; still conflicted" in events
    assert f"{RMS_NORM}: unresolved, main deleted it; dev changed it; still conflicted" in events


def test_a_still_conflicted_file_has_taken_no_side(in_progress: SampleSync) -> None:
    """git leaves main's file in place for a modify/delete where dev deleted it: that is no choice of main's."""
    report = report_for(in_progress)
    conflicted = {f.path for f in report.analysis.files if f.status.value == "conflicted"}
    assert SHIM in conflicted and not conflicted & {t.path for t in report.taken}


def test_policy_findings_and_api_mismatches_from_the_stages(bot_merge: SampleSync) -> None:
    _repo, analysis = open_analysis(bot_merge.path, policy="megatron")
    assert analysis.policy is not None and analysis.policy.findings and analysis.api_mismatches
    sections = html_sections(render_html(render_markdown(build_report(analysis, None))))
    policy, api = _text(sections["Policy findings"]), _text(sections["API mismatches"])
    for finding in analysis.policy.findings:  # `names` in messages render as code: their backticks are not text
        assert f"{finding.path} ({finding.rule}, {finding.severity}): {_unticked(finding.message)}" in policy
    for mismatch in analysis.api_mismatches:
        assert f"{mismatch.path}:{mismatch.line}: {_unticked(mismatch.message)}" in api


def _unticked(message: str) -> str:
    """A message as it reads once rendered: its backtick spans are code, without the backticks."""
    return re.sub(r"`([^`\n]+)`", r"\1", message)


def test_without_a_policy_the_section_says_so(bot_merge: SampleSync) -> None:
    sections = html_sections(render_html(render_markdown(report_for(bot_merge))))
    assert _text(sections["Policy findings"]).strip() == "none (no sync policy ran: configure one or pass --policy)"


def test_deleted_files_from_the_audit_come_first(bot_merge: SampleSync) -> None:
    _repo, analysis = open_analysis(bot_merge.path)
    audited = DeletedFile(
        path="megatron/core/old_utils.py", main_oid="0" * 40, in_base=True, dev_present=True,
        verdict="restore-file", message="the result imports it (megatron/core/a.py:3) but lacks it",
        importers=(Importer("megatron/core/a.py", 3),),
    )
    report = build_report(replace(bare(analysis), deleted_files=(audited,)), None)
    events = _text(html_sections(render_html(render_markdown(report)))["Files deleted or restored"]).split("\n")
    assert [line for line in events if line][:2] == [
        "megatron/core/old_utils.py: deleted, restore-file: the result imports it (megatron/core/a.py:3) but lacks it",
        f"{SHIM}: restored, dev deleted it; main changed it; the result keeps main's",
    ]


def test_decisions_with_their_disposition_and_note(bot_merge: SampleSync) -> None:
    decisions = [
        RecordedDecision(SPECS, 0, Choice.DEV, note="keeps #121's `qk_l2_norm` (ask @ada)"),
        RecordedDecision(CODEOWNERS, None, FileChoice.TAKE_MAIN),
        RecordedDecision(CALLER, 1, Choice.CUSTOM),
    ]
    marks = {(SPECS, 0): (Level.HIGH, ("dropped dev line",))}
    markdown = render_markdown(report_for(bot_merge, marks, decisions))
    sections = html_sections(render_html(markdown))
    text = _text(sections["Decisions recorded in the app"])
    assert f"{SPECS} hunk 1: restored dev (note: keeps #121's `qk_l2_norm` (ask @\u200bada))" in text
    assert f"{CODEOWNERS} whole file: kept main" in text
    assert f"{CALLER} hunk 2: edited" in text
    assert "decided in the app: hunk 1: restored dev" in _text(sections[WORKLIST])
    assert "@ada" not in markdown.replace("@&#8203;ada", "")


def test_a_long_report_drops_hunk_text_medium_first(bot_merge: SampleSync) -> None:
    marks = {
        (SPECS, 0): (Level.HIGH, ("a",)),
        (CALLER, 1): (Level.MEDIUM, ("b",)),
    }
    report = report_for(bot_merge, marks)
    full = render_markdown(report)
    assert full.count("<details><summary>dev / main / result text") == 2
    trimmed = render_markdown(report, limit=len(full) - 1)
    assert trimmed.count("<details><summary>dev / main / result text") == 1
    assert "left out to fit GitHub's size limit" in trimmed
    bare_report = render_markdown(report, limit=1000)
    assert "<details><summary>dev / main / result text" not in bare_report
    assert html_sections(render_html(bare_report)).keys() == html_sections(render_html(full)).keys()


ALLOWED_TAGS = {"h2", "h3", "hr", "p", "strong", "em", "code", "pre", "ul", "li", "details", "summary", "sub"}
HOSTILE_SUBJECT = (
    "Fix @octocat's `bug` [click](https://evil.example) <img src=x onerror=alert(1)> "
    "\x1b[31mred\x1b[0m | *bold* _it_ ~~gone~~ </details> (#77)"
)
HOSTILE_PATH = "src/we`ird_*name*<b>x</b>.py"
HOSTILE_LINE = "```\n"


def test_repository_text_cannot_break_the_markdown(tmp_path: Path) -> None:
    b = RepoBuilder.init(tmp_path / "repo")
    b.write(HOSTILE_PATH, "a = 1\nb = 2\n")
    b.commit("base")
    b.branch("dev")
    b.write(HOSTILE_PATH, "a = 1\nb = 3\n")
    b.commit("main side")
    b.checkout("dev")
    b.write(HOSTILE_PATH, f"a = 1\n{HOSTILE_LINE}</details>\n<script>alert(1)</script>\n````\nb = 4 @someone\n")
    b.commit(HOSTILE_SUBJECT)
    b.merge("main", "theirs", check=True)
    sync = merged(b)
    markdown = render_markdown(report_for(sync, {(HOSTILE_PATH, 0): (Level.HIGH, (HOSTILE_SUBJECT,))}))
    assert "\x1b" not in markdown
    rendered = render_html(markdown)
    assert set(re.findall(r"</?([a-z0-9]+)", rendered)) <= ALLOWED_TAGS
    assert rendered.count("<details>") == rendered.count("</details>") == 1
    high = html_sections(rendered)[WORKLIST]
    shown_subject = HOSTILE_SUBJECT.replace("@", "@\u200b").replace("\x1b", "\\x1b")
    # A reason's `words` are a code span (reasons name identifiers that way); the rest stays literal.
    assert f"<li>{shown_subject.replace('`bug`', '<code>bug</code>')}</li>" in html.unescape(high)
    assert f"{HOSTILE_PATH} line 2" in _text(high)
    code = re.search(r'<code class="language-diff">(.*?)</code>', high, re.S)
    assert code is not None
    block = html.unescape(code.group(1)).splitlines()
    assert block[1:] == ["-```", "-</details>", "-<script>alert(1)</script>", "-````",
                         "-b = 4 @someone", "+b = 3"]


def test_a_report_too_long_even_without_hunk_text_still_fits(bot_merge: SampleSync) -> None:
    """docs/report.md promises a PR body under 65,536 characters: lists are cut, and say how much is left out."""
    from workbench.analysis.model import ApiMismatch
    from workbench.report.markdown import LIMIT

    report = report_for(bot_merge, {(SPECS, 0): (Level.HIGH, ("a",))})
    many = tuple(ApiMismatch(f"megatron/core/module_{n:05d}.py", n + 1, f"name_{n}", "undefined-name",
                             f"`name_{n}` is read here and defined nowhere in the merged tree", "dev")
                 for n in range(3000))
    huge = replace(report, api_mismatches=many)
    text = render_markdown(huge)
    assert len(text) <= LIMIT < sum(len(m.message) for m in many)
    assert "more items left out to fit GitHub's size limit" in text
    assert html_sections(render_html(text)).keys() == html_sections(render_html(render_markdown(report))).keys()
    shown = text.count("is read here and defined nowhere")
    assert 0 < shown < 3000 and f"{3000 - shown} more items left out" in text
