"""A large synthetic sync for benchmarks and stress tests, built with ``git fast-import``.

Thousands of ``git commit`` calls would take minutes; one fast-import stream
writes the whole history in one process.  The shape follows Megatron-LM:
Python-like modules of 100-2000 lines under ``megatron/...``, hundreds of dev
commits (``[dev] ... (#N)``), fewer main commits, and a known set of files in
which both sides edited the same lines, each with several conflict hunks.
Everything comes from one seeded ``random.Random``, so the shas are stable.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from workbench.sample.builder import COMMITTER, EPOCH, TICK, Author, RepoBuilder
from workbench.sample.recipe import ADA, BO, BOT, CHEN, DANA, EMIL, FARAH

_AREAS = (
    "core/transformer", "core/transformer/moe", "core/models/gpt", "core/models/mamba",
    "core/optimizer", "core/distributed", "core/inference", "core/ssm", "core/datasets",
    "core/dist_checkpointing", "core/pipeline_parallel", "core/tensor_parallel",
    "core/fusions", "training", "legacy/model",
)
_WORDS = (
    "attention", "router", "expert", "shard", "bucket", "grad", "param", "layer", "token",
    "batch", "sequence", "cache", "kernel", "fused", "offload", "checkpoint", "schedule",
    "rank", "group", "buffer", "state", "stream", "norm", "rotary", "mask", "logits",
)
_VERBS = ("Fix", "Refactor", "Speed up", "Support", "Clean up", "Guard", "Simplify")
_PEOPLE = (ADA, BO, CHEN, DANA, EMIL, FARAH)
_SPACING = 12
"""Minimum distance in lines between two edited sites, so each site merges (or conflicts) alone."""


@dataclass(frozen=True)
class LargeSync:
    """A built large sync: tips, merge base, and the files a plain merge must report as conflicted."""

    path: Path
    dev: str
    main: str
    base: str
    conflicting: tuple[str, ...]
    """Paths where dev and main changed the same lines (content conflicts), sorted."""
    conflict_hunks: int
    """How many conflict regions a plain merge of those files produces in total."""


@dataclass
class _Module:
    """One generated file: its base lines and, per side, the sites edited so far."""

    path: str
    lines: list[str]
    statements: list[int]
    """Indices of plain ``name = expr`` lines inside function bodies (safe to rewrite)."""
    edits: dict[str, dict[int, tuple[str, ...]]] = field(
        default_factory=lambda: {"dev": {}, "main": {}}
    )

    def render(self, side: str | None = None) -> bytes:
        """The file as ``side`` has it now (each edit replaces one base line); None: the base."""
        edits = self.edits[side] if side else {}
        out: list[str] = []
        for i, line in enumerate(self.lines):
            out.extend(edits.get(i, (line,)))
        return "".join(out).encode()


@dataclass(frozen=True)
class _Edit:
    """One side rewriting one statement line of one module."""

    module: _Module
    site: int
    new_lines: tuple[str, ...]


class _Generator:
    """Seeded source of names, code and commit messages."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def word(self) -> str:
        """One identifier-ish word from the Megatron vocabulary."""
        return self.rng.choice(_WORDS)

    def module(self, index: int, n_lines: int) -> _Module:
        """A Python-like module of about ``n_lines`` lines with unique statement lines."""
        rng = self.rng
        area = rng.choice(_AREAS)
        path = f"megatron/{area}/{self.word()}_{self.word()}_{index}.py"
        lines = [
            f'"""{self.word().capitalize()} {self.word()} utilities ({index})."""\n',
            "\n",
            "import torch\n",
            "\n",
            "from megatron.core import parallel_state\n",
            "\n",
            "\n",
        ]
        statements: list[int] = []
        block = 0
        while len(lines) < n_lines:
            block += 1
            cls = f"{self.word().capitalize()}{self.word().capitalize()}{block}"
            lines += [f"class {cls}(torch.nn.Module):\n", f'    """{cls} for module {index}."""\n', "\n"]
            for method in range(rng.randint(2, 6)):
                if len(lines) >= n_lines:
                    break
                name = f"{self.word()}_{self.word()}_{method}"
                lines.append(f"    def {name}(self, x, y=None):\n")
                lines.append(f'        """Compute the {self.word()} {self.word()}."""\n')
                for stmt in range(rng.randint(3, 12)):
                    statements.append(len(lines))
                    lines.append(
                        f"        {self.word()}_{block}_{method}_{stmt} = "
                        f"x * {rng.randint(1, 999)} + self.{self.word()}_{rng.randint(0, 99)}\n"
                    )
                lines += ["        return x\n", "\n"]
            lines.append("\n")
        return _Module(path, lines, statements)

    def rewrite(self, module: _Module, site: int, side: str) -> tuple[str, ...]:
        """A side's new version of one statement: same target, new expression, maybe more lines."""
        target = module.lines[site].split(" = ")[0]
        call = f"{side}_{self.word()}_{self.rng.randint(0, 9999)}"
        extra = tuple(
            f"        {side}_extra_{site}_{n} = {target.strip()} + {self.rng.randint(1, 99)}\n"
            for n in range(self.rng.randint(0, 2))
        )
        return (f"{target} = {call}(x, y) * {self.rng.randint(1, 999)}\n", *extra)

    def sites(self, module: _Module, taken: list[int], count: int) -> list[int]:
        """Up to ``count`` statement lines ``_SPACING`` apart from each other and from ``taken``.

        The chosen lines are appended to ``taken``.
        """
        chosen: list[int] = []
        for candidate in self.rng.sample(module.statements, len(module.statements)):
            if all(abs(candidate - other) >= _SPACING for other in taken + chosen):
                chosen.append(candidate)
                if len(chosen) == count:
                    break
        taken += chosen
        return chosen

    def subject(self, side: str, pr: int, module: _Module) -> str:
        """A commit subject in Megatron-LM's style, ``[dev]``-prefixed on dev."""
        stem = module.path.rsplit("/", 1)[1].removesuffix(".py")
        text = f"{self.rng.choice(_VERBS)} {self.word()} {self.word()} handling in {stem} (#{pr})"
        return f"[dev] {text}" if side == "dev" else text


