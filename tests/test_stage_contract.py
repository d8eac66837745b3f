"""The import-linter contract that keeps the stages acyclic names every module the stages build on."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ABOVE = {"engine", "pipeline", "stages", "seam"}


def test_every_analysis_module_below_the_stages_is_forbidden_to_import_them() -> None:
    """A new module of ``workbench/analysis/`` left out of the list could import a stage unchecked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["name"].startswith("What the stages build on")]
    listed = {name.removeprefix("workbench.analysis.") for name in contract["source_modules"]}
    analysis = ROOT / "workbench" / "analysis"
    present = {p.stem for p in analysis.glob("*.py") if p.stem != "__init__"}
    present |= {p.name for p in analysis.iterdir() if (p / "__init__.py").is_file()}
    assert listed == present - ABOVE
    assert set(contract["forbidden_modules"]) == {f"workbench.analysis.{name}" for name in ABOVE}
