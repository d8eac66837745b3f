"""Dialogs: modal screens over the main screen that ask one thing (confirm, a line of text, a bulk move, an edit)
or show one thing (help, a commit's diff, a training reveal or score), each answered once (``once.py``)."""
