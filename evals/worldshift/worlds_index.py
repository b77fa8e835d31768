"""Built-in world names (``ews-A`` ... ``ews-D``, ``holdout-A`` ..., ``example-A``/``-B``) and their resolution."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from memkit.errors import ConfigError
from memkit.rules import World, load_world

__all__ = ["builtin_worlds", "resolve_world", "load_named_world", "DEFAULT_FAMILY"]

DEFAULT_FAMILY = ("ews-A", "ews-B", "ews-C", "ews-D")


def _worlds_dir() -> Path:
    return Path(str(resources.files("evals.worldshift").joinpath("worlds")))


def builtin_worlds() -> dict[str, Path]:
    """Built-in name -> file, for every world shipped as package data."""
    return {p.stem: p for p in sorted(_worlds_dir().glob("*.yaml"))}


def resolve_world(name_or_path: str | Path) -> Path:
    """A world file path from a path or a built-in name; ConfigError when neither."""
    text = str(name_or_path)
    builtins = builtin_worlds()
    if text in builtins:
        return builtins[text]
    path = Path(text)
    if path.exists():
        return path
    raise ConfigError(f"no world file or built-in world called {text!r}; built-in worlds: {', '.join(builtins)}")


def load_named_world(name_or_path: str | Path) -> World:
    """Load a world by built-in name or path."""
    return load_world(resolve_world(name_or_path))
