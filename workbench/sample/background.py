"""Routine history around the pathologies, so the demo sync reads like a real one.

Dev-only and main-only work, and one file both sides change far apart: all of
it merges cleanly and needs no look, which is most of a real sync.
"""

from __future__ import annotations

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import ADA, BO, CHEN, FARAH, Recipe, py

README = "README.md"
GPT_MODEL = "megatron/core/models/gpt/gpt_model.py"
FUSED_ROUTER = "megatron/core/fusions/fused_router.py"
CI = ".github/workflows/cicd-main.yml"
TRAIN_SCRIPT = "examples/gpt3/train_gpt3_175b_distributed.sh"

_README = py('''
    # Megatron-LM

    GPU-optimized library for training transformer models at scale.

    ## Installation

    Install with `pip install megatron-core[dev]`.

    ## Getting started

    See `examples/run_simple_mcore_train_loop.py`.
''')
_GPT = py('''
    """GPT language model."""

    from megatron.core.models.common.language_module.language_module import LanguageModule


    class GPTModel(LanguageModule):
        """GPT transformer language model."""

        def __init__(self, config, transformer_layer_spec, vocab_size, max_sequence_length):
            super().__init__(config=config)
            self.vocab_size = vocab_size
            self.max_sequence_length = max_sequence_length
            self.transformer_layer_spec = transformer_layer_spec

        def set_input_tensor(self, input_tensor):
            """Set the input of the first pipeline stage."""
            self.decoder.set_input_tensor(input_tensor[0])

        def forward(self, input_ids, position_ids, attention_mask, labels=None):
            """Embed, run the decoder, and return logits or the loss."""
            hidden_states = self.embedding(input_ids=input_ids, position_ids=position_ids)
            hidden_states = self.decoder(hidden_states, attention_mask=attention_mask)
            return self.postprocess(hidden_states, labels)
''')
_GPT_SET_INPUT = "        self.decoder.set_input_tensor(input_tensor[0])\n"
_GPT_SET_INPUT_DEV = (
    "        if isinstance(input_tensor, list):\n"
    "            input_tensor = input_tensor[0]\n"
    "        self.decoder.set_input_tensor(input_tensor)\n"
)
_ROUTER = py('''
    """Fused top-k routing for mixture-of-experts layers."""

    import torch


    def fused_topk_softmax(logits: torch.Tensor, topk: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Top-k expert probabilities and indices in one pass."""
        probs, indices = torch.topk(logits, k=topk, dim=-1)
        return torch.softmax(probs, dim=-1), indices
''')
_CI = py('''
    name: CICD Megatron-LM
    on:
      pull_request:
        branches: [main]
    jobs:
      unit-tests:
        runs-on: linux-amd64-gpu
        timeout-minutes: 60
        steps:
          - uses: actions/checkout@v4
          - run: bash tests/unit_tests/run_ci_test.sh
''')
_SCRIPT = py('''
    #!/bin/bash
    # GPT-3 175B on 16 nodes.
    torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 96 --hidden-size 12288 "$@"
''')


def routine_history(b: RepoBuilder) -> Recipe:
    """Clean work on each side: a new dev module, CI and README edits, one file both sides touch."""
    b.write(README, _README).write(GPT_MODEL, _GPT).write(CI, _CI)
    yield
    b.write(FUSED_ROUTER, _ROUTER)
    b.commit("[dev] Fused top-k softmax for the MoE router (#161)", author=CHEN)
    b.write(GPT_MODEL, _GPT.replace(_GPT_SET_INPUT, _GPT_SET_INPUT_DEV))
    b.commit("[Dev] Accept a bare tensor in GPTModel.set_input_tensor (#162)", author=ADA)
    b.write(TRAIN_SCRIPT, _SCRIPT).chmod(TRAIN_SCRIPT)
    b.commit("[dev] Add the GPT-3 175B launch script (#163)", author=BO)
    yield
    b.write(CI, _CI.replace("timeout-minutes: 60", "timeout-minutes: 90"))
    b.commit("ci: give unit tests 90 minutes (#261)", author=FARAH)
    b.write(README, _README.replace("pip install", "pip install --no-build-isolation"))
    b.commit("docs: install without build isolation (#262)", author=ADA)
    b.write(GPT_MODEL, _GPT.replace("(hidden_states, labels)", "(hidden_states, labels=labels)"))
    b.commit("Pass labels by keyword in GPTModel.forward (#263)", author=CHEN)
    return ()
