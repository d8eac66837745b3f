"""Repository text made safe for GitHub Markdown and for workflow commands.

Paths, commit subjects and file content are untrusted: a subject could
close a code fence, open a ``<details>``, start a link, ping ``@someone``
or smuggle a terminal escape.  Each helper here puts text in exactly one
context and makes it literal there.
"""

from __future__ import annotations

import re

from workbench.textsafe import visible

# CommonMark inline syntax (emphasis, code, links, HTML, GFM strikethrough and
# table pipes).  Text from here never starts a line, so block syntax is moot.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
_MENTION = re.compile(r"@(?=[A-Za-z0-9])")
_ZERO_WIDTH_SPACE = "&#8203;"
_BACKTICKS = re.compile(r"`+")


def md_text(text: str) -> str:
    """Inline Markdown that renders as exactly ``text`` (one line, no mentions)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", visible(text).replace("&", "&amp;"))
    return _no_mentions(escaped)


_PROSE_CODE = re.compile(r"`([^`\n]+)`")


def md_prose(text: str) -> str:
    """Our sentences as inline Markdown: `identifiers` in backticks stay code spans, the rest is literal.

    The analysis writes names in backticks (```configure_nvtx_profiling``
    is called…``); escaping those backticks would lose the code formatting.
    Each span's content is put in a code span (literal there) and the text
    around it through ``md_text``; an unpaired backtick stays a literal one.
    """
    out: list[str] = []
    last = 0
    for match in _PROSE_CODE.finditer(text):
        out.append(md_text(text[last:match.start()]))
        out.append(code_span(match.group(1)))
        last = match.end()
    out.append(md_text(text[last:]))
    return "".join(out)


def code_span(text: str) -> str:
    """``text`` as an inline code span: a backtick fence longer than any run inside."""
    shown = visible(text)
    ticks = "`" * (_longest_backticks(shown) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
    return f"{ticks}{pad}{shown}{pad}{ticks}"


def code_block(body: str, info: str = "") -> str:
    """A fenced block holding ``body`` literally (fence longer than any backtick run in it)."""
    shown = visible(body, single_line=False)
    fence = "`" * max(3, _longest_backticks(shown) + 1)
    if shown and not shown.endswith("\n"):
        shown += "\n"
    return f"{fence}{info}\n{shown}{fence}"


def _no_mentions(text: str) -> str:
    """``@name`` with a zero-width space after the ``@``, so GitHub notifies nobody."""
    return _MENTION.sub("@" + _ZERO_WIDTH_SPACE, text)


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


_LINE_BREAKS = re.compile("[\u2028\u2029]")
"""Unicode's line and paragraph separators: a log reader may end a line there, and start a workflow command."""


def workflow_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF percent-encoded (GitHub's rules), and Unicode's line and
    paragraph separators spelled out (``\\u2028``) so no reader takes them for the end of the command."""
    shown = _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", visible(text, single_line=False))
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,`` encoded."""
    return workflow_data(visible(text)).replace(":", "%3A").replace(",", "%2C")
