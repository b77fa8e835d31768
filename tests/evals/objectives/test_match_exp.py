"""The MATCH experiment's corruptions on the real BFCL files, and its additive baseline."""

from __future__ import annotations

import pytest

from evals.objectives.match_exp import DEFAULT_DATA_DIR, additive_reward, corruptions, load_bfcl
from memkit.errors import ConfigError
from stores.parametric.objectives import gold_from_bfcl, match_reward

pytestmark = pytest.mark.skipif(not DEFAULT_DATA_DIR.is_dir(), reason="shared BFCL data not present")


@pytest.fixture(scope="module")
def items():
    return load_bfcl()


def test_all_four_bfcl_sets_load(items):
    assert len(items) == 1000
    assert {it["category"] for it in items} == {"simple_python", "multiple", "parallel", "parallel_multiple"}


def test_the_correct_variant_earns_full_gated_credit_and_every_corruption_less(items):
    names = sorted({n for it in items for n in it["functions"]})
    for it in items[::7]:
        variants = corruptions(it, names)
        assert match_reward(variants["correct"], it["gold"]).correctness == 1.0
        for kind, out in variants.items():
            if kind != "correct" and out is not None:
                assert match_reward(out, it["gold"]).correctness < 1.0, (it["id"], kind)


def test_additive_reward_pays_a_wrong_tool_with_right_arguments():
    gold = gold_from_bfcl([{"f": {"x": [1], "y": [2]}}])
    wrong_tool = [{"name": "g", "arguments": {"x": 1, "y": 2}}]
    missing = [{"name": "f", "arguments": {"x": 1}}]
    assert additive_reward(wrong_tool, gold) > additive_reward(missing, gold)
    assert match_reward(wrong_tool, gold).correctness < match_reward(missing, gold).correctness
    assert additive_reward([{"name": "f", "arguments": {"x": 1, "y": 2}}], gold) == 1.0


def test_missing_data_directory_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        load_bfcl(tmp_path / "absent")
