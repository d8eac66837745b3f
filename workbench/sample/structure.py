"""Conflicts of shape rather than of lines: deletes, adds, binaries, line endings, renames.

`-X theirs` resolves add/add, binary, CRLF and last-line conflicts silently;
modify/delete conflicts survive it and the bot resolves them by favouring main.
"""

from __future__ import annotations

from functools import partial

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import BO, CHEN, DANA, EMIL, FARAH, Recipe, crlf, py
from workbench.sample.truth import Conflict, FileTruth, Pathology, Risk, Verdict

RMS_NORM = "megatron/legacy/model/rms_norm.py"
HYBRID_NORM = "megatron/core/ssm/mamba_hybrid_norm.py"
SHIM = "megatron/core/transformer/custom_layers/transformer_engine.py"
NVTX = "megatron/core/nvtx_utils.py"
IMAGE = "docs/source/images/moe/token_dispatch.png"
CLIP = "megatron/core/models/vision/clip_vit_model.py"
EXAMPLE = "examples/run_simple_mcore_train_loop.py"
SAMPLING_OLD = "megatron/core/inference/sampling.py"
SAMPLING = "megatron/core/inference/text_generation/sampling.py"

_RMS = py('''
    """RMSNorm for the legacy model."""

    import torch


    class RMSNorm(torch.nn.Module):
        def __init__(self, dim, eps=1e-6):
            super().__init__()
            self.eps = eps
            self.weight = torch.nn.Parameter(torch.ones(dim))

        def forward(self, x):
            norm = x.pow(2).mean(-1, keepdim=True).add(self.eps).rsqrt()
            return x * norm * self.weight
''')
_RMS_DEV = _RMS.replace("eps=1e-6):", "eps=1e-6, sequence_parallel=False):").replace(
    "torch.ones(dim))\n",
    'torch.ones(dim))\n        setattr(self.weight, "sequence_parallel", sequence_parallel)\n',
)
_HYBRID = py('''
    """Norms for Mamba hybrid layers."""

    from megatron.legacy.model.rms_norm import RMSNorm


    def build_hybrid_norm(config):
        """An RMSNorm whose weight is marked for sequence-parallel all-reduce."""
        return RMSNorm(config.hidden_size, eps=config.layernorm_epsilon, sequence_parallel=True)
''')

_SHIM = py('''
    """Deprecated: import from megatron.core.extensions.transformer_engine instead."""

    import warnings

    from megatron.core.extensions.transformer_engine import (  # noqa: F401
        TEColumnParallelLinear,
        TEDotProductAttention,
        TELayerNormColumnParallelLinear,
        TERowParallelLinear,
    )

    warnings.warn(
        "megatron.core.transformer.custom_layers.transformer_engine is deprecated",
        DeprecationWarning,
    )
''')
_SHIM_MAIN = _SHIM.replace(
    "    TEColumnParallelLinear,\n", "    TEColumnParallelGroupedLinear,\n    TEColumnParallelLinear,\n"
)

_NVTX_COMMON = py('''
    """NVTX ranges for profiling."""

    import torch

    _ENABLED = False


    def configure_nvtx_profiling(enabled: bool) -> None:
        """Turn NVTX ranges on or off for the whole process."""
        global _ENABLED
        _ENABLED = enabled


    def nvtx_range_push(msg: str) -> None:
        """Open an NVTX range when profiling is on."""
        if _ENABLED:
            torch.cuda.nvtx.range_push(msg)
''')
_NVTX_POP = py('''


    def nvtx_range_pop() -> None:
        """Close the innermost NVTX range when profiling is on."""
        if _ENABLED:
            torch.cuda.nvtx.range_pop()
''')
_NVTX_DECORATOR = py('''


    def nvtx_decorator(message: str | None = None):
        """Wrap a function in an NVTX range named after it."""

        def wrap(func):
            return torch.cuda.nvtx.range(message or func.__qualname__)(func)

        return wrap
''')


