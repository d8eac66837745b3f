"""What the main screen's keys do, one module per job: each acts on the workspace and the cursor through a ``Host``.

The screen (``screens/main.py``) only binds keys to these and redraws; what a
command says, asks and decides lives here, apart from the layout.  Commands
that ask questions (a file changed on disk, unwritten decisions on quit, a
note) run as workers of the screen, so they can wait for an answer.
"""
