"""The layer rules of docs/ARCHITECTURE.md, checked on the source and at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _modules(subdir: str) -> list[Path]:
    return sorted((PACKAGE / subdir).rglob("*.py"))


def test_only_the_git_layer_imports_pygit2() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "git" not in path.relative_to(PACKAGE).parts[:1]
        and any(name == "pygit2" or name.startswith("pygit2.") for name in _imports(path))
    ]
    assert offenders == []


def test_textual_only_in_the_ui_package() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] != "tui"
        and any(name == "textual" or name.startswith("textual.") for name in _imports(path))
    ]
    assert offenders == []


def test_analysis_depends_only_downward() -> None:
    forbidden = ("workbench.resolve", "workbench.tui", "workbench.report", "workbench.cli", "workbench.commands", "workbench.services")
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in _imports(path) if n.startswith(forbidden))
        for path in _modules("analysis")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_git_layer_depends_on_nothing_above_it() -> None:
    forbidden = (
        "workbench.analysis", "workbench.resolve", "workbench.tui", "workbench.report", "workbench.cli", "workbench.commands",
        "workbench.services",
    )
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in _imports(path) if n.startswith(forbidden))
        for path in _modules("git")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_resolve_does_not_reach_the_front_ends() -> None:
    forbidden = ("workbench.tui", "workbench.report", "workbench.cli", "workbench.commands")
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in _imports(path) if n.startswith(forbidden))
        for path in _modules("resolve")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_analysis_loads_no_ui_or_pygit2() -> None:
    code = (
        "import sys, workbench.analysis.engine, workbench.analysis.serialize;"
        "print(sorted(m for m in ('textual', 'pygit2', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_shell_true_anywhere() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "shell=True" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_nothing_resets_checks_out_or_cleans_the_users_repository() -> None:
    """Only the sample builder (which makes its own repositories) may run these."""
    dangerous = ('"reset"', '"checkout"', '"clean"', '"restore"', '"stash"')
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] != "sample"
        and any(word in path.read_text(encoding="utf-8") for word in dangerous)
    ]
    assert offenders == []


def test_the_cache_serves_the_service_layer_only() -> None:
    """workbench/cache/ stores what sync.py computes; it reaches no front end, no resolve, no sync."""
    forbidden = ("workbench.resolve", "workbench.tui", "workbench.report", "workbench.cli", "workbench.commands", "workbench.services")
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(n for n in _imports(path) if n.startswith(forbidden))
        for path in _modules("cache")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    users = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] != "cache" and any(n.startswith("workbench.cache") for n in _imports(path))
    )
    assert users == ["services/sync.py"]
