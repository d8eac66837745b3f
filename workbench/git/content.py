"""What git decides from a blob's bytes alone: binary or text, and how to read it."""

from __future__ import annotations

BINARY_PROBE = 8000
"""git's buffer_is_binary: a NUL byte within the first 8000 bytes means binary."""


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE]


def decode(data: bytes) -> str:
    """Bytes from the repository as text: UTF-8, else Latin-1 (never fails)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
