"""Squash-merge chains: main squashed a dev feature, and `-X theirs` picks main's copy.

When dev kept refining the feature after the squash, main's copy is an older
dev state and the refinements are lost (high risk).  When main's squash holds
dev's work *and more*, main's side is the right one (low risk).
"""

from __future__ import annotations

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import ADA, BO, CHEN, DANA, Recipe, method, pull_request, py
from workbench.sample.truth import Conflict, FileTruth, Pathology, Risk, Verdict

OPTIMIZER = "megatron/core/optimizer/distrib_optimizer.py"

_OPT_HEAD = py('''
    """Distributed optimizer: shards optimizer state across data-parallel ranks."""

    import torch

    from megatron.core.optimizer.optimizer import MixedPrecisionOptimizer
''')
_OPT_HEAD_DEV = _OPT_HEAD.replace(
    "from megatron.core.optimizer",
    "from megatron.core.fp8_utils import GroupedQuantizedTensor\nfrom megatron.core.optimizer",
)
_OPT_CLASS = py('''


    class DistributedOptimizer(MixedPrecisionOptimizer):
        """Mixed-precision optimizer whose state is sharded over the data-parallel group."""

        def __init__(self, optimizer, config, grad_scaler, init_state_fn):
            super().__init__(optimizer, config, grad_scaler, init_state_fn)
            self.param_to_shard = {}

        def _build_model_param_gbuf_map(self, gbuf_ranges):
            """Map each model param to its grad-buffer range."""
            return {
                param: (gbuf_index, dtype, bucket_index)
                for gbuf_index, gbuf_range_map in enumerate(gbuf_ranges)
                for dtype, bucket_ranges in gbuf_range_map.items()
                for bucket_index, bucket_range in enumerate(bucket_ranges)
                for param in bucket_range["param_map"]
            }

''')
_OPT_PR1 = method('''
        def _is_distopt_quantized_param(self, param):
            """Quantized params are sharded by their raw bytes, not their values."""
            return hasattr(param, "_quantized_data")

        def _expand_quantized_param_shard_for_cast(self, param, shard):
            """Widen a quantized param's shard to whole quantization blocks."""
            if not self._is_distopt_quantized_param(param):
                return shard
            start, end = shard
            return (start, end)

''')
_OPT_PR2 = _OPT_PR1.replace(
    'hasattr(param, "_quantized_data")\n',
    'hasattr(param, "_quantized_data") or isinstance(param, GroupedQuantizedTensor)\n',
)
_OPT_PR3 = _OPT_PR2.replace(
    "        return (start, end)\n",
    "        block = param.block_size\n"
    "        return (start // block * block, -(-end // block) * block)\n",
)
_OPT_STEP = method('''
        def step(self):
            """Run one optimizer step and copy the updated shards into the model."""
            update_successful = super().step()
            self._copy_main_params_to_model_params()
            return update_successful
''')
_OPT_STEP_MAIN = _OPT_STEP.replace(
    "        self._copy_main_params_to_model_params()\n",
    "        if update_successful:\n            self._copy_main_params_to_model_params()\n",
)


