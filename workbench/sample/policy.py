"""Policy files: some must keep dev's version, some are taken from main wholesale.

The coupled triple ``pyproject.toml``/``uv.lock``/``docker/Dockerfile.ci.dev``
and ``.github/CODEOWNERS`` must stay dev's (except that a new
``[tool.uv.sources]`` entry from main is added); ``megatron/training/training.py``
is on Megatron-LM's override list, so main's copy is the one to ship.
"""

from __future__ import annotations

from functools import partial

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import BO, DANA, EMIL, Recipe, py
from workbench.sample.truth import Conflict, FileTruth, Pathology, Risk, Verdict

PYPROJECT = "pyproject.toml"
UV_LOCK = "uv.lock"
DOCKERFILE = "docker/Dockerfile.ci.dev"
CODEOWNERS = ".github/CODEOWNERS"
TRAINING = "megatron/training/training.py"

_TE_BASE = '    "transformer-engine[pytorch]>=2.7.0,<2.8.0",\n'
_TE_DEV = '    "transformer-engine[pytorch]>=2.9.0.dev0,<2.10.0",\n'
_TE_MAIN = '    "transformer-engine[pytorch]>=2.8.0,<2.9.0",\n'
_NVRX = (
    'nvidia-resiliency-ext = { git = "https://github.com/NVIDIA/nvidia-resiliency-ext",'
    ' rev = "54f85fe422d296cf04ea524130014bd3a2c3add1" }\n'
)
_PYPROJECT = py('''
    [project]
    name = "megatron-core"
    dynamic = ["version"]
    requires-python = ">=3.10"
    dependencies = [
        "torch>=2.6",
        "numpy<2.0",
        "packaging>=24.2",
    ]

    [project.optional-dependencies]
    dev = [
        "transformer-engine[pytorch]>=2.7.0,<2.8.0",
        "nvidia-modelopt[torch]>=0.33.0",
        "flashinfer-python",
    ]

    [tool.uv.sources]
    flash_mla = { git = "https://github.com/deepseek-ai/FlashMLA", rev = "9edee0c022cd0938148a18e334203b0aab43aa19" }
''')


def _pyproject(te: str, nvrx: bool) -> str:
    """pyproject.toml with one transformer-engine pin, with or without main's new uv source."""
    return _PYPROJECT.replace(_TE_BASE, te) + (_NVRX if nvrx else "")


def _lock(version: str, sha: str) -> str:
    """A uv.lock whose transformer-engine entry is pinned to ``version``."""
    return py(f'''
        version = 1
        revision = 3
        requires-python = ">=3.10"

        [[package]]
        name = "numpy"
        version = "1.26.4"
        source = {{ registry = "https://pypi.org/simple" }}

        [[package]]
        name = "transformer-engine"
        version = "{version}"
        source = {{ registry = "https://pypi.org/simple" }}
        sdist = {{ url = "https://files.pythonhosted.org/packages/source/t/transformer_engine-{version}.tar.gz", hash = "sha256:{sha}" }}
    ''')


def _dockerfile(te_commit: str) -> str:
    """The dev CI image, building transformer-engine from ``te_commit``."""
    return py(f'''
        ARG FROM_IMAGE_NAME=nvcr.io/nvidia/pytorch:25.09-py3
        FROM ${{FROM_IMAGE_NAME}} AS main
        ENV DEBIAN_FRONTEND=noninteractive

        ARG TE_COMMIT={te_commit}
        RUN pip install --no-build-isolation "git+https://github.com/NVIDIA/TransformerEngine.git@${{TE_COMMIT}}"

        COPY . /opt/megatron-lm
        WORKDIR /opt/megatron-lm
        RUN uv sync --locked --extra dev
    ''')


def _codeowners(moe_owners: str) -> str:
    """CODEOWNERS with the MoE line owned by ``moe_owners``."""
    return py(f'''
        megatron/core/ @NVIDIA/core-adlr @NVIDIA/core-nemo
        megatron/core/transformer/moe/ {moe_owners}
        megatron/core/optimizer/ @NVIDIA/optimizer
        megatron/training/ @NVIDIA/training
    ''')


_TRAINING = py('''
    """Pretrain utilities."""

    from megatron.training.global_vars import get_args, get_timers


    def train_step(forward_step_func, data_iterator, model, optimizer, opt_param_scheduler, config):
        """Run one training step: forward, backward, optimizer."""
        args = get_args()
        timers = get_timers()
        timers("forward-backward", log_level=1).start(barrier=args.barrier_with_L1_time)
        losses_reduced = forward_backward_func(
            forward_step_func=forward_step_func,
            data_iterator=data_iterator,
            model=model,
            num_microbatches=get_num_microbatches(),
        )
        timers("forward-backward").stop()
        return losses_reduced
''')
_MICROBATCHES = "        num_microbatches=get_num_microbatches(),\n"
_OVERLAP = "        overlap_moe_expert_parallel_comm=args.overlap_moe_expert_parallel_comm,\n"
_TRAINING_DEV = _TRAINING.replace(_MICROBATCHES, _MICROBATCHES + _OVERLAP)
_TRAINING_MAIN = _TRAINING.replace(_MICROBATCHES, _MICROBATCHES + "        forward_only=False,\n")

