"""Learning objectives that write experience into weights.

Small, exact, framework-agnostic torch functions over per-token tensors
``(B, T)`` with a float mask, one module per method:

- :mod:`.score_centering`: policy gradient that stays unbiased under sampler/trainer mismatch;
- :mod:`.semantic_eos`: equivalent stop tokens merged in on-policy distillation;
- :mod:`.baton`: Bayesian step attribution and trajectory-equal aggregation;
- :mod:`.epig_tree`: rollout-budget allocation over branch points;
- :mod:`.match`: gated hierarchical tool-call reward and curriculum;
- :mod:`.self_distill`: privileged on-policy self-distillation.
"""

from ._common import gather_logprobs, masked_mean
from .baton import baton_policy_loss, baton_step_weights, trajectory_equal_mean
from .epig_tree import epig_allocation, epig_scores, largest_remainder
from .match import (
    GoldCall,
    MatchCurriculum,
    MatchReward,
    ToolCall,
    best_assignment,
    call_correctness,
    gold_from_bfcl,
    match_reward,
    parse_calls,
)
from .score_centering import centered_token_terms, score_centering_loss
from .self_distill import privileged_self_distill_loss, sampled_token_reverse_kl
from .semantic_eos import semantic_eos_logprobs

__all__ = [
    "gather_logprobs",
    "masked_mean",
    "score_centering_loss",
    "centered_token_terms",
    "semantic_eos_logprobs",
    "sampled_token_reverse_kl",
    "privileged_self_distill_loss",
    "baton_step_weights",
    "trajectory_equal_mean",
    "baton_policy_loss",
    "largest_remainder",
    "epig_scores",
    "epig_allocation",
    "ToolCall",
    "GoldCall",
    "MatchReward",
    "parse_calls",
    "gold_from_bfcl",
    "call_correctness",
    "best_assignment",
    "match_reward",
    "MatchCurriculum",
]
