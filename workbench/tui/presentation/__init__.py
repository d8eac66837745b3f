"""From the workspace to what each widget shows: one module per widget it feeds (lazygit's ``presentation/``).

The screen calls these after every change and hands the results down to its
widgets.  Repository text always goes through ``visible`` into
``rich.text.Text``, never into markup, so ``[bold]`` in a commit subject is
shown as typed.  Nothing here keeps state.
"""