def _data(payload: bytes) -> bytes:
    """A fast-import ``data`` command carrying ``payload``."""
    return b"data %d\n%s\n" % (len(payload), payload)


def _inline(path: str, content: bytes) -> bytes:
    """A fast-import file change: ``path`` now holds ``content``."""
    return b"M 100644 inline %s\n%s" % (path.encode(), _data(content))


def _ident(kind: str, who: Author, tick: int) -> bytes:
    """An ``author``/``committer`` line dated ``tick`` minutes after the epoch."""
    stamp = int((EPOCH + TICK * tick).timestamp())
    return f"{kind} {who.name} <{who.email}> {stamp} +0000\n".encode()


def _split(items: list[_Edit], commits: int, rng: random.Random) -> list[list[_Edit]]:
    """Deal ``items`` (at least one per commit) into ``commits`` non-empty groups at random."""
    rng.shuffle(items)
    groups: list[list[_Edit]] = [[] for _ in range(commits)]
    for i, item in enumerate(items):
        groups[i % commits if i < commits else rng.randrange(commits)].append(item)
    return groups


def _plan(
    gen: _Generator, modules: list[_Module], conflicting: int, commits: dict[str, int]
) -> tuple[dict[str, list[_Edit]], int]:
    """Each side's edits (two per commit at least) and the number of conflict hunks they make.

    The first ``conflicting`` modules get 2-5 sites both sides rewrite; every
    other edit is one-sided, and all sites in a module stay ``_SPACING`` apart.
    """
    work: dict[str, list[_Edit]] = {"dev": [], "main": []}
    taken: dict[str, list[int]] = {m.path: [] for m in modules}
    hunks = 0
    for module in modules[:conflicting]:
        for site in gen.sites(module, taken[module.path], gen.rng.randint(2, 5)):
            hunks += 1
            for side in work:
                work[side].append(_Edit(module, site, gen.rewrite(module, site, side)))
    one_sided = modules[conflicting:] or modules
    for side, count in commits.items():
        for attempt in itertools.count():
            if len(work[side]) >= 2 * count:
                break
            if attempt > 100 * count:
                raise ValueError(f"{len(modules)} files cannot hold {count} {side} commits")
            module = gen.rng.choice(one_sided)
            for site in gen.sites(module, taken[module.path], 1):
                work[side].append(_Edit(module, site, gen.rewrite(module, site, side)))
    return work, hunks


