"""How a scenario is written, and how several are built into one history.

A recipe is a generator that tells one pathology top to bottom::

    def recipe(b):
        b.write(...)          # the files at the merge base
        base = yield          # the runner commits the base, then checks out dev
        ...                   # dev's commits
        yield                 # the runner checks out main
        ...                   # main's commits
        return (FileTruth(...),)

Written this way a scenario keeps its shas in local variables from one phase to
the next, and the runner can interleave any number of recipes into a single
repository (the demo sample) or build one alone (a scenario test).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass

from workbench.sample.builder import Author, RepoBuilder
from workbench.sample.truth import FileTruth

Recipe = Generator[None, str, tuple[FileTruth, ...]]
RecipeFn = Callable[[RepoBuilder], Recipe]

# Fictional people; dev and main are worked on by overlapping teams, as in Megatron-LM.
ADA = Author("Ada Okafor", "aokafor@example.com")
BO = Author("Bo Lindqvist", "blindqvist@example.com")
CHEN = Author("Chen Wei", "cwei@example.com")
DANA = Author("Dana Kowalski", "dkowalski@example.com")
EMIL = Author("Emil Ferreira", "eferreira@example.com")
FARAH = Author("Farah Haddad", "fhaddad@example.com")
BOT = Author("svcnvidia-nemo-ci", "svcnvidia-nemo-ci@example.com")


@dataclass(frozen=True)
class Built:
    """The tips and truths a runner leaves behind (HEAD on main)."""

    base: str
    dev: str
    main: str
    files: tuple[FileTruth, ...]


def py(text: str) -> str:
    """Source text written indented inside a recipe, dedented, minus the newline after the quotes."""
    text = textwrap.dedent(text)
    return text[1:] if text.startswith("\n") else text


def method(text: str) -> str:
    """Like :func:`py`, then indented one level: a method body written outside its class."""
    return textwrap.indent(py(text), "    ")


def crlf(text: str) -> str:
    """The same text with Windows line endings."""
    return text.replace("\n", "\r\n")


def pull_request(
    b: RepoBuilder, number: int, start: str, title: str, files: Mapping[str, str | bytes], author: Author
) -> str:
    """A PR branch with one commit on ``start``, kept as ``refs/pull/N/head`` like GitHub does.

    Squash-merging the same PR head into dev and into main is how a squash
    chain starts; the work tree returns to the branch it was on.
    """
    back = b.current_branch() or b.rev("HEAD")
    b.checkout(start)
    for path, content in files.items():
        b.write(path, content)
    sha = b.commit(title, author=author)
    b.git("update-ref", f"refs/pull/{number}/head", sha)
    b.checkout(back)
    return sha


def build(b: RepoBuilder, recipes: Sequence[RecipeFn]) -> Built:
    """Run every recipe's base, then every dev phase, then every main phase, in one repository."""
    running = [recipe(b) for recipe in recipes]
    for gen in running:
        next(gen)
    base = b.commit("Initial import of Megatron-LM core", author=BOT)
    b.branch("dev").checkout("dev")
    for gen in running:
        gen.send(base)
    dev = b.rev("dev")
    b.checkout("main")
    files: list[FileTruth] = []
    for gen in running:
        try:
            next(gen)
        except StopIteration as done:
            files.extend(done.value)
        else:
            raise RuntimeError(f"recipe {getattr(gen, '__name__', gen)} yielded more than twice")
    main = b.rev("main")
    b.git("update-ref", "refs/remotes/origin/dev", dev)
    b.git("update-ref", "refs/remotes/origin/main", main)
    return Built(base, dev, main, tuple(files))
