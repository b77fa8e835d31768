"""A value that is one sum over a filtered set of related rows divided by another sum over the same
rows (a grade point average: quality points over credits of the completed courses) is found from
the data, as sums and counts are, and predicts the average of another parent's rows."""

from __future__ import annotations

from memkit.rules import Action

from tests.agents.cda.helpers import hand_made_world, induced, state_after


def test_a_grade_point_average_is_learned_as_a_ratio_of_two_sums():
    world = hand_made_world("averages-A")
    model = induced(world, [Action("update", "enrollment", "E1", {"points": 10}), Action("update", "enrollment", "E2", {"points": 9}),
                            Action("update", "enrollment", "E1", {"points": 16}), Action("update", "enrollment", "E3", {"points": 6})])
    state = state_after(model, world, Action("update", "enrollment", "E5", {"points": 12}))
    # (12 + 7) / (3 + 3): the enrolled course's points and credits stay out
    assert state.get("student", "S2")["gpa"] == 3.17