_LOCK_BASE = ("2.7.0", "4f0a6c3f9e6cb4a3e2ddf3b2b4f8b9c1a0d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3")
_LOCK_DEV = ("2.9.0.dev0", "0d3c1e1a9b8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d")
_LOCK_MAIN = ("2.8.0", "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b")
_TE_COMMIT = ("release_v2.7", "a1b7c4e5d2f9081736e4c5b6a7980f1e2d3c4b5a", "release_v2.8")
_MOE_OWNERS = (
    "@NVIDIA/mixture-of-experts",
    "@NVIDIA/mixture-of-experts-devtech",
    "@NVIDIA/mixture-of-experts @NVIDIA/core-adlr",
)


def policy_files(b: RepoBuilder) -> Recipe:
    """Dev and main both bump transformer-engine, edit CODEOWNERS and change training.py."""
    b.write(PYPROJECT, _pyproject(_TE_BASE, nvrx=False))
    b.write(UV_LOCK, _lock(*_LOCK_BASE))
    b.write(DOCKERFILE, _dockerfile(_TE_COMMIT[0]))
    b.write(CODEOWNERS, _codeowners(_MOE_OWNERS[0]))
    b.write(TRAINING, _TRAINING)
    yield
    b.write(PYPROJECT, _pyproject(_TE_DEV, nvrx=False))
    b.write(UV_LOCK, _lock(*_LOCK_DEV))
    b.write(DOCKERFILE, _dockerfile(_TE_COMMIT[1]))
    dev_bump = b.commit("[dev] Build against the transformer-engine 2.9 dev branch (#131)", author=BO)
    b.write(CODEOWNERS, _codeowners(_MOE_OWNERS[1]))
    dev_owners = b.commit("[dev] Hand MoE ownership to the devtech team (#132)", author=BO)
    b.write(TRAINING, _TRAINING_DEV)
    dev_train = b.commit("[dev] Overlap MoE expert-parallel communication (#133)", author=EMIL)
    yield
    b.write(PYPROJECT, _pyproject(_TE_MAIN, nvrx=True))
    b.write(UV_LOCK, _lock(*_LOCK_MAIN))
    b.write(DOCKERFILE, _dockerfile(_TE_COMMIT[2]))
    main_bump = b.commit("Bump transformer-engine to 2.8; add nvidia-resiliency-ext (#231)", author=DANA)
    b.write(CODEOWNERS, _codeowners(_MOE_OWNERS[2]))
    main_owners = b.commit("Add core-adlr as MoE co-owners (#232)", author=DANA)
    b.write(TRAINING, _TRAINING_MAIN)
    main_train = b.commit("Pass forward_only explicitly in train_step (#233)", author=EMIL)

    keep_dev = partial(
        FileTruth,
        pathology=Pathology.POLICY_KEEP_DEV,
        risk=Risk.MEDIUM,
        conflict=Conflict.CONTENT,
        verdict=Verdict.KEEP_DEV,
        dropped_commits=(dev_bump,),
        carriers=(main_bump,),
        note="Keeps dev's version by policy; -X theirs took main's.",
    )
    return (
        keep_dev(
            path=PYPROJECT,
            verdict=Verdict.COMBINE,
            expected=_pyproject(_TE_DEV, nvrx=True).encode(),
            lost_lines=(_TE_DEV.rstrip("\n"),),
            note="pyproject.toml keeps dev's pins by policy, but main's new [tool.uv.sources] "
            "entry (nvidia-resiliency-ext) must be added.",
        ),
        keep_dev(
            path=UV_LOCK,
            expected=_lock(*_LOCK_DEV).encode(),
            lost_lines=(
                'version = "2.9.0.dev0"',
                'sdist = { url = "https://files.pythonhosted.org/packages/source/t/'
                'transformer_engine-2.9.0.dev0.tar.gz", hash = "sha256:'
                '0d3c1e1a9b8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d" }',
            ),
        ),
        keep_dev(
            path=DOCKERFILE,
            expected=_dockerfile(_TE_COMMIT[1]).encode(),
            lost_lines=("ARG TE_COMMIT=a1b7c4e5d2f9081736e4c5b6a7980f1e2d3c4b5a",),
        ),
        keep_dev(
            path=CODEOWNERS,
            expected=_codeowners(_MOE_OWNERS[1]).encode(),
            lost_lines=("megatron/core/transformer/moe/ @NVIDIA/mixture-of-experts-devtech",),
            dropped_commits=(dev_owners,),
            carriers=(main_owners,),
        ),
        FileTruth(
            path=TRAINING,
            pathology=Pathology.POLICY_TAKE_MAIN,
            risk=Risk.LOW,
            conflict=Conflict.CONTENT,
            verdict=Verdict.TAKE_MAIN,
            expected=_TRAINING_MAIN.encode(),
            lost_lines=(_OVERLAP.rstrip("\n"),),
            dropped_commits=(dev_train,),
            carriers=(main_train,),
            note="training.py is on the override list: main's copy wins; "
            "check that dev's callers still fit it.",
        ),
    )
