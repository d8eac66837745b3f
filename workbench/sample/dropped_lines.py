"""Dev lines missing after the merge: an accident, or a removal main meant.

A dev-only line next to a line main edited for its own reasons falls inside
the conflict, and `-X theirs` drops it (high risk).  The same loss is intended
when a specific main commit removed the code; that commit is the evidence.
"""

from __future__ import annotations

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import CHEN, EMIL, FARAH, Recipe, py
from workbench.sample.truth import Conflict, FileTruth, Pathology, Risk, Verdict

SPECS = "megatron/core/models/gpt/gpt_layer_specs.py"

_SPECS_BASE = py('''
    """Layer specs for GPT models."""

    from megatron.core.models.gpt.moe_module_specs import get_gpt_layer_with_transformer_engine_spec


    def get_gpt_decoder_block_spec(config, use_transformer_engine, normalization=None):
        """Build the GPT decoder block spec, one layer spec per layer."""
        layer_spec = get_gpt_layer_with_transformer_engine_spec(
            num_experts=config.num_moe_experts,
            moe_grouped_gemm=config.moe_grouped_gemm,
            qk_layernorm=config.qk_layernorm,
            multi_latent_attention=config.multi_latent_attention,
            normalization=normalization,
        )
        return [layer_spec] * config.num_layers
''')
_QK_BASE = "        qk_layernorm=config.qk_layernorm,\n"
_QK_L2 = "        qk_l2_norm=qk_l2_norm,\n"
_QK_MAIN = "        qk_layernorm=config.qk_layernorm or config.qk_clip,\n"


def _specs(qk_line: str, dev: bool) -> str:
    """The specs file with main's or base's qk line, with or without dev's additions."""
    text = _SPECS_BASE.replace(_QK_BASE, qk_line + (_QK_L2 if dev else ""))
    if dev:
        text = text.replace("normalization=None):", "normalization=None, qk_l2_norm=False):")
    return text


def dev_line_dropped(b: RepoBuilder) -> Recipe:
    """Dev #121 adds a keyword line; main #221 edits the line above it; the conflict drops dev's line."""
    b.write(SPECS, _specs(_QK_BASE, dev=False))
    yield
    b.write(SPECS, _specs(_QK_BASE, dev=True))
    added = b.commit("[dev] Add QK L2 norm to GPT layer specs (#121)", author=EMIL)
    yield
    b.write(SPECS, _specs(_QK_MAIN, dev=False))
    edit = b.commit("Enable QK layernorm when QK clipping is on (#221)", author=FARAH)
    return (
        FileTruth(
            path=SPECS,
            pathology=Pathology.DEV_LINE_DROPPED,
            risk=Risk.HIGH,
            conflict=Conflict.CONTENT,
            verdict=Verdict.COMBINE,
            expected=_specs(_QK_MAIN, dev=True).encode(),
            lost_lines=(_QK_L2.rstrip("\n"),),
            dropped_commits=(added,),
            carriers=(edit,),
            note="Main's #221 edited the qk_layernorm line; dev's qk_l2_norm argument from #121 "
            "sat next to it and was dropped. Keep both lines.",
        ),
    )


PARALLEL_STATE = "megatron/core/parallel_state.py"

_PS_HEAD = py('''
    """Model and data parallel groups."""

''')
_PS_IMPORT = "import warnings\n\n"
_PS_BODY = py('''
    _DATA_PARALLEL_GROUP = None
    _EXPERT_DATA_PARALLEL_GROUP = None


    def get_data_parallel_group(with_context_parallel=False):
        """The data-parallel group the caller rank belongs to."""
        assert _DATA_PARALLEL_GROUP is not None, "data parallel group is not initialized"
        return _DATA_PARALLEL_GROUP


    def get_expert_data_parallel_group():
        """The expert-data-parallel group the caller rank belongs to."""
        assert _EXPERT_DATA_PARALLEL_GROUP is not None, "expert data parallel group is not initialized"
        return _EXPERT_DATA_PARALLEL_GROUP
''')
_PS_ALIAS = py('''


    def get_data_modulo_expert_parallel_group():
        """Deprecated alias of get_expert_data_parallel_group."""
        warnings.warn("get_data_modulo_expert_parallel_group is deprecated")
        return get_expert_data_parallel_group()
''')
_PS_ALIAS_DEV = _PS_ALIAS.replace(
    '    warnings.warn("get_data_modulo_expert_parallel_group is deprecated")\n',
    "    warnings.warn(\n"
    '        "get_data_modulo_expert_parallel_group is deprecated; "\n'
    '        "use get_expert_data_parallel_group",\n'
    "        DeprecationWarning,\n"
    "    )\n",
)


def intentional_removal(b: RepoBuilder) -> Recipe:
    """Dev #122 rewords a deprecation warning; main #222 deletes the deprecated function for good."""
    b.write(PARALLEL_STATE, _PS_HEAD + _PS_IMPORT + _PS_BODY + _PS_ALIAS)
    yield
    b.write(PARALLEL_STATE, _PS_HEAD + _PS_IMPORT + _PS_BODY + _PS_ALIAS_DEV)
    reworded = b.commit("[dev] Name the replacement in the deprecation warning (#122)", author=CHEN)
    yield
    b.write(PARALLEL_STATE, _PS_HEAD + _PS_BODY)
    removal = b.commit("Remove deprecated get_data_modulo_expert_parallel_group (#222)", author=CHEN)
    return (
        FileTruth(
            path=PARALLEL_STATE,
            pathology=Pathology.INTENTIONAL_REMOVAL,
            risk=Risk.LOW,
            conflict=Conflict.CONTENT,
            verdict=Verdict.TAKE_MAIN,
            expected=(_PS_HEAD + _PS_BODY).encode(),
            lost_lines=(
                "    warnings.warn(",
                '        "get_data_modulo_expert_parallel_group is deprecated; "',
                '        "use get_expert_data_parallel_group",',
                "        DeprecationWarning,",
                "    )",
            ),
            dropped_commits=(reworded,),
            carriers=(removal,),
            evidence=removal,
            note="Main's #222 removed the deprecated alias on purpose; "
            "dev's reworded warning goes with it.",
        ),
    )
