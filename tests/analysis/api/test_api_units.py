"""The audit's pieces on source text: the index, call binding, interfaces, names in broken files."""

from __future__ import annotations

import pytest

from workbench.analysis.api.calls import Arguments, bind, check_call
from workbench.analysis.api.symbols import interface
from workbench.analysis.python.module_index import ModuleIndex, ParamKind, module_index
from workbench.analysis.python.parse import captures, parse
from workbench.analysis.python.undefined import undefined_uses
from workbench.analysis.readers import git_blob_id

SOURCE = b'''\
from .a import (b as c, d)
import x.y as z
import os.path
from megatron.core.enums import *

def f(a, /, b: int = 1, *args, c, d=2, **kw):
    pass

try:
    from q import r
except ImportError:
    r = None

class K(Base, Generic[T], metaclass=M):
    x: int = 1

    def m(self, a, b=2):
        self.y = 3
        from inner import thing
        return thing

    @staticmethod
    def s(*, q):
        ...

@dataclass
class D:
    a: int
'''


def _index(source: bytes = SOURCE, path: str = "pkg/sub/mod.py") -> ModuleIndex:
    return module_index(path, git_blob_id(source), source)


def test_index_imports_resolve_relative_names_and_scopes() -> None:
    index = _index()
    assert index.imports["c"][0].module == "pkg.sub.a" and index.imports["c"][0].name == "b"
    assert index.imports["z"][0].module == "x.y" and index.imports["os"][0].full == "os.path"
    assert index.stars == ("megatron.core.enums",)
    (local,) = index.local_imports
    assert (local.local, local.scope) == ("thing", (17, 20))
    assert index.binding("thing", 19) == (local,) and index.binding("thing", 5) == ()
    assert {"c", "d", "z", "os", "f", "r", "K", "D"} <= index.names


def test_index_parameters_kinds_and_signature() -> None:
    (fn,) = _index().functions["f"]
    assert [(p.name, p.kind, p.default) for p in fn.params] == [
        ("a", ParamKind.POSITIONAL_ONLY, False),
        ("b", ParamKind.POSITIONAL, True),
        ("args", ParamKind.VAR_POSITIONAL, False),
        ("c", ParamKind.KEYWORD_ONLY, False),
        ("d", ParamKind.KEYWORD_ONLY, True),
        ("kw", ParamKind.VAR_KEYWORD, False),
    ]
    assert fn.signature() == "f(a, /, b=…, *args, c, d=…, **kw)"


def test_index_classes_bases_members_and_decorators() -> None:
    index = _index()
    (k,) = index.classes["K"]
    assert k.bases == ("Base", "Generic") and set(k.methods) == {"m", "s"} and "x" in k.attributes
    assert k.methods["s"][0].binding == "static" and k.methods["s"][0].signature() == "s(*, q)"
    assert index.class_at(18) is k and index.class_at(3) is None
    assert index.classes["D"][0].is_dataclass_like


@pytest.mark.parametrize(
    ("args", "skip_first", "problem"),
    [
        (Arguments(0, ("vp", "stage", "size")), False, "it needs 6 arguments, the call passes 3 (missing rank, delta, frac)"),
        (Arguments(7, ()), False, "it takes at most 6 positional arguments, the call passes 7"),
        (Arguments(0, ("bogus",)), False, "it has no parameter `bogus`"),
        (Arguments(6, ()), False, None),
        (Arguments(5, ()), True, None),
        (Arguments(1, (), star=True), False, None),
        (Arguments(0, ("rank",), double_star=True), False, None),
    ],
)
def test_binding_follows_pythons_rules(args: Arguments, skip_first: bool, problem: str | None) -> None:
    source = b"def handler(self_or_rank, vp, stage, size, delta, frac):\n    pass\n"
    (fn,) = module_index("h.py", git_blob_id(source), source.replace(b"self_or_rank", b"rank")).functions["handler"]
    found = bind(fn, args, skip_first)
    assert (found.detail if found else None) == problem


