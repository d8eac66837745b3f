"""What the top line says: the repository, the mode, the commits merged (a quiz: the exercise)."""

from __future__ import annotations

from rich.text import Text

from workbench.analysis.model import Mode, SyncAnalysis
from workbench.services.quiz import Quiz
from workbench.textsafe import visible
from workbench.tui.glyphs import (
    short_sha,
)
from workbench.wording import plural

MODE_WORD = {
    Mode.IN_PROGRESS: "merge in progress",
    Mode.MERGE_COMMIT: "merge commit",
    Mode.PREVIEW: "preview",
    Mode.MERGETOOL: "git mergetool",
}


def sync_title(analysis: SyncAnalysis, repo_name: str, resumed: bool, compact: bool = False) -> Text:
    """The top line; ``compact``: shorter words and commit ids, for narrow terminals."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if compact and analysis.mode is not Mode.MERGETOOL:
        text.append(f" {visible(repo_name)} · {MODE_WORD[analysis.mode]} · dev ")
        text.append(analysis.dev[:7], style="bold")
        text.append(" ← main ")
        text.append(analysis.main[:7], style="bold")
        text.append(f" · {analysis.main_commits} from main")
        if resumed:
            text.append(" · resumed", style="italic")
        return text
    text.append(" workbench ", style="bold reverse")
    if analysis.mode is Mode.MERGETOOL:
        (entry,) = analysis.files or (None,)
        local, remote = analysis.labels
        text.append(f" {visible(repo_name)} · git mergetool · {local} ← {remote}")
        if entry is not None:
            text.append(f" · {visible(entry.path)}", style="bold")
        text.append(" · w writes MERGED; q returns to git")
        return text
    text.append(f" {visible(repo_name)} · {MODE_WORD[analysis.mode]}")
    if analysis.merge:
        text.append(f" {short_sha(analysis.merge)}")
    text.append(" · dev ")
    text.append(short_sha(analysis.dev), style="bold")
    text.append(" ← main ")
    text.append(short_sha(analysis.main), style="bold")
    text.append(f" · {plural(analysis.main_commits, 'commit')} from main")
    if resumed:
        text.append(" · resumed earlier decisions", style="italic")
    return text


def quiz_title(quiz: Quiz) -> Text:
    """The top line of a quiz: the exercise, the trainee, and what to do."""
    title = Text(no_wrap=True, overflow="ellipsis")
    title.append(" workbench training ", style="bold reverse")
    title.append(f" {visible(quiz.title)} · {visible(quiz.progress.trainee)} · replay of "
                 f"{short_sha(quiz.key.merge)}: decide each hunk as if you were reviewing the bot's merge")
    return title
