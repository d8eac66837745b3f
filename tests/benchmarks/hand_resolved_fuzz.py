"""The differential fuzz of conflicts touched by hand, run long (the suite runs a short one with a fixed seed).

Each trial is a random three-way file; ``tests/helpers/hand_fuzz.py`` says what it does and checks: blocks
resolved, edited or emptied by hand in every conflict style and marker size, merge commits that edit next
to the conflicts (dropping a clean change beside one), and the workbench's own writes read back, every
write compared with ``git merge-file``.  Prints the counts; exits 1 on any mismatch.

    uv run python tests/benchmarks/hand_resolved_fuzz.py [TRIALS [SEED]]

(default 3,000 trials of each kind from seed 1; about 3 minutes on two busy cores).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.hand_fuzz import run  # noqa: E402  (the tests' helpers, from the path set above)


def main() -> int:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    started = time.monotonic()
    counts = run(seed, trials)
    print(counts.summary())
    for why, n in sorted(counts.refused.items()):
        print(f"  refused {n}x: {why}")
    for mismatch in counts.mismatches:
        print(f"  MISMATCH {mismatch}")
    print(f"{time.monotonic() - started:.1f} s")
    return 1 if counts.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