def test_a_call_fits_when_any_definition_takes_it() -> None:
    source = b"if X:\n    def f(a):\n        pass\nelse:\n    def f(a, b):\n        pass\n"
    fns = module_index("o.py", git_blob_id(source), source).functions["f"]
    assert len(fns) == 2
    assert check_call(fns, Arguments(2, ()), instance=False) is None
    assert check_call(fns, Arguments(3, ()), instance=False) is not None


def test_interface_is_headers_not_bodies() -> None:
    one = b"class K(Base):\n    x = 1\n\n    def m(self, a: int = 3,\n          b: str = ':') -> dict:\n        return {a: b}\n"
    body_changed = one.replace(b"return {a: b}", b"return {}")
    renamed = one.replace(b"def m(", b"def n(")
    (surface,) = interface("1", one, "K") or ()
    (changed,) = interface("2", body_changed, "K") or ()
    (other,) = interface("3", renamed, "K") or ()
    assert surface == changed and surface.member("m") == changed.member("m")
    assert surface.member("m") == (b"def m(self, a: int = 3,\n          b: str = ':') -> dict:",)
    assert other.member("m") == () and other.member("n") != () and surface.member("x") == (b"x",)
    assert interface("1", one, "missing") is None


def test_undefined_names_in_a_file_ast_cannot_read() -> None:
    broken = b"from a import (\n<<<<<<< ours\n    Keep,\n=======\n    Other,\n>>>>>>> theirs\n)\n\ndef f():\n    return Lost.x + Other\n"
    uses = undefined_uses("b.py", broken, {"Lost", "Other"}, parse(git_blob_id(broken), broken).root_node)
    assert uses == {"Lost": [10]}


def test_uses_in_a_file_ast_cannot_read_come_in_line_order() -> None:
    """The first use is where a finding is reported: it must be the first in the file, the same every run
    (py-tree-sitter's own capture order is neither, and a finding moved between hunks from run to run)."""
    body = b"".join(b"def f%d(x):\n    y = Lost(x) + Gone\n    return Lost.z(y, Gone)\n" % n for n in range(40))
    broken = b"<<<<<<< ours\nimport a\n=======\nimport b\n>>>>>>> theirs\n" + body
    uses = undefined_uses("b.py", broken, {"Lost", "Gone"}, parse(git_blob_id(broken), broken).root_node)
    assert uses["Lost"] == sorted(uses["Lost"]) and len(uses["Lost"]) == 80
    assert uses["Gone"] == [line for n in range(40) for line in (7 + 3 * n, 8 + 3 * n)]
    found = captures("(identifier) @id", parse(git_blob_id(body), body).root_node)["id"]
    assert [node.start_byte for node in found] == sorted(node.start_byte for node in found)


def test_a_whole_files_text_shares_the_tree_of_its_blob() -> None:
    from workbench.analysis.python.parse import parse_content

    body = b"def f(x):\n    return x\n"
    tree = parse(git_blob_id(body), body)  # as the audit parses a blob, by the id git gives it
    assert parse_content(body) is tree
    assert git_blob_id(body) == "10219f0331a9b70c16d544eeea60804d41244878"  # git hash-object's answer


def test_the_tree_cache_keeps_source_bytes_under_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree costs about 34 times its source: the cache is bounded by source bytes, the oldest tree first out."""
    from workbench.analysis.python import parse as parsing

    monkeypatch.setattr(parsing, "_TREES", parsing._TreeCache())
    monkeypatch.setattr(parsing, "TREE_CACHE_SOURCE_BYTES", 130)
    bodies = [f"def f{k}(x):\n    return x + {k}\n".encode() * 2 for k in range(4)]  # 58 bytes each: two fit, three do not
    trees = [parse(git_blob_id(body), body) for body in bodies[:2]]
    assert parse(git_blob_id(bodies[0]), bodies[0]) is trees[0]  # both fit: the first is now the newest
    parse(git_blob_id(bodies[2]), bodies[2])  # over the bound: the least recently used (the second) goes
    assert parse(git_blob_id(bodies[0]), bodies[0]) is trees[0]
    assert parse(git_blob_id(bodies[1]), bodies[1]) is not trees[1]
    huge = b"x = 1\n" * 100
    assert parse(git_blob_id(huge), huge) is parse(git_blob_id(huge), huge)  # alone over the bound, still kept
