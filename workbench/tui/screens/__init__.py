"""Screens: the main workbench and its dialogs."""
