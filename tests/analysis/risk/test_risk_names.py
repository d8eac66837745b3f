"""Name facts from parsed Python, and the dangling/orphaned checks built on them."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from pyflakes import checker, messages

from workbench.analysis.model import Importer, Whose
from workbench.analysis.python.importers import find_importers
from workbench.analysis.python.scope import (
    BUILTINS,
    NameFacts,
    PythonFile,
    Question,
    python_facts,
)
from workbench.analysis.readers import Trees, git_blob_id
from workbench.analysis.risk.dangling import dangling, orphaned
from workbench.git.types import PathChange, TreeChange, TreeRole


def _src(text: str) -> bytes:
    return textwrap.dedent(text).lstrip("\n").encode()


def _bound(facts: NameFacts) -> set[tuple[str, int, tuple[str, ...], str]]:
    return {(b.name, b.line, b.scope, b.kind) for b in facts.bindings}


MODULE = _src('''
    from __future__ import annotations

    import os.path as osp, sys
    from pkg.alpha import (
        alpha_helper,
        beta_helper as beta,
    )
    from . import sibling
    from ..up import thing

    __all__ = ["exported_name"]
    LIMIT: "Config | None" = None


    @register(name="x")
    class Layer(Base, metaclass=Meta):
        scale = 2

        def forward(self, hidden, *args, mask: "Mask" = None, **extra) -> Out:
            global counter
            counter += 1
            total = alpha_helper(hidden) + beta(mask)
            for index, (left, right) in enumerate(args):
                total += left * right
            with open(osp.join("a", "b")) as handle, ctx() as (one, two):
                pass
            try:
                pass
            except ValueError as error:
                print(f"{error!r} {total}")
            if (found := lookup(hidden)) is not None:
                return [item for item in found if item]
            return lambda value, bias=scale: value + bias + extra.get("k")
''')


def test_bindings_carry_their_line_scope_and_kind() -> None:
    facts = python_facts(MODULE)
    bound = _bound(facts)
    assert ("alpha_helper", 4, (), "import") in bound  # one line of a parenthesised import
    assert ("beta", 5, (), "import") in bound
    assert ("osp", 2, (), "import") in bound and ("sys", 2, (), "import") in bound
    assert ("hidden", 18, ("Layer", "forward"), "param") in bound
    assert ("extra", 18, ("Layer", "forward"), "param") in bound
    assert ("counter", 20, (), "assign") in bound  # `global` sends the binding to the module
    assert ("handle", 24, ("Layer", "forward"), "assign") in bound
    assert ("error", 28, ("Layer", "forward"), "assign") in bound
    assert ("found", 30, ("Layer", "forward"), "assign") in bound
    assert ("value", 32, ("Layer", "forward", "<lambda>"), "param") in bound
    assert ("annotations", 0, (), "import") not in bound
    assert facts.classes == frozenset({("Layer",)})
    used = {(u.name, u.line) for u in facts.uses}
    assert {("Config", 11), ("Mask", 18), ("exported_name", 10), ("error", 29), ("scale", 32)} <= used
    assert ("sibling", 7, (), "import") in bound and ("thing", 8, (), "import") in bound


def _pyflakes_undefined(data: bytes) -> set[tuple[str, int]]:
    """The names pyflakes (Python's own parser and scoping rules) finds undefined, with 1-based lines."""
    import ast

    found = checker.Checker(ast.parse(data), "module.py").messages
    return {(m.message_args[0], m.lineno) for m in found
            if isinstance(m, (messages.UndefinedName, messages.UndefinedExport))}


def _unresolved(facts: NameFacts) -> set[tuple[str, int]]:
    """The names our facts say nothing binds where they are read (builtins aside), with 1-based lines."""
    return {(u.name, u.line + 1) for u in facts.uses
            if u.name not in BUILTINS and facts.resolve(u.name, u.scope) is None}


def test_pyflakes_and_the_walk_agree_on_what_is_undefined() -> None:
    data = MODULE + b"\nprint(nowhere_bound, Layer, osp)\n"
    assert _unresolved(python_facts(data)) == _pyflakes_undefined(data) != set()


STATEMENTS = [
    "import os\n",
    "from pkg import (\n    alpha,\n    beta as gamma,\n)\n",
    "value = alpha(1)\n",
    "def run(first, second=value, *rest, **options):\n    local = first + second\n    return gamma(local)\n",
    "class Box:\n    size = 3\n\n    def grow(self, by):\n        return self.size + by + size_limit\n",
    "for item, (key, val) in pairs:\n    total = item\n",
    "with manager() as handle:\n    handle.close()\n",
    "result = [cell for cell in grid if cell]\n",
    "names = {key: val for key, val in items}\n",
    "counter += value\n",
    "try:\n    pass\nexcept KeyError as missing:\n    report(missing)\n",
    "__all__ = ['run', 'Box']\n",
    "handler = lambda event, retries=3: event.fire(retries)\n",
    "if (match := find(value)):\n    use(match)\n",
    "async def fetch(url: 'Url') -> 'Page':\n    return await get(url)\n",
    "@decorate(flag=True)\ndef wrapped(arg):\n    global shared\n    shared = arg\n",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=8))
