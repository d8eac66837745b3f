"""Standard output as the command line uses it: closed, piped into ``head``, or not UTF-8.

Three ways a command's own output used to end in a wrong exit status or a
traceback, each handled once here for every command and format:

- a closed stdout (``workbench analyze >&-``): refused at start, in one line;
- a reader that stops early (``| head -1``): the command stops writing
  quietly and exits with the status it would have had (a gate's verdict is
  not turned into 1 by Rich's broken-pipe handling);
- a stream that cannot encode the tool's own punctuation (a latin-1 or ASCII
  locale): characters it cannot encode degrade to ASCII instead of raising
  ``UnicodeEncodeError`` half-way through a report.
"""

from __future__ import annotations

import codecs
import os
import sys
import unicodedata
from typing import TYPE_CHECKING, Any, TextIO

from workbench.errors import WorkbenchError

if TYPE_CHECKING:
    from rich.console import Console

ASCII_FALLBACK = "workbench-ascii"
"""The codec error handler installed on stdout and stderr (see :func:`degrade_to_ascii`)."""

_ASCII: dict[str, str] = {
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
    "\u2013": "-", "\u2014": "--", "\u2026": "...", "\u22ef": "...",
    "\u00b7": "-", "\u2022": "*", "\u25cf": "*", "\u25b6": ">", "\u203a": ">", "\u2039": "<",
    "\u2192": "->", "\u2190": "<-", "\u2191": "^", "\u2193": "v", "\u2502": "|", "\u258c": "|",
    "\u2713": "ok", "\u2717": "x", "\U0001f534": "(!!)", "\U0001f7e0": "(!)",
}
"""The tool's own non-ASCII characters and what they read as in ASCII."""


def _ascii(char: str) -> str:
    if char in _ASCII:
        return _ASCII[char]
    folded = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    if folded:
        return folded
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(_ascii(c) for c in error.object[error.start:error.end]), error.end


codecs.register_error(ASCII_FALLBACK, _fallback)


def degrade_to_ascii(*streams: TextIO | None) -> None:
    """Let ``streams`` write what their encoding lacks as ASCII (curly quotes as ``"``, ``…`` as ``...``)."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if reconfigure is not None and encoding not in ("utf-8", "utf8"):
            reconfigure(errors=ASCII_FALLBACK)


def require_stdout() -> None:
    """Refuse to run with standard output closed: results would go nowhere (or into a file that
    reuses descriptor 1)."""
    closed = sys.stdout is None  # Python's own reading of a descriptor 1 that was closed at start
    if closed:
        raise WorkbenchError("standard output is closed: nowhere to write the results (redirect it, e.g. >/dev/null)")


def pipe_console(**options: Any) -> Console:
    """A Rich console that lets a broken pipe propagate as ``BrokenPipeError``.

    Rich's own handling exits with status 1, the status of a failed gate,
    although nothing failed: the reader only stopped reading.  (Rich is
    imported here, not at start, so ``workbench --help`` stays fast.)
    """
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return PipeConsole(**options)


def stop_writing() -> None:
    """The reader went away: point stdout at /dev/null so the final flush is silent (as git does)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


WRITE_PIECE = 1 << 20
"""Characters handed to a text stream at a time by ``write_document``."""


def write_document(pieces: list[str], start: int = 0, end: str = "\n") -> None:
    """Write ``pieces`` (from character ``start`` of the first), then ``end``, to stdout a megabyte at a time.

    A text stream encodes what it is given whole: a large sync's JSON,
    written at once with its newline appended, was held three times over
    (the text, the text with the newline, the encoded bytes) when the
    process used the most memory.
    """
    for n, piece in enumerate(pieces):
        for at in range(start if n == 0 else 0, len(piece), WRITE_PIECE):
            sys.stdout.write(piece[at : at + WRITE_PIECE])
    sys.stdout.write(end)
