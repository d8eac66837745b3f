"""The one exception type users see: a single line, exit status 2."""

from __future__ import annotations


class WorkbenchError(Exception):
    """Bad input or an impossible request, explained in one line for stderr."""

    exit_code = 2
