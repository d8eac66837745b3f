"""A "Frankenstein" merge: main's caller on top of dev's callee.

Dev renames ``group_commit`` to ``group_offload`` (3 parameters grow to 6) and
``CudaGraphScope`` to ``CudaGraphModule``, updating its caller.  Main edits the
same caller lines for other reasons, so `-X theirs` keeps main's calls and
imports while the callee and the enum module stay dev's: the merge compiles
and fails at run time.
"""

from __future__ import annotations

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import ADA, FARAH, Recipe, method, py
from workbench.sample.truth import Conflict, FileTruth, Pathology, Risk, Verdict

CALLEE = "megatron/core/pipeline_parallel/fine_grained_activation_offload.py"
ENUMS = "megatron/core/transformer/enums.py"
CALLER = "megatron/core/transformer/transformer_layer.py"

_CALLEE_BASE = py('''
    """Fine-grained activation offloading to host memory."""

    import torch


    class FineGrainedActivationOffloadingInterface:
        """Entry points the transformer layer calls around offloadable regions."""

        @staticmethod
        def group_commit(tensor, name, forced_released_tensors=None):
            """Close the offload group ``name`` and release its tensors."""
            for released in forced_released_tensors or ():
                released.untyped_storage().resize_(0)
            return tensor
''')
_CALLEE_DEV = py('''
    """Fine-grained activation offloading to host memory."""

    import torch


    class FineGrainedActivationOffloadingInterface:
        """Entry points the transformer layer calls around offloadable regions."""

        @staticmethod
        def group_offload(
            tensor, name, forced_released_tensors=None, delay_offload=False, offload_stream=None, sync=True
        ):
            """Close the offload group ``name`` and copy it to the host on ``offload_stream``."""
            stream = offload_stream or torch.cuda.current_stream()
            with torch.cuda.stream(stream):
                for released in forced_released_tensors or ():
                    released.untyped_storage().resize_(0)
            if sync and not delay_offload:
                stream.synchronize()
            return tensor
''')

_ENUMS = py('''
    """Enumerations used by transformer modules."""

    import enum


    class AttnMaskType(enum.Enum):
        padding = 1
        causal = 2


    class AttnBackend(enum.Enum):
        flash = 1
        fused = 2
        unfused = 3
        auto = 5


    class CudaGraphScope(enum.Enum):
        """Which sublayers a CUDA graph captures."""

        attn = 1
        mlp = 2
        moe = 3
''')

_CALLER_HEAD = py('''
    """A transformer layer: self-attention, then MLP."""

    from megatron.core.pipeline_parallel.fine_grained_activation_offload import (
        FineGrainedActivationOffloadingInterface as off_interface,
    )
''')
_CALLER_CLASS = py('''
    from megatron.core.transformer.module import MegatronModule


    class TransformerLayer(MegatronModule):
        """One transformer layer; offloads attention activations when configured."""

        def __init__(self, config, submodules, layer_number=1):
            super().__init__(config=config)
            self.layer_number = layer_number
''')
_CALLER_FORWARD = method('''

        def _forward_attention(self, hidden_states, attention_mask):
            residual = hidden_states
            attention_output = self.self_attention(hidden_states, attention_mask=attention_mask)
''')
_CALLER_TAIL = "        return hidden_states + residual\n"

