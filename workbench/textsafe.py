"""Showing repository text (paths, commit messages, file content) literally.

Repository text is untrusted: an ANSI escape in a commit subject could
recolour or retitle the terminal, and ``[bold]`` or ``[link=...]`` would be
read as Rich markup.  Front ends pass such text through ``visible`` and put
it in ``rich.text.Text`` objects (never in markup strings), or through
``markup_safe`` when a markup string is unavoidable.  ``visible`` itself is
the analysis layer's (``analysis/display/safe_text.py``), which spells out
the rows of every view the same way.
"""

from __future__ import annotations

from rich.markup import escape

from workbench.analysis.display.safe_text import visible
from workbench.git.content import decode


def markup_safe(text: str, *, single_line: bool = True) -> str:
    """``visible`` and escaped for Rich/Textual markup strings."""
    return escape(visible(text, single_line=single_line))


__all__ = ["decode", "markup_safe", "visible"]