def test_the_walk_agrees_with_pyflakes_on_valid_python(parts: list[str]) -> None:
    """Every name pyflakes finds undefined is read where the walk cannot resolve it, and every name the
    walk cannot resolve is one pyflakes finds undefined (pyflakes also knows the order of module-level
    statements, so a name read before a later module-level binding is left to it; and it checks only
    the last ``__all__``, so names are compared, their lines in the test above)."""
    data = "".join(parts).encode()
    facts = python_facts(data)
    flagged = _pyflakes_undefined(data)
    later = {name for name, _line in flagged if facts.bound(name)}
    assert {name for name, _line in _unresolved(facts)} == {name for name, _line in flagged if name not in later}


def test_half_merged_text_falls_back_to_tree_sitter() -> None:
    data = _src('''
        from pkg import (
            alpha,
        <<<<<<< HEAD
            beta_helper,
        =======
            gamma_helper,
        >>>>>>> main
        )


        def run():
            return beta_helper(alpha())
    ''')
    facts = python_facts(data)
    assert ("alpha", 1, (), "import") in _bound(facts)
    assert {(u.name, u.line) for u in facts.uses} >= {("beta_helper", 11), ("alpha", 11)}


def test_only_statements_that_mention_the_names_of_interest_are_walked() -> None:
    facts = python_facts(MODULE, {"beta"})
    assert ("beta", 5, (), "import") in _bound(facts)
    assert ("beta", 21) in {(u.name, u.line) for u in facts.uses}
    seen = {b.name for b in facts.bindings} | {u.name for u in facts.uses}
    assert seen.isdisjoint({"osp", "handle", "error", "found", "value", "Config"})


def _dangling(dev: bytes, dropped: set[int], result: bytes) -> list[str]:
    return dangling(dropped, python_facts(dev), python_facts(result))


def test_a_name_still_imported_by_a_multi_line_import_is_not_dangling() -> None:
    dev = _src('''
        from pkg.alpha import alpha
        from pkg.beta import beta_helper
        from pkg.gamma import (
            gamma,
            beta_helper,
        )
        run = beta_helper(alpha())
    ''')
    result = dev.replace(b"from pkg.beta import beta_helper\n", b"")
    assert _dangling(dev, {1}, result) == []
    assert _dangling(dev, {1}, result.replace(b"    beta_helper,\n", b"")) == ["beta_helper"]


def test_a_dropped_line_of_a_multi_line_import_binds_its_name() -> None:
    dev = _src('''
        from pkg import (
            alpha,
            beta_helper,
        )
        run = beta_helper(alpha())
    ''')
    assert _dangling(dev, {2}, dev.replace(b"    beta_helper,\n", b"")) == ["beta_helper"]


def test_a_dangling_parameter_is_looked_for_in_its_function_only() -> None:
    dev = _src('''
        class A:
            def route(self, hidden, input_ids=None):
                return input_ids + hidden

            def other(self, input_ids):
                return input_ids
    ''')
    result = dev.replace(b"hidden, input_ids=None)", b"hidden)")
    assert _dangling(dev, {1}, result) == ["input_ids"]
    assert _dangling(dev, {1}, result.replace(b"return input_ids + hidden", b"return hidden")) == []


def test_star_imports_and_builtins_are_never_dangling() -> None:
    dev = _src('''
        from pkg import print_report
        from other import *
        print_report()
    ''')
    assert _dangling(dev, {0}, dev.replace(b"from pkg import print_report\n", b"")) == []
    dev = b"input = read\nvalue = input()\n"
    assert _dangling(dev, {0}, b"value = input()\n") == []


def test_orphaned_names_are_bindings_nothing_reads_any_more() -> None:
    dev = _src('''
        import torch


        def spec(config, qk_l2_norm=False):
            return build(
                qk=config.qk,
                qk_l2_norm=qk_l2_norm,
            )
    ''')
    result = dev.replace(b"        qk_l2_norm=qk_l2_norm,\n", b"")
    assert orphaned({6}, python_facts(dev), python_facts(result)) == ["qk_l2_norm"]
    assert orphaned({5}, python_facts(dev), python_facts(result)) == []  # `config` is still read


