import pytest

from hub import Label, UserError


def test_round_trip():
    label = Label(env="arith/add-v1", seed=3)
    assert label.to_json() == '{"env": "arith/add-v1", "seed": 3}'
    assert Label.parse(label.to_json()) == label
    assert Label.parse('{"env": "data/qa-v1", "row": 7}').row == 7


@pytest.mark.parametrize("text, message", [
    ("not json", "not JSON"),
    ('["arith/add-v1", 3]', "expected an object"),
    ('{"env": "arith/add-v1"}', "exactly one of"),
    ('{"env": "arith/add-v1", "seed": 1, "row": 2}', "exactly one of"),
    ('{"env": "arith/add-v1", "seed": -1}', "non-negative"),
    ('{"env": "arith/add-v1", "seed": "3"}', "non-negative integer"),
    ('{"env": "arith/add-v1", "seed": true}', "non-negative integer"),
    ('{"env": "arith/add-v1", "seed": 1, "answer": 4}', "unexpected key"),
])
def test_bad_labels_are_user_errors(text, message):
    with pytest.raises(UserError, match=message):
        Label.parse(text)
