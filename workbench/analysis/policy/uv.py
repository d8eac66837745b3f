"""``[tool.uv.sources]`` git sources main added that dev's ``pyproject.toml`` lacks.

"Added" means main has the source and dev does not, and main wrote it
(it is not in the base, or main changed it there): a source dev removed
and main left alone stays removed.

The procedure keeps dev's ``pyproject.toml`` and then adds each git source
main added: main's merged code may import from packages that exist only at
that revision.  A result that is dev's file plus exactly those sources is
what the procedure wants, so it is not a keep-dev violation.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from workbench.analysis.model import PolicyFinding
from workbench.analysis.policy.rules import KEEP_DEV, Rule
from workbench.analysis.readers import Trees
from workbench.git.types import TreeRole


def _toml(trees: Trees, role: TreeRole, path: str) -> dict[str, Any] | None:
    data = trees.read(role, path)
    if data is None:
        return None
    try:
        return tomllib.loads(data.decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return None


def _sources(doc: dict[str, Any] | None) -> dict[str, Any]:
    found = (doc or {}).get("tool", {}).get("uv", {}).get("sources", {})
    return found if isinstance(found, dict) else {}


def _is_git(spec: Any) -> bool:
    specs = spec if isinstance(spec, list) else [spec]
    return any(isinstance(s, dict) and "git" in s for s in specs)


def _without(doc: dict[str, Any] | None, names: set[str]) -> dict[str, Any] | None:
    """``doc`` with the named ``[tool.uv.sources]`` entries removed (for comparison)."""
    if doc is None:
        return None
    sources = {k: v for k, v in _sources(doc).items() if k not in names}
    uv = {**doc.get("tool", {}).get("uv", {}), "sources": sources}
    return {**doc, "tool": {**doc.get("tool", {}), "uv": uv}}


def _line(trees: Trees, role: TreeRole, path: str, name: str) -> str | None:
    """The line of ``role``'s file that declares source ``name`` (to quote in the finding)."""
    data = (trees.read(role, path) or b"").decode("utf-8", "replace")
    found = re.search(r"^[ \t]*[\"']?" + re.escape(name) + r"[\"']?[ \t]*=.*$", data, re.M)
    return found.group().strip() if found else None


def uv_source_findings(trees: Trees, path: str, rule: Rule) -> tuple[list[PolicyFinding], bool]:
    """(findings, whether the result is dev's file plus main's new git sources only)."""
    base, dev, main, result = (_toml(trees, role, path) for role in ("base", "dev", "main", "result"))
    if dev is None or main is None:
        return [], False
    dev_sources, main_sources, base_sources = _sources(dev), _sources(main), _sources(base)
    added = {
        name for name, spec in main_sources.items()
        if _is_git(spec) and name not in dev_sources and base_sources.get(name) != spec
    }
    findings = []
    result_sources = _sources(result)
    for name in sorted(added):
        if result_sources.get(name) == main_sources[name] and result is not None and _without(result, added) == _without(dev, added):
            continue
        line = _line(trees, "main", path, name) or name
        findings.append(PolicyFinding(
            path, KEEP_DEV, "uv-source-missing",
            f"main added or changed the git source `{line}` to [tool.uv.sources]"
            f"{' (changed from the base)' if name in base_sources else ''}; dev's {path} lacks it: "
            "add it to dev's version (main's code may import from that revision)",
            "medium", None, rule.source,
        ))
    for name in sorted(set(main_sources) & set(dev_sources)):
        if _is_git(main_sources[name]) and main_sources[name] != dev_sources[name]:
            findings.append(PolicyFinding(
                path, KEEP_DEV, "uv-source-revision",
                f"[tool.uv.sources] {name} differs: dev has `{_line(trees, 'dev', path, name) or name}`, main has "
                f"`{_line(trees, 'main', path, name) or name}`; keep dev's unless it is broken",
                "info", None, rule.source,
            ))
    acceptable = result is not None and added.issubset(result_sources) and _without(result, added) == _without(dev, added)
    return findings, acceptable and bool(added)
