"""The API audit on real repositories: one side's caller against the other side's callee."""

from __future__ import annotations

from pathlib import Path

from helpers.histories import bot_merge, history
from helpers.signals import findings
from helpers.syncs import analyze, analyze_preview

from workbench.analysis.serialize import analysis_to_json
from workbench.sample import RepoBuilder
from workbench.sample.scenarios import renamed_callee

OFFLOAD = """
    class Interface:
        @staticmethod
        def init_handler(vp_size, vp_stage, min_size):
            return (vp_size, vp_stage, min_size)
"""
OFFLOAD_DEV = """
    class Interface:
        @staticmethod
        def init_handler(pp_rank, vp_size, vp_stage, min_size, delta, fraction):
            return (pp_rank, vp_size, vp_stage, min_size, delta, fraction)
"""
CALLER = """
    from pkg.offload import Interface as off


    def prepare(cfg):
        return off.init_handler(vp_size=cfg.vp, vp_stage=0, min_size=1)
"""


def test_renamed_method_and_enum_from_the_sample_scenario(tmp_path: Path) -> None:
    scenario = renamed_callee(tmp_path / "repo")
    analysis = analyze(scenario.path, dev="dev", main="main")
    caller = "megatron/core/transformer/transformer_layer.py"
    (method,) = findings(analysis, "missing-attribute", caller)
    assert method.symbol == "group_commit" and method.side == "main"
    assert "main's code calls `off_interface.group_commit(…)`" in method.message
    assert "dev's class FineGrainedActivationOffloadingInterface" in method.message
    assert "it has `group_offload`" in method.message and "(#141)" in method.message
    assert method.callee_path == "megatron/core/pipeline_parallel/fine_grained_activation_offload.py"
    (enum,) = findings(analysis, "missing-import", caller)
    assert enum.symbol == "CudaGraphScope" and "it has `CudaGraphModule`" in enum.message
    assert len(method.commits) == 1 and method.commits == enum.commits
    entry = analysis.file(caller)
    assert entry is not None and method.hunk is not None
    signal = next(s for s in entry.hunks[method.hunk].signals if s.kind == "api-mismatch")
    assert signal.weight == 50 and signal.commits == method.commits and f"line {method.line}:" in signal.message


def test_scenario_merge_commit_gives_the_same_findings(tmp_path: Path) -> None:
    scenario = renamed_callee(tmp_path / "repo")
    b = RepoBuilder.open(scenario.path)
    preview_found = {(f.path, f.line, f.kind) for f in analyze(b.path, dev="dev", main="main").api_mismatches}
    merged = bot_merge(b)
    assert {(f.path, f.line, f.kind) for f in merged.api_mismatches} == preview_found


def test_signature_grown_on_dev_breaks_mains_new_caller_in_a_clean_file(builder: RepoBuilder) -> None:
    sync = history(
        builder,
        {"pkg/__init__.py": "", "pkg/offload.py": OFFLOAD},
        {"pkg/offload.py": OFFLOAD_DEV},
        {"pkg/model.py": CALLER},
    )
    (found,) = analyze_preview(builder.path).api_mismatches
    assert (found.path, found.line, found.kind, found.symbol, found.side) == ("pkg/model.py", 5, "arity", "init_handler", "main")
    assert "passes 3 arguments by keyword" in found.message
    assert "dev's `init_handler(pp_rank, vp_size, vp_stage, min_size, delta, fraction)`" in found.message
    assert "needs 6 arguments" in found.message and "missing pp_rank, delta, fraction" in found.message
    assert found.commits == (sync.dev,) and "(#101)" in found.message
    assert (found.callee_path, found.callee_line, found.hunk) == ("pkg/offload.py", 3, None)


def test_keyword_the_new_signature_does_not_accept(builder: RepoBuilder) -> None:
    history(
        builder,
        {"pkg/__init__.py": "", "pkg/offload.py": OFFLOAD},
        {"pkg/offload.py": OFFLOAD.replace("min_size", "min_bytes")},
        {"pkg/model.py": CALLER},
    )
    (found,) = analyze_preview(builder.path).api_mismatches
    assert found.kind == "unknown-keyword" and "has no parameter `min_size`" in found.message


def test_a_call_that_still_fits_is_not_reported(builder: RepoBuilder) -> None:
    grown = OFFLOAD.replace("min_size):", "min_size, delta=0, *, fraction=1.0):")
    history(builder, {"pkg/__init__.py": "", "pkg/offload.py": OFFLOAD}, {"pkg/offload.py": grown}, {"pkg/model.py": CALLER})
    assert analyze_preview(builder.path).api_mismatches == ()


def test_dropped_import_is_an_undefined_name_in_devs_code(builder: RepoBuilder) -> None:
    enums = "class Kind:\n    a = 1\n\n\nclass Scope:\n    b = 2\n\n\nclass Graph:\n    full = 3\n"
    base = "from pkg.enums import Kind, Scope\n\n\ndef build():\n    return Kind.a\n"
    dev = "from pkg.enums import Graph, Kind, Scope\n\n\ndef build():\n    return Kind.a\n\n\ndef graphs():\n    return Graph.full\n"
    main = "from pkg.enums import Scope, Kind  # noqa\n\n\ndef build():\n    return Kind.a\n"
    sync = history(builder, {"pkg/__init__.py": "", "pkg/enums.py": enums, "pkg/plan.py": base},
                   {"pkg/plan.py": dev}, {"pkg/plan.py": main})
    (found,) = analyze_preview(builder.path).api_mismatches
    assert (found.path, found.line, found.kind, found.symbol, found.side) == ("pkg/plan.py", 9, "undefined-name", "Graph", "dev")
    assert "dev's version binds it at line 1" in found.message and "hunk 1 took main's side" in found.message
    assert found.commits == (sync.main,)


