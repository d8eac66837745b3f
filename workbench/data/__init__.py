"""Data files shipped with workbench (read with importlib.resources)."""
