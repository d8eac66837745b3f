"""What the tests share: one way to open a built repository's sync, and the builders around it.

``syncs`` opens a sync (an analysis, a repository and its analysis, or a
session to decide in); ``signals`` finds files, hunks, signals and API
findings in an analysis; ``histories`` builds small dev/main histories;
``reports`` builds reports with chosen risk and renders Markdown as GitHub
does; ``odd_repos`` makes repositories with every odd thing git allows;
``answer_keys`` is a small hand-made answer key; ``texts`` are hypothesis
strategies for small files; ``git_reference`` asks the git binary for reference answers; ``terminal``
runs the installed command in a private tmux.  The suite's ``tests/``
directory is on ``sys.path`` (pytest puts the root conftest's folder there),
so tests import them as ``helpers.<module>``.  Fixtures (a sealed git, a
repository builder, the sample sync) are in ``tests/conftest.py``.
"""
