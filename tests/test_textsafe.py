"""Repository text is shown literally: no escape sequence, markup or bidi trick acts."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from workbench.analysis.display.safe_text import display_text
from workbench.textsafe import decode, markup_safe, visible


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain/path.py", "plain/path.py"),
        ("red\x1b[31mtext", "red\\x1b[31mtext"),
        ("bell\x07", "bell\\x07"),
        ("two\nlines", "two\\nlines"),
        ("caf\udce9.txt", "caf\\xe9.txt"),
        ("evil\u202egnp.py", "evil\\u202egnp.py"),
        ("c1\x9bcontrol", "c1\\x9bcontrol"),
    ],
)
def test_visible_spells_out_control_characters(raw: str, shown: str) -> None:
    assert visible(raw) == shown


def test_multi_line_keeps_newlines_and_tabs() -> None:
    assert visible("a\n\tb\x1b", single_line=False) == "a\n\tb\\x1b"


def test_markup_is_not_interpreted() -> None:
    console = Console(width=80, record=True, color_system=None)
    console.print(markup_safe("[bold]x[/bold] [link=https://evil]y[/link]"))
    console.print(Text(visible("[red]z")))
    text = console.export_text()
    assert "[bold]x[/bold]" in text and "[link=https://evil]y[/link]" in text and "[red]z" in text


def test_decode_never_fails() -> None:
    assert decode("café".encode()) == "café"
    assert decode(b"caf\xe9") == "café"


def test_view_rows_spell_controls_as_visible_does() -> None:
    """A file line in a view and the same text in a path or message read alike (one escaping, not two)."""
    for code in [*range(0x00, 0x09), *range(0x0B, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        text = f"a{chr(code)}b"
        assert display_text(text.encode()) == visible(text), hex(code)
