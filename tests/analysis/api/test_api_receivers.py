"""The API audit resolves a call's receiver the way a reader does: annotations, constructors, modules, imports.

Dev renames ``BufferPool.flush_group`` to ``flush_groups`` and grows
``reserve`` from two parameters to four; main adds a caller that reaches
dev's class through a receiver of each form.
"""

from __future__ import annotations

import pytest
from helpers.histories import history
from helpers.signals import findings
from helpers.syncs import analyze_preview

from workbench.sample import RepoBuilder

POOL = """
    class BufferPool:
        def flush_group(self, group):
            return group

        def reserve(self, count, size):
            return count * size


    shared_pool = BufferPool()
"""
POOL_DEV = """
    class BufferPool:
        def flush_groups(self, groups):
            return groups

        def reserve(self, count, size, dtype, device):
            return count * size


    shared_pool = BufferPool()
"""
CALLERS = {
    "annotation": """
        from pkg.pool import BufferPool


        def forward(buf: BufferPool, n):
            buf.flush_group(n)
            return buf.reserve(1, 2)
    """,
    "optional annotation": """
        from typing import Optional

        from pkg import pool


        def forward(n, buf: Optional[pool.BufferPool] = None):
            buf.flush_group(n)
            return buf.reserve(1, 2)
    """,
    "constructor on self": """
        from pkg.pool import BufferPool


        class Model:
            def __init__(self):
                self.buf = BufferPool()

            def forward(self, n):
                self.buf.flush_group(n)
                return self.buf.reserve(1, 2)
    """,
    "module attribute": """
        from pkg.pool import BufferPool

        BUF = BufferPool()


        def forward(n):
            BUF.flush_group(n)
            return BUF.reserve(1, 2)
    """,
    "imported instance": """
        from pkg.pool import shared_pool


        def forward(n):
            shared_pool.flush_group(n)
            return shared_pool.reserve(1, 2)
    """,
}


@pytest.mark.parametrize("form", sorted(CALLERS))
def test_a_typed_receiver_reaches_dev_s_class(builder: RepoBuilder, form: str) -> None:
    history(
        builder,
        {"pkg/__init__.py": "", "pkg/pool.py": POOL},
        {"pkg/pool.py": POOL_DEV},
        {"pkg/model.py": CALLERS[form]},
        dev_subject="[dev] Flush several groups at once (#101)",
    )
    analysis = analyze_preview(builder.path)
    (renamed,) = findings(analysis, "missing-attribute", "pkg/model.py")
    assert renamed.symbol == "flush_group" and renamed.side == "main"
    assert "dev's class BufferPool" in renamed.message and "(#101)" in renamed.message
    (grown,) = findings(analysis, "arity", "pkg/model.py")
    assert grown.symbol == "reserve" and "missing dtype, device" in grown.message
    assert grown.line == renamed.line + 1


def test_a_receiver_of_another_type_is_not_reported(builder: RepoBuilder) -> None:
    """A local class with the same method names: nothing of dev's is reached."""
    caller = """
        from pkg.pool import BufferPool


        class Other:
            def flush_group(self, group):
                return group

            def reserve(self, count, size):
                return count


        def forward(buf: Other, n, pool: BufferPool):
            buf.flush_group(n)
            return buf.reserve(1, 2)
    """
    history(builder, {"pkg/__init__.py": "", "pkg/pool.py": POOL}, {"pkg/pool.py": POOL_DEV}, {"pkg/model.py": caller})
    assert findings(analyze_preview(builder.path), path="pkg/model.py") == []
