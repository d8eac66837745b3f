"""The built-in sample sync behind ``workbench demo``."""

from __future__ import annotations

import tempfile
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.sample import build_sample_sync


def build_demo(path: str | None, state: str) -> Path:
    """Build the sample repository (in a fresh temp dir unless ``path`` is given)."""
    if path is None:
        target = Path(tempfile.mkdtemp(prefix="workbench-demo-")) / "megatron-sample"
    else:
        target = Path(path)
        if target.exists() and not target.is_dir():
            raise WorkbenchError(f"{target} is a file: give an empty or new directory")
        if target.exists() and any(target.iterdir()):
            raise WorkbenchError(f"{target} is not empty: give an empty or new directory")
    build_sample_sync(target, state)  # type: ignore[arg-type]
    return target