def _png(seed: int) -> bytes:
    """A small PNG-looking blob with NUL bytes, different for each seed."""
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes((i * seed + i // 7) % 256 for i in range(1500))


_CLIP = crlf(py('''
    """CLIP ViT vision model."""

    import torch

    from megatron.core.transformer.module import MegatronModule


    class CLIPViTModel(MegatronModule):
        """CLIP ViT vision encoder."""

        def __init__(self, config, img_h=336, img_w=336, patch_dim=14):
            super().__init__(config=config)
            self.img_h = img_h
            self.img_w = img_w
            self.patch_dim = patch_dim

        def forward(self, x):
            x = self.conv1(x)
            x = x + self.position_embeddings  # add pos emb
            return self.transformer(x)
'''))
_CLIP_LINE = "        x = x + self.position_embeddings  # add pos emb\r\n"
_CLIP_DEV = _CLIP.replace(_CLIP_LINE, _CLIP_LINE.replace("pos emb", "positional embeddings"))
_CLIP_MAIN = _CLIP.replace(_CLIP_LINE, _CLIP_LINE.replace("embeddings ", "embeddings.to(x.dtype) "))

_EXAMPLE = py('''
    """A minimal Megatron Core training loop."""

    from megatron.core.examples import train


    if __name__ == "__main__":
''')


def _example(call: str) -> str:
    """The example script ending in ``call`` with no newline after it."""
    return _EXAMPLE + f"    {call}"


_SAMPLING = py('''
    """Token sampling for text generation."""

    import torch


    def sample(logits, top_k=0, top_p=0.0, temperature=1.0):
        """Sample one token per row of ``logits``."""
        logits = logits / temperature
        if top_k > 0:
            logits = _top_k_filter(logits, top_k)
        if top_p > 0.0:
            logits = _top_p_filter(logits, top_p)
        probs = torch.softmax(logits, dim=-1)
        return torch.multinomial(probs, num_samples=1).view(-1)
''')
_SAMPLING_DEV = _SAMPLING.replace("temperature=1.0):", "temperature=1.0, min_p=0.0):").replace(
    "    probs = torch.softmax(logits, dim=-1)\n",
    "    probs = torch.softmax(logits, dim=-1)\n"
    "    if min_p > 0.0:\n"
    "        probs = probs.masked_fill(probs < min_p * probs.amax(-1, keepdim=True), 0.0)\n",
)


def structural_conflicts(b: RepoBuilder) -> Recipe:
    """Modify/delete both ways, add/add, a binary, a CRLF file, a last line without newline, a rename."""
    for path, content in (
        (RMS_NORM, _RMS),
        (SHIM, _SHIM),
        (IMAGE, _png(3)),
        (CLIP, _CLIP),
        (EXAMPLE, _example("train(num_iterations=5)")),
        (SAMPLING_OLD, _SAMPLING),
    ):
        b.write(path, content)
    yield
    b.write(RMS_NORM, _RMS_DEV).write(HYBRID_NORM, _HYBRID)
    dev_norm = b.commit("[dev] Sequence-parallel RMSNorm for Mamba hybrid layers (#151)", author=BO)
    b.delete(SHIM)
    dev_shim = b.commit("[dev] Remove the deprecated custom_layers shim (#152)", author=CHEN)
    b.write(NVTX, _NVTX_COMMON + _NVTX_POP)
    dev_nvtx = b.commit("[dev] Add NVTX helpers for MoE profiling (#153)", author=EMIL)
    b.write(IMAGE, _png(5))
    dev_image = b.commit("[dev] Redraw the token dispatch diagram (#154)", author=DANA)
    b.write(CLIP, _CLIP_DEV)
    dev_clip = b.commit("[dev] Clarify CLIP position embedding comment (#155)", author=FARAH)
    b.write(EXAMPLE, _example("train(num_iterations=10)"))
    dev_example = b.commit("[dev] Run the simple training loop for 10 iterations (#156)", author=EMIL)
    b.write(SAMPLING_OLD, _SAMPLING_DEV)
    b.commit("[dev] Support min-p sampling (#157)", author=DANA)
    yield
    b.delete(RMS_NORM)
    main_norm = b.commit("Remove the unused legacy RMSNorm (#251)", author=CHEN)
    b.write(SHIM, _SHIM_MAIN)
    main_shim = b.commit("Re-export grouped linear layers from the TE shim (#252)", author=BO)
    b.write(NVTX, _NVTX_COMMON + _NVTX_DECORATOR)
    main_nvtx = b.commit("Add NVTX profiling helpers (#253)", body="dev PR: #153", author=EMIL)
    b.write(IMAGE, _png(7))
    main_image = b.commit("Update MoE docs figures (#254)", author=DANA)
    b.write(CLIP, _CLIP_MAIN)
    main_clip = b.commit("Cast CLIP position embeddings to the activation dtype (#255)", author=FARAH)
    b.write(EXAMPLE, _example("train(num_iterations=5, log_interval=1)"))
    main_example = b.commit("Log every iteration in the simple training loop (#256)", author=EMIL)
    b.rename(SAMPLING_OLD, SAMPLING)
    b.commit("Move sampling into inference.text_generation (#257)", author=DANA)

    routine = partial(FileTruth, risk=Risk.LOW, verdict=Verdict.TAKE_MAIN)
    return (
        FileTruth(
            path=RMS_NORM,
            pathology=Pathology.MODIFY_DELETE,
            risk=Risk.HIGH,
            conflict=Conflict.MODIFY_DELETE,
            verdict=Verdict.KEEP_DEV,
            expected=_RMS_DEV.encode(),
            dropped_commits=(dev_norm,),
            carriers=(main_norm,),
            note=f"Main's #251 deleted it, but dev's {HYBRID_NORM} still imports it: "
            "restore dev's file.",
        ),
        FileTruth(
            path=SHIM,
            pathology=Pathology.MODIFY_DELETE,
            risk=Risk.MEDIUM,
            conflict=Conflict.MODIFY_DELETE,
            verdict=Verdict.DELETE,
            expected=None,
            dropped_commits=(dev_shim,),
            carriers=(main_shim,),
            evidence=dev_shim,
            note="Dev's #152 deleted the shim on purpose and nothing imports it; "
            "the bot kept main's copy.",
        ),
        FileTruth(
            path=NVTX,
            pathology=Pathology.ADD_ADD,
            risk=Risk.MEDIUM,
            conflict=Conflict.ADD_ADD,
            verdict=Verdict.COMBINE,
            expected=(_NVTX_COMMON + _NVTX_POP + _NVTX_DECORATOR).encode(),
            lost_lines=(
                "def nvtx_range_pop() -> None:",
                '    """Close the innermost NVTX range when profiling is on."""',
                "        torch.cuda.nvtx.range_pop()",
            ),
            dropped_commits=(dev_nvtx,),
            carriers=(main_nvtx,),
            note="Both sides added the file; -X theirs kept main's nvtx_decorator "
            "and dropped dev's nvtx_range_pop.",
        ),
        routine(
            path=IMAGE,
            pathology=Pathology.BINARY,
            conflict=Conflict.BINARY,
            expected=_png(7),
            dropped_commits=(dev_image,),
            carriers=(main_image,),
            note="A docs figure changed on both sides; main's redraw is newer.",
        ),
        routine(
            path=CLIP,
            pathology=Pathology.CRLF,
            conflict=Conflict.CONTENT,
            expected=_CLIP_MAIN.encode(),
            lost_lines=("        x = x + self.position_embeddings  # add positional embeddings",),
            dropped_commits=(dev_clip,),
            carriers=(main_clip,),
            note="CRLF file: main's dtype fix supersedes dev's comment rewording; endings stay CRLF.",
        ),
        routine(
            path=EXAMPLE,
            pathology=Pathology.NO_TRAILING_NEWLINE,
            conflict=Conflict.CONTENT,
            expected=_example("train(num_iterations=5, log_interval=1)").encode(),
            lost_lines=("    train(num_iterations=10)",),
            dropped_commits=(dev_example,),
            carriers=(main_example,),
            note="The last line (no newline at end of file) changed on both sides; main's is fine.",
        ),
        FileTruth(
            path=SAMPLING,
            pathology=Pathology.RENAME,
            risk=Risk.LOW,
            conflict=Conflict.NONE,
            verdict=Verdict.ACCEPT,
            expected=_SAMPLING_DEV.encode(),
            note=f"Main moved {SAMPLING_OLD}; git carried dev's min-p change to the new path.",
        ),
    )
