"""What front ends draw, computed once: aligned rows, folds, unified diffs, word changes.

Widgets must not compute diffs (they re-render on every scroll), so every
comparison the workbench shows is prepared here, in a worker, as plain
records: the side-by-side rows of a file's merge (``layout.py``, aligned by
``align.py``), the folds that hide agreed-upon context (``folds.py``), and
unified diffs (``unified.py``).  Texts are display strings (``safe_text.py``; word changes in ``word_diff.py``).
"""
