"""Headless services the front ends call: open a sync, one ``git mergetool`` file, exercises, the demo, the app's workspace.

Nothing here imports Textual or Rich: the app, the report and the command
line are thin callers of these, and tests drive them without a terminal.
"""
