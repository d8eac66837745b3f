"""What the whole-file choice panel shows: each side's blob, and the keys that choose one."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from workbench.git.types import FileMode
from workbench.resolve.events import FileChoice
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.fileview import SideFacts
from workbench.tui.glyphs import (
    FILE_CHOICE_WORD,
    short_sha,
    status_words,
)
from workbench.tui.palette import Palette


def file_choice_text(ws: Workspace, path: str, sides: tuple[SideFacts, ...], palette: Palette) -> Text:
    entry = ws.entry(path)
    choice = ws.session.file_choice(path)
    text = Text()
    text.append(visible(path), style="bold")
    text.append(f"\n{status_words(entry)}: choose the whole file.\n\n")
    for facts in sides:
        style = palette.hue.get(facts.label, Style(bold=True))
        text.append(f"{facts.label:<5}", style=style)
        if facts.oid is None:
            text.append("  absent (deleted on this side)\n")
            continue
        size = "submodule" if facts.mode == FileMode.GITLINK else f"{facts.size:,} bytes" if facts.size is not None else "?"
        mode = f"{facts.mode:o}" if facts.mode else ""
        text.append(f"  {short_sha(facts.oid)}  {size:>14}  {mode}\n")
    text.append("\n")
    for key, word in (("d", FileChoice.KEEP_DEV), ("m", FileChoice.TAKE_MAIN), ("x", FileChoice.DELETE)):
        marked = choice is word
        text.append("  ▶ " if marked else "    ", style="bold")
        text.append(f" {key} ", style="bold reverse" if marked else "bold")
        text.append(f"  {FILE_CHOICE_WORD[word]}\n", style="bold" if marked else "")
    return text
