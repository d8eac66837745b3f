"""The enrichment stages run after the engine, one module per stage, each named after its function.

Every stage is ``(SyncAnalysis, AnalysisContext) -> SyncAnalysis`` and
imports only ``context.py`` from here (``score_edits`` also runs
``score_risk`` on a view of the edits); ``pipeline.py`` orders them.
import-linter keeps it that way (``pyproject.toml``).
"""
