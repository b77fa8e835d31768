"""The worldshift/1 rule language: parser, checker, evaluator, write engine, world loader.

One engine, two rule sets: the platform runs a world's true rules on live
state, the predictor runs learned rules on a snapshot.
"""

from memkit.rules.ast import Expr, to_source
from memkit.rules.checker import check_expression
from memkit.rules.engine import MAX_DEPTH, Action, ActionResult, Effect, Engine, effect_key, same_effects, side_effects, sort_effects
from memkit.rules.evaluator import EvalContext, compile_expression, evaluate
from memkit.rules.parser import FUNCTIONS, parse_expression
from memkit.rules.rule import Rule, describe_rule, parse_rule
from memkit.rules.schema import FieldSpec, Schema, TableSpec
from memkit.rules.scoring import Score, score_effects, score_world
from memkit.rules.state import State
from memkit.rules.world import World, load_world, parse_world
from memkit.rules.model import Evidence, HistoryEntry, LearnedRule, RuleModel, RuleModelDiff  # noqa: E402 - after the engine
from memkit.rules.store import RuleStore  # noqa: E402

__all__ = [
    "Action",
    "Evidence",
    "HistoryEntry",
    "LearnedRule",
    "RuleModel",
    "RuleModelDiff",
    "RuleStore",
    "ActionResult",
    "Effect",
    "Engine",
    "EvalContext",
    "Expr",
    "FUNCTIONS",
    "FieldSpec",
    "MAX_DEPTH",
    "Rule",
    "Schema",
    "Score",
    "State",
    "TableSpec",
    "World",
    "check_expression",
    "compile_expression",
    "describe_rule",
    "effect_key",
    "same_effects",
    "evaluate",
    "load_world",
    "parse_expression",
    "parse_rule",
    "parse_world",
    "score_effects",
    "score_world",
    "side_effects",
    "sort_effects",
    "to_source",
]
