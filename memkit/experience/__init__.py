"""The experience library (EMR): principles, patterns and cases mined from successes and failures.

- :mod:`memkit.experience.entry`: the data (entries, filters, retrieval bundles);
- :mod:`memkit.experience.backend`: the storage protocol (backends live in ``stores.experience``);
- :mod:`memkit.experience.merge`: merge policies for near-duplicates (default, LLM);
- :mod:`memkit.experience.library`: :class:`ExperienceLibrary`, merge-on-add and hierarchical retrieval.
"""

from memkit.experience.backend import ExperienceBackend
from memkit.experience.entry import (
    POLARITIES,
    TIERS,
    AddResult,
    EntryFilter,
    ExperienceEntry,
    Polarity,
    RetrievalBundle,
    ScoredEntry,
    Tier,
    new_id,
)
from memkit.experience.library import (
    DEFAULT_K,
    DEFAULT_NOVELTY_THRESHOLD,
    ExperienceLibrary,
    read_entries_jsonl,
)
from memkit.experience.merge import (
    DefaultMergePolicy,
    LLMMergePolicy,
    MergeDecision,
    MergePolicy,
    content_words,
)

__all__ = [
    "AddResult",
    "DEFAULT_K",
    "DEFAULT_NOVELTY_THRESHOLD",
    "DefaultMergePolicy",
    "EntryFilter",
    "ExperienceBackend",
    "ExperienceEntry",
    "ExperienceLibrary",
    "LLMMergePolicy",
    "MergeDecision",
    "MergePolicy",
    "POLARITIES",
    "Polarity",
    "RetrievalBundle",
    "ScoredEntry",
    "TIERS",
    "Tier",
    "content_words",
    "new_id",
    "read_entries_jsonl",
]
