"""What suggestions need to know about the whole sync, computed once per analysis."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.model import SyncAnalysis
from workbench.analysis.suggest.formatting import FormatterConfig, ReadFile, formatters_available, read_formatter_config
from workbench.analysis.suggest.rungs import SquashFacts, squash_facts


@dataclass(frozen=True, slots=True)
class SuggestFacts:
    """The repository's formatter (None: none configured, or not installed here) and the sync's squashes."""

    formatter: FormatterConfig | None = None
    squashes: SquashFacts = SquashFacts()


def suggest_facts(analysis: SyncAnalysis, read_dev_file: ReadFile | None = None) -> SuggestFacts:
    """The facts of ``analysis``; ``read_dev_file`` reads dev's configuration files (formatters are then used)."""
    signals = [s for f in analysis.files for h in f.hunks for s in h.signals]
    formatter = read_formatter_config(read_dev_file) if read_dev_file is not None else None
    if formatter is not None and not formatters_available(formatter):
        formatter = None
    return SuggestFacts(formatter, squash_facts(signals))
