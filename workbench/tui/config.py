"""The user's settings: ``$XDG_CONFIG_HOME/workbench/config.toml``.

```toml
theme = "workbench-light"      # remembered when ``t`` switches themes
editor = "vim"                 # for ``e`` (default: git's core.editor, $VISUAL, $EDITOR)
context = 3                    # lines shown around each hunk
advance = true                 # after m/d/b on a hunk, move to the next undecided hunk
start = "items"                # the pane the app opens on: "items" (the worklist) or "files"

[keys]                         # rebind any action by its id (see ``?``)
take_main = "m,ctrl+m"
```

The file is read with tomllib.  Remembering the theme sets the top-level
``theme`` key through tomlkit, which keeps the document as written (comments,
a comment after the old value, quoting, order, other keys), so the user's
file changes in that one value (or gains a first line); it is written atomically.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from workbench.configfile import read_config_text
from workbench.errors import WorkbenchError
from workbench.tui.keymap import BY_ID, effective_keys, unknown_actions


class StartPane(str, Enum):
    """The left pane the app opens on."""

    ITEMS = "items"
    """The worklist: items a decision settles, most important first."""
    FILES = "files"


@dataclass(frozen=True)
class Config:
    """Settings the app is built with (tests pass their own)."""

    theme: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    """Action id -> keys (comma separated), overriding the defaults."""
    editor: str | None = None
    context: int = 3
    advance: bool = False
    """After deciding a hunk, move on to the next undecided one."""
    start: StartPane = StartPane.ITEMS
    """The pane the app opens on (``L`` switches)."""
    path: Path | None = None
    """Where the settings came from (and where the theme is remembered)."""


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "workbench" / "config.toml"


def user_theme_dir() -> Path:
    return config_path().parent / "themes"


def load_config(path: Path | None = None) -> Config:
    """The settings in ``path`` (default: the user's file); a missing file means defaults."""
    path = path or config_path()
    try:
        text = read_config_text(path, "settings")
    except FileNotFoundError:
        return Config(path=path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WorkbenchError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise WorkbenchError(f"{path}: invalid TOML: nested too deeply") from None
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise WorkbenchError(f'{path}: [keys] maps action ids to key strings, e.g. take_main = "m"')
    unknown = unknown_actions(keys)
    if unknown:
        raise WorkbenchError(f"{path}: unknown action(s) in [keys]: {', '.join(unknown)} (press ? in the app for the ids)")
    clash = key_clash(keys)
    if clash is not None:
        key, first, second = clash
        raise WorkbenchError(f"{path}: [keys] binds {key!r} to both {first} and {second}; give one of them another key")
    theme, editor, context = data.get("theme"), data.get("editor"), data.get("context", 3)
    if theme is not None and not isinstance(theme, str):
        raise WorkbenchError(f"{path}: theme must be a string")
    if editor is not None and not isinstance(editor, str):
        raise WorkbenchError(f"{path}: editor must be a string")
    if not isinstance(context, int) or isinstance(context, bool) or not 0 <= context <= 100:
        raise WorkbenchError(f"{path}: context must be a whole number from 0 to 100")
    advance = data.get("advance", False)
    if not isinstance(advance, bool):
        raise WorkbenchError(f"{path}: advance must be true or false")
    start = data.get("start", StartPane.ITEMS.value)
    if start not in {pane.value for pane in StartPane}:
        raise WorkbenchError(f'{path}: start must be "items" or "files"')
    return Config(theme=theme, keys=dict(keys), editor=editor, context=context, advance=advance,
                  start=StartPane(start), path=path)


def key_clash(overrides: Mapping[str, str]) -> tuple[str, str, str] | None:
    """The first key two actions would share with ``overrides`` in force: (key, action, action).

    One key, one action: Textual would silently drop the other binding
    (leaving that action without a key), and the help would list the key
    twice.  Scopes do not excuse a clash: the app's, the screen's and the
    focused widget's bindings are all active at once.  The one exception is
    a key an action takes ``over`` from a screen action where it is active
    (the hunk view's search keys), which the help lists under both.
    """
    owner: dict[str, str] = {}
    for action, keys in effective_keys(overrides).items():
        for key in dict.fromkeys(k.strip() for k in keys.split(",") if k.strip()):
            first = owner.get(key)
            if first is not None and BY_ID[action].over != first and BY_ID[first].over != action:
                return key, first, action
            owner.setdefault(key, action)
    return None


def remember_theme(path: Path, name: str) -> None:
    """Set ``theme = "name"`` in the config file, touching nothing else (atomic).

    A file that is not valid TOML raises ``ValueError`` and is left as it is.
    """
    import tomlkit  # only when a theme is chosen: importing it would cost every start of the app

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    document = tomlkit.parse(text)
    if "theme" in document:
        document["theme"] = name
        text = tomlkit.dumps(document)
    else:  # a first line of its own: the rest of the file stays byte for byte
        line = tomlkit.document()
        line["theme"] = name
        text = tomlkit.dumps(line) + text
    tomllib.loads(text)  # never write a file we could not read back
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