_IMPORT = {
    "base": "from megatron.core.transformer.enums import AttnMaskType, CudaGraphScope\n",
    "dev": "from megatron.core.transformer.enums import AttnMaskType, CudaGraphModule\n",
    "main": "from megatron.core.transformer.enums import AttnBackend, AttnMaskType, CudaGraphScope\n",
    "expected": "from megatron.core.transformer.enums import AttnBackend, AttnMaskType, CudaGraphModule\n",
}
_INIT = {
    "base": "        self.cuda_graph_scope = config.cuda_graph_scope or [CudaGraphScope.attn]\n",
    "dev": "        self.cuda_graph_modules = config.cuda_graph_modules or [CudaGraphModule.attn]\n",
    "main": "        self.attn_backend = config.attention_backend or AttnBackend.auto\n"
    "        self.cuda_graph_scope = config.cuda_graph_scope or [CudaGraphScope.attn, CudaGraphScope.mlp]\n",
    "expected": "        self.attn_backend = config.attention_backend or AttnBackend.auto\n"
    "        self.cuda_graph_modules = config.cuda_graph_modules or [CudaGraphModule.attn, CudaGraphModule.mlp]\n",
}
_CALL = {
    "base": '        hidden_states = off_interface.group_commit(\n'
    '            attention_output, name="attn", forced_released_tensors=[residual]\n'
    "        )\n",
    "dev": "        hidden_states = off_interface.group_offload(\n"
    '            attention_output,\n'
    '            "attn",\n'
    "            [residual],\n"
    "            delay_offload=self.config.delay_offload_until_cuda_graph,\n"
    "            offload_stream=self.offload_stream,\n"
    "            sync=False,\n"
    "        )\n",
    "main": '        hidden_states = off_interface.group_commit(\n'
    '            attention_output, name="self_attn", forced_released_tensors=[residual]\n'
    "        )\n",
    "expected": "        hidden_states = off_interface.group_offload(\n"
    '            attention_output,\n'
    '            "self_attn",\n'
    "            [residual],\n"
    "            delay_offload=self.config.delay_offload_until_cuda_graph,\n"
    "            offload_stream=self.offload_stream,\n"
    "            sync=False,\n"
    "        )\n",
}


def _caller(version: str) -> str:
    """transformer_layer.py as ``base``, ``dev``, ``main`` or the hand-fixed ``expected``."""
    return (
        _CALLER_HEAD
        + _IMPORT[version]
        + _CALLER_CLASS
        + _INIT[version]
        + _CALLER_FORWARD
        + _CALL[version]
        + _CALLER_TAIL
    )


def renamed_callee(b: RepoBuilder) -> Recipe:
    """Dev #141 renames the offload API and the graph-scope enum; main #241/#242 edit the caller."""
    b.write(CALLEE, _CALLEE_BASE)
    b.write(ENUMS, _ENUMS)
    b.write(CALLER, _caller("base"))
    yield
    b.write(CALLEE, _CALLEE_DEV)
    b.write(ENUMS, _ENUMS.replace("class CudaGraphScope", "class CudaGraphModule"))
    b.write(CALLER, _caller("dev"))
    rename = b.commit(
        "[dev] Offload activation groups on a side stream; rename CudaGraphScope (#141)", author=ADA
    )
    yield
    with_backend = _caller("base").replace(_IMPORT["base"], _IMPORT["main"])
    b.write(CALLER, with_backend.replace(_INIT["base"], _INIT["main"]))
    backend = b.commit("Choose the attention backend per layer; capture MLP graphs (#241)", author=FARAH)
    b.write(CALLER, _caller("main"))
    naming = b.commit("Name the self-attention offload group self_attn (#242)", author=FARAH)
    return (
        FileTruth(
            path=CALLER,
            pathology=Pathology.API_MISMATCH,
            risk=Risk.HIGH,
            conflict=Conflict.CONTENT,
            verdict=Verdict.COMBINE,
            expected=_caller("expected").encode(),
            lost_lines=(
                _IMPORT["dev"].rstrip("\n"),
                _INIT["dev"].rstrip("\n"),
                "        hidden_states = off_interface.group_offload(",
                "            attention_output,",
                '            "attn",',
                "            [residual],",
                "            delay_offload=self.config.delay_offload_until_cuda_graph,",
                "            offload_stream=self.offload_stream,",
                "            sync=False,",
            ),
            dropped_commits=(rename,),
            carriers=(backend, naming),
            missing_names=("group_commit", "CudaGraphScope"),
            note="Main's caller survived -X theirs but dev renamed its callee: group_commit is now "
            "group_offload (6 parameters, not 3) and CudaGraphScope is now CudaGraphModule.",
        ),
    )
