"""Main's text of every conflict hunk of a file, reflowed by the repository's formatter in one run."""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.analysis.model import FileAnalysis, Hunk, HunkKind
from workbench.analysis.suggest.candidates import Reflowed
from workbench.analysis.suggest.formatting import FormatterConfig, is_import, reflow, sort_imports

PYTHON_SUFFIXES = (".py", ".pyi")
_IMPORTED = re.compile(rb"^[\w., ()]*$")
"""A line inside a parenthesised import: names, commas, ``as``, parentheses."""


def reflowed_hunks(entry: FileAnalysis, config: FormatterConfig | None) -> dict[int, Reflowed]:
    """For each conflict hunk (by index), main's lines and the concatenation reflowed where that changes them.

    The formatter sees dev's file with main's text in every hunk: isort sorts
    each hunk's imports, then one black run lays out every conflict hunk's
    lines in place (black's own line ranges), so each hunk is formatted in its
    context; an edit hunk's lines are context only (it gets no menu).
    """
    if config is None or not entry.path.endswith(PYTHON_SUFFIXES) or entry.merge is None or not entry.hunks:
        return {}
    hunks = sorted(entry.hunks, key=lambda h: h.dev.start)
    mains = [_sorted(h.main_text, config) for h in hunks]
    lines, regions = _with_main(entry.merge.ours, hunks, mains)
    conflicts = [k for k, h in enumerate(hunks) if h.kind is HunkKind.CONFLICT]
    flowed = reflow(lines, [regions[k] for k in conflicts], config)
    out: dict[int, Reflowed] = {}
    for hunk, main, new in zip([hunks[k] for k in conflicts], [mains[k] for k in conflicts], flowed, strict=True):
        both = sort_imports(tuple(hunk.dev_text) + tuple(hunk.main_text), config) if _imports_only(hunk) else None
        main_lines = new if new is not None else main
        out[hunk.index] = Reflowed(
            main=main_lines if main_lines != tuple(hunk.main_text) else None,
            both=both if both is not None and both != tuple(hunk.dev_text) + tuple(hunk.main_text) else None,
            checked=new is not None,
        )
    return out


def _sorted(lines: Sequence[bytes], config: FormatterConfig) -> tuple[bytes, ...]:
    """Main's lines with their imports sorted, when they hold imports."""
    text = tuple(lines)
    if not any(is_import(line) for line in text):
        return text
    return sort_imports(text, config) or text


def _with_main(
    dev: Sequence[bytes], hunks: Sequence[Hunk], mains: Sequence[tuple[bytes, ...]]
) -> tuple[list[bytes], list[tuple[int, int]]]:
    """Dev's file with main's lines in each hunk, and each hunk's region in it (0-based, end excluded)."""
    out: list[bytes] = []
    regions: list[tuple[int, int]] = []
    pos = 0
    for hunk, main in zip(hunks, mains, strict=True):
        start = hunk.dev.start - 1
        out.extend(dev[pos:start])
        regions.append((len(out), len(out) + len(main)))
        out.extend(main)
        pos = start + hunk.dev.count
    out.extend(dev[pos:])
    return out, regions


def _imports_only(hunk: Hunk) -> bool:
    """Both sides hold imports and nothing else (blank lines and the names of a parenthesised import aside)."""
    lines = [line.strip() for line in (*hunk.dev_text, *hunk.main_text) if line.strip()]
    return any(is_import(line) for line in lines) and all(is_import(line) or _IMPORTED.match(line) for line in lines)
