"""The team's and critic's prompts, kept as YAML package data next to this module."""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

from memkit.errors import ConfigError

__all__ = ["prompt", "PROMPT_FILES"]

PROMPT_FILES = ("team.yaml", "critic.yaml")


@cache
def _all_prompts() -> dict[str, str]:
    merged: dict[str, str] = {}
    for name in PROMPT_FILES:
        text = resources.files("agents.emr").joinpath("prompts", name).read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise ConfigError(f"agents/emr/prompts/{name}: expected a mapping of prompt names to strings")
        merged.update(data)
    return merged


def prompt(name: str, **fields: object) -> str:
    """The prompt ``name`` with its placeholders filled."""
    prompts = _all_prompts()
    if name not in prompts:
        raise ConfigError(f"no prompt named {name!r}; known: {sorted(prompts)}")
    try:
        return prompts[name].format(**fields)
    except KeyError as exc:
        raise ConfigError(f"prompt {name!r} needs the field {exc.args[0]!r}") from exc