def _history(
    gen: _Generator, modules: list[_Module], work: dict[str, list[_Edit]], commits: dict[str, int]
) -> bytes:
    """The fast-import stream: one base commit, then dev's commits, then main's."""
    stream = [
        b"commit refs/heads/main\nmark :1\n",
        _ident("author", BOT, 0),
        _ident("committer", COMMITTER, 0),
        _data(b"Initial import of Megatron-LM core"),
    ]
    stream += [_inline(m.path, m.render()) for m in modules]
    tick, pr = 1, 3000
    for side, count in commits.items():
        stream.append(f"reset refs/heads/{side}\nfrom :1\n".encode())
        for group in _split(work[side], count, gen.rng):
            touched: dict[str, _Module] = {}
            for edit in group:
                edit.module.edits[side][edit.site] = edit.new_lines
                touched[edit.module.path] = edit.module
            pr += gen.rng.randint(1, 7)
            stream += [
                f"commit refs/heads/{side}\n".encode(),
                _ident("author", gen.rng.choice(_PEOPLE), tick),
                _ident("committer", COMMITTER, tick),
                _data(gen.subject(side, pr, group[0].module).encode()),
            ]
            stream += [_inline(p, m.render(side)) for p, m in sorted(touched.items())]
            tick += 1
    stream.append(b"done\n")
    return b"".join(stream)


def build_large_sync(
    path: str | Path,
    files: int = 2000,
    conflicting: int = 300,
    dev_commits: int = 300,
    seed: int = 0,
    main_commits: int | None = None,
) -> LargeSync:
    """Build ``files`` modules, ``dev_commits`` dev commits and ``main_commits`` (default half) on main.

    ``conflicting`` modules get 2-5 sites both sides rewrite differently; other
    modules get one-sided edits, so a plain merge reports exactly those conflicts.
    HEAD is left on dev with a clean work tree.
    """
    main_commits = max(1, dev_commits // 2) if main_commits is None else main_commits
    if not 0 <= conflicting <= files or dev_commits < 1 or main_commits < 1:
        raise ValueError("need 0 <= conflicting <= files and at least one commit per side")
    gen = _Generator(seed)
    sizes = [int(math.exp(gen.rng.uniform(math.log(100), math.log(2000)))) for _ in range(files)]
    modules = [gen.module(i, n_lines) for i, n_lines in enumerate(sizes)]
    commits = {"dev": dev_commits, "main": main_commits}
    work, hunks = _plan(gen, modules, conflicting, commits)
    b = RepoBuilder.init(path)
    b.git("fast-import", "--quiet", "--done", input=_history(gen, modules, work, commits))
    b.git("symbolic-ref", "HEAD", "refs/heads/dev")
    b.git("reset", "-q", "--hard")
    dev, main = b.rev("dev"), b.rev("main")
    b.git("update-ref", "refs/remotes/origin/dev", dev)
    b.git("update-ref", "refs/remotes/origin/main", main)
    return LargeSync(
        path=b.path,
        dev=dev,
        main=main,
        base=b.git("merge-base", "dev", "main").decode().strip(),
        conflicting=tuple(sorted(m.path for m in modules[:conflicting])),
        conflict_hunks=hunks,
    )