NET = """
    class Net:
        def forward(self, x):
            h = self._pre(x)
            return h

        def other(self):
            return 1

        def _pre(self, x):
            return x
"""
NET_DEV = """
    class Net:
        def forward(self, x):
            h = self._resolve(self._pre(x))
            return h

        def other(self):
            return 1

        def _pre(self, x):
            return x * 2

        def _resolve(self, x):
            return x
"""


def test_dev_caller_of_a_helper_the_merge_dropped(builder: RepoBuilder) -> None:
    sync = history(builder, {"net.py": NET}, {"net.py": NET_DEV}, {"net.py": NET.replace("return x\n", "return x + 0\n")})
    analysis = analyze_preview(builder.path)
    (found,) = analysis.api_mismatches
    assert (found.line, found.kind, found.symbol, found.side) == (3, "missing-attribute", "_resolve", "dev")
    assert "dev's code calls `self._resolve(…)`, but main's class Net" in found.message
    assert "added it and the merge dropped it" in found.message and found.commits == (sync.dev,)
    entry = analysis.file("net.py")
    assert entry is not None
    dropping = [h for h in entry.hunks if any(s.kind == "api-mismatch-callee" for s in h.signals)]
    assert len(dropping) == 1 and dropping[0].main.start == 10
    note = next(s for s in dropping[0].signals if s.kind == "api-mismatch-callee")
    assert "drops dev's `Net._resolve`" in note.message and note.weight == 45


def test_dev_caller_of_a_function_main_renamed(builder: RepoBuilder) -> None:
    util = "def load(path):\n    return open(path).read()\n"
    sync = history(
        builder,
        {"pkg/__init__.py": "", "pkg/util.py": util, "pkg/a.py": "from pkg.util import load\n\nA = load('a')\n"},
        {"pkg/b.py": "from pkg.util import load\n\n\ndef go():\n    return load('b')\n"},
        {"pkg/util.py": util.replace("load", "read_file"), "pkg/a.py": "from pkg.util import read_file\n\nA = read_file('a')\n"},
    )
    (found,) = analyze_preview(builder.path).api_mismatches
    assert (found.path, found.line, found.kind, found.symbol, found.side) == ("pkg/b.py", 1, "missing-import", "load", "dev")
    assert "main's module pkg.util has no `load` (it has `read_file`)" in found.message
    assert f"main's {sync.main[:10]}" in found.message and found.commits == (sync.main,)


def test_what_is_broken_on_its_own_side_or_unknowable_is_not_reported(builder: RepoBuilder) -> None:
    """Only the one call that works on main and fails in the merge is reported."""
    base = """
        import torch

        from helpers import helper


        class Dyn:
            def __getattr__(self, name):
                return name


        class M:
            def run(self):
                return 1
    """
    main = base + """
            def extra(self, d):
                t = torch.zeros(3)
                Dyn().anything()
                d.whatever()
                self.nonexistent()
                undefined_everywhere()
                return helper(t)
    """
    history(
        builder,
        {"m.py": base, "helpers.py": "def helper(a):\n    return a\n"},
        {"m.py": base.replace("return 1", "return 2"), "helpers.py": "def helper(a, b):\n    return a + b\n"},
        {"m.py": main},
    )
    assert [(f.path, f.line, f.symbol) for f in analyze_preview(builder.path).api_mismatches] == [("m.py", 21, "helper")]


def test_findings_are_json_with_the_contract_fields(builder: RepoBuilder) -> None:
    history(
        builder,
        {"pkg/__init__.py": "", "pkg/offload.py": OFFLOAD},
        {"pkg/offload.py": OFFLOAD_DEV},
        {"pkg/model.py": CALLER},
    )
    doc = analysis_to_json(analyze_preview(builder.path))
    (found,) = doc["api_mismatches"]
    assert {"path", "line", "symbol", "kind", "message", "callee_path", "callee_line"} <= found.keys()
    assert doc["summary"]["api_mismatches"] == 1


def test_a_merge_left_in_progress_with_markers_is_still_audited(builder: RepoBuilder) -> None:
    """Half-merged text parses with tree-sitter; the clean file's mismatch is still found."""
    history(
        builder,
        {"pkg/__init__.py": "", "pkg/offload.py": OFFLOAD, "pkg/notes.py": "A = 1\n"},
        {"pkg/offload.py": OFFLOAD_DEV, "pkg/notes.py": "A = 2\n"},
        {"pkg/model.py": CALLER, "pkg/notes.py": "A = 3\n"},
    )
    assert builder.merge("main") == 1
    assert b"<<<<<<<" in builder.read("pkg/notes.py")
    analysis = analyze(builder.path)
    assert [(f.path, f.kind) for f in analysis.api_mismatches] == [("pkg/model.py", "arity")]
