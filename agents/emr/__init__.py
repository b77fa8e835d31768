"""EMR agents: a medical agent team that reads an experience library, and a mining graph that writes it.

- :func:`build_team_graph`: planner -> specialists in parallel (``Send``) -> aggregator;
- :func:`build_mining_graph`: team -> judge vs gold -> critic -> updater (``library.add``);
- :class:`CaseBasedAnswerer`: the model-free answerer used offline;
- prompts are YAML package data (``agents/emr/prompts``).
"""

from agents.emr.casebased import CaseBasedAnswerer
from agents.emr.critic import CriticOutput, Lessons, llm_critic, rule_critic
from agents.emr.mining import DEFAULT_ROUNDS, build_mining_graph
from agents.emr.specialties import SPECIALTIES, EmbeddingPlanner
from agents.emr.team import DEFAULT_TEAM_K, build_team_graph
from agents.emr.types import MCQuestion, Opinion, Step

__all__ = [
    "CaseBasedAnswerer",
    "CriticOutput",
    "DEFAULT_ROUNDS",
    "DEFAULT_TEAM_K",
    "EmbeddingPlanner",
    "Lessons",
    "MCQuestion",
    "Opinion",
    "SPECIALTIES",
    "Step",
    "build_mining_graph",
    "build_team_graph",
    "llm_critic",
    "rule_critic",
]
