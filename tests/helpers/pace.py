"""Wall-clock limits that mean "not blocked", read on a machine that may be busy.

A few tests guard against a stall (a key that waits for the analysis, a
quadratic pass over a long line) with a limit in seconds.  On a shared or
parallel run (pytest-xdist's workers, CI beside other jobs) the same code
takes longer without being any worse, so the limit grows with the load per
core; a real stall is many times the limit, and still fails.
"""

from __future__ import annotations

import os


def busy_factor() -> float:
    """How much slower than an idle machine a wall-clock measure may be now (at least 1)."""
    cores = os.cpu_count() or 1
    return max(1.0, os.getloadavg()[0] / cores)


def limit(seconds: float) -> float:
    """``seconds`` on an idle machine, stretched by the load per core."""
    return seconds * busy_factor()
