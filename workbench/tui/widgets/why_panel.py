"""The why panel: the current hunk's risk signals as sentences, with their commits."""

from __future__ import annotations

from workbench.tui.widgets.text_view import TextView


class WhyPanel(TextView):
    """Prepared sentences (``workbench.tui.presentation.why_panel.why_text``), wrapped and scrollable."""

    DEFAULT_CSS = """
    WhyPanel { padding: 0 1; }
    """
