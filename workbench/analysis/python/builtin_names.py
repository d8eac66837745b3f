"""The names every Python module can read without binding them: never dangling, never undefined."""

from __future__ import annotations

import builtins

BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__", "__path__", "__builtins__"}
