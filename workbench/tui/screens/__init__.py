"""Screens: the main workbench (and training's quiz on it); its dialogs are in ``tui/dialogs/``."""
