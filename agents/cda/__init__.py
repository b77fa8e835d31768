"""CDA rule discovery: a LangGraph agent that learns an executable rule model by experiment."""

from agents.cda.graph import build_discovery_graph, discover
from agents.cda.policy import SystematicPolicy
from agents.cda.session import DiscoveryPolicy, DiscoveryReport, DiscoverySession, Observation

__all__ = [
    "DiscoveryPolicy",
    "DiscoveryReport",
    "DiscoverySession",
    "Observation",
    "SystematicPolicy",
    "build_discovery_graph",
    "discover",
]
