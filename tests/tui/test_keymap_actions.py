"""Every key the app binds runs an action that exists (a typo in the keymap would make a key do nothing, silently).

Textual looks an action up by name when the key is pressed and says nothing
when there is no ``action_<name>``; this walks every widget, screen and
dialog class of ``workbench.tui``, parses each of its bindings the way
Textual does, and finds the method.  Every scope of the keymap is bound by
some class, so every ``ActionSpec`` is checked somewhere.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.actions import parse
from textual.binding import Binding
from textual.dom import DOMNode

import workbench.tui
from workbench.tui.app import WorkbenchApp
from workbench.tui.keymap import ACTIONS, Scope, bindings


def _node_classes() -> list[type[DOMNode]]:
    found: dict[str, type[DOMNode]] = {}
    for module in pkgutil.walk_packages(workbench.tui.__path__, "workbench.tui."):
        loaded = importlib.import_module(module.name)
        for _name, cls in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(cls, DOMNode) and cls.__module__.startswith("workbench.tui"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def _bound(cls: type[DOMNode]) -> list[Binding]:
    return [b for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]


def test_every_binding_of_every_class_names_an_action_the_class_has() -> None:
    classes = _node_classes()
    assert len(classes) > 20, "the walk found the app's widgets, screens and dialogs"
    missing = []
    for cls in classes:
        for binding in _bound(cls):
            namespace, name, _params = parse(binding.action)
            target = WorkbenchApp if namespace == "app" else cls
            if not callable(getattr(target, f"action_{name}", None)):
                missing.append(f"{cls.__qualname__}: {binding.key} -> {binding.action}")
    assert not missing, missing


def test_every_scope_of_the_keymap_is_bound_by_some_class() -> None:
    """So every action of the keymap (public keys) is checked above, in every scope it names."""
    bound_actions = {(b.id, b.action) for cls in _node_classes() for b in _bound(cls)}
    for spec in ACTIONS:
        assert (spec.id, spec.action) in bound_actions, f"{spec.id} ({spec.scopes}) is bound by no class"
    for scope in Scope:
        ids = {b.id for b in bindings(scope) if isinstance(b, Binding)}
        assert ids <= {i for i, _ in bound_actions}, scope