def squash_chain_dev_ahead(b: RepoBuilder) -> Recipe:
    """Dev PR #101 then #102, #103 refine it; main squashes only #101 as #201, then edits elsewhere."""
    b.write(OPTIMIZER, _OPT_HEAD + _OPT_CLASS + _OPT_STEP)
    base = yield
    pr1 = pull_request(
        b,
        101,
        base,
        "Add quantized param sharding to the distributed optimizer",
        {OPTIMIZER: _OPT_HEAD + _OPT_CLASS + _OPT_PR1 + _OPT_STEP},
        ADA,
    )
    b.squash_merge(
        pr1, "[dev] Add quantized param sharding to the distributed optimizer (#101)", author=ADA
    )
    b.write(OPTIMIZER, _OPT_HEAD_DEV + _OPT_CLASS + _OPT_PR2 + _OPT_STEP)
    pr2 = b.commit("[dev] Support GroupedQuantizedTensor in distributed optimizer (#102)", author=ADA)
    b.write(OPTIMIZER, _OPT_HEAD_DEV + _OPT_CLASS + _OPT_PR3 + _OPT_STEP)
    pr3 = b.commit("[dev] Expand quantized param shards to block boundaries (#103)", author=BO)
    yield
    squash = b.squash_merge(
        pr1,
        "Add quantized param sharding to the distributed optimizer (#201)",
        body="dev PR: #101",
        author=ADA,
    )
    b.write(OPTIMIZER, _OPT_HEAD + _OPT_CLASS + _OPT_PR1 + _OPT_STEP_MAIN)
    b.commit("Skip the param copy when the optimizer step is skipped (#202)", author=CHEN)
    return (
        FileTruth(
            path=OPTIMIZER,
            pathology=Pathology.SQUASH_CHAIN_DEV_AHEAD,
            risk=Risk.HIGH,
            conflict=Conflict.CONTENT,
            verdict=Verdict.KEEP_DEV,
            expected=(_OPT_HEAD_DEV + _OPT_CLASS + _OPT_PR3 + _OPT_STEP_MAIN).encode(),
            lost_lines=(
                '        return hasattr(param, "_quantized_data") or isinstance(param, GroupedQuantizedTensor)',
                "        block = param.block_size",
                "        return (start // block * block, -(-end // block) * block)",
            ),
            dropped_commits=(pr2, pr3),
            carriers=(squash,),
            note="Main's #201 is dev's #101 squashed; -X theirs put it back over dev's "
            "follow-ups #102 and #103. Keep dev's hunk, keep main's #202 in step().",
        ),
    )


EMERGING = "megatron/core/optimizer/emerging_optimizers.py"

_EMO_BASE = py('''
    """Optimizers that are not part of torch.optim yet."""

    import torch

    _EMERGING_OPTIMIZERS = {}
''')
_EMO_DEV = _EMO_BASE + py('''


    def register_emerging_optimizer(name, cls):
        """Make an optimizer class available under ``--optimizer NAME``."""
        _EMERGING_OPTIMIZERS[name] = cls
        return cls
''')
_EMO_MAIN = _EMO_BASE + py('''


    def register_emerging_optimizer(name, cls):
        """Make an optimizer class available under ``--optimizer NAME``."""
        if name in _EMERGING_OPTIMIZERS:
            raise ValueError(f"optimizer {name!r} is already registered")
        _EMERGING_OPTIMIZERS[name] = cls
        return cls


    def get_emerging_optimizer(name):
        """The optimizer class registered under ``name``."""
        try:
            return _EMERGING_OPTIMIZERS[name]
        except KeyError:
            raise ValueError(f"unknown optimizer {name!r}") from None
''')


def squash_chain_main_ahead(b: RepoBuilder) -> Recipe:
    """Dev PR #111 adds a registry; main's #211 squashes it plus a duplicate check and a lookup."""
    b.write(EMERGING, _EMO_BASE)
    base = yield
    pr = pull_request(b, 111, base, "Add an emerging optimizer registry", {EMERGING: _EMO_DEV}, DANA)
    b.squash_merge(pr, "[dev] Add an emerging optimizer registry (#111)", author=DANA)
    yield
    b.checkout(pr).write(EMERGING, _EMO_MAIN)
    more = b.commit("Reject duplicate optimizer names; add lookup", author=DANA)
    b.git("update-ref", "refs/pull/211/head", more)
    b.checkout("main")
    squash = b.squash_merge(
        more, "Add an emerging optimizer registry (#211)", body="dev PR: #111", author=DANA
    )
    return (
        FileTruth(
            path=EMERGING,
            pathology=Pathology.SQUASH_CHAIN_MAIN_AHEAD,
            risk=Risk.LOW,
            conflict=Conflict.CONTENT,
            verdict=Verdict.TAKE_MAIN,
            expected=_EMO_MAIN.encode(),
            carriers=(squash,),
            note="Main's #211 holds dev's #111 and more (duplicate check, lookup); -X theirs is right.",
        ),
    )
