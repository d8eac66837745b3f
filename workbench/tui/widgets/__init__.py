"""Widgets, one per file; each takes its data from its parent and posts messages up."""