def test_module_level_functions_are_not_orphaned() -> None:
    """Another file may call them; only imports, parameters and locals exist for their readers."""
    dev = b"def helper():\n    return 1\n\n\nvalue = helper()\n"
    assert orphaned({4}, python_facts(dev), python_facts(b"def helper():\n    return 1\n")) == []


def test_a_private_method_whose_only_call_was_dropped_is_orphaned() -> None:
    """Sync #4716's moe_layer: dev's helper survives, the line calling it does not."""
    dev = _src('''
        class Layer:
            def _record_overload(self, tokens):
                return tokens

            def forward(self, tokens):
                tokens = self._record_overload(tokens)
                return tokens
    ''')
    result = dev.replace(b"        tokens = self._record_overload(tokens)\n", b"")
    assert orphaned({5}, python_facts(dev), python_facts(result)) == ["_record_overload"]
    public = dev.replace(b"_record_overload", b"record_overload")
    assert orphaned({5}, python_facts(public), python_facts(public.replace(b"        tokens = self.rec", b"#"))) == []


def test_a_dropped_field_the_result_still_reads_dangles() -> None:
    """Sync #4716's TransformerConfig: a dataclass field dropped while ``self.field`` is still read."""
    dev = _src('''
        @dataclass
        class Config:
            hidden_size: int = 0
            capacity_factor: float | None = None

            def __post_init__(self):
                if self.capacity_factor is not None:
                    self.hidden_size += 1
    ''')
    result = dev.replace(b"    capacity_factor: float | None = None\n", b"")
    assert _dangling(dev, {3}, result) == ["capacity_factor"]
    init = b"    def __post_init__(self):\n"
    assigned = result.replace(init, init + b"        self.capacity_factor = 1\n")
    assert _dangling(dev, {3}, assigned) == []


def test_questions_reach_only_the_scopes_they_name() -> None:
    source = PythonFile(MODULE)
    inside = source.facts_for([Question({"total"}, within=("Layer", "forward"))])
    assert ("total", 23) in {(u.name, u.line) for u in inside.uses}
    on_the_way = source.facts_for([Question({"scale"}, within=("Layer",), nested=False)])
    assert {(b.name, b.scope) for b in on_the_way.bindings if b.name == "scale"} == {("scale", ("Layer",))}
    assert "scale" not in {u.name for u in on_the_way.uses}  # the lambda default inside forward is not reached


class _Files:
    """A ``RepoFiles`` over a dict of result files: enough for the importer search."""

    def __init__(self, result: dict[str, bytes]) -> None:
        self.result = result
        self.searches: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

    def blob_id(self, role: TreeRole, path: str) -> str | None:
        return git_blob_id(self.result[path]) if role == "result" and path in self.result else None

    def read(self, role: TreeRole, path: str) -> bytes | None:
        return self.result.get(path) if role == "result" else None

    def changes(self, old: TreeRole, new: TreeRole) -> tuple[TreeChange, ...]:
        raise AssertionError("the importer search compares no trees")

    def path_log(self, role: Whose, path: str, limit: int = 200) -> tuple[PathChange, ...]:
        raise AssertionError("the importer search reads no history")

    def deletions(self, paths: Sequence[str]) -> dict[str, str | None]:
        raise AssertionError("the importer search looks for no deletions")

    def grep(self, role: TreeRole, word: str, *more: str, under: Sequence[str] = ()) -> tuple[str, ...]:
        words = (word, *more)
        self.searches.append((words, tuple(under)))
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")
        return tuple(
            path
            for path, data in self.result.items()
            if (not under or any(path.startswith(d + "/") for d in under)) and pattern.search(data.decode())
        )


def test_importers_are_parsed_imports_found_by_two_searches() -> None:
    files = _Files({
        "megatron/training/checkpointing.py": b"import sys\nsys.modules['m'] = sys.modules['megatron.legacy.model']\n",
        "tools/run.py": b"from megatron.legacy import model\n",
        "megatron/legacy/fused.py": b'"""Fused."""\n\nfrom .model import GPTModel\n',
        "megatron/core/layer.py": b"# the legacy model is gone\nfrom megatron.core import model_parallel_config\n",
    })
    found = find_importers(["megatron/legacy/model/__init__.py"], Trees(files, {}), [])
    assert found == {
        "megatron/legacy/model/__init__.py": (
            Importer("megatron/legacy/fused.py", 3),
            Importer("tools/run.py", 1),
        )
    }
    assert files.searches == [
        (("legacy.model", "megatron.legacy"), ()),
        (("model",), ("megatron/legacy",)),
    ], "the bare name only where a relative import can come from"
