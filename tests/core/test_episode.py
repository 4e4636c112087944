from hub import load


def test_multi_turn_guess_episode_bisects_to_full_reward():
    cat = load()
    label = '{"env": "arith/guess-v1", "seed": 4}'
    target = int(cat.reference(label))
    ep = cat.episode(label)
    assert "Guess" in ep.reset()
    lo, hi, step = 1, 100, None
    for _ in range(ep.max_turns):
        guess = (lo + hi) // 2
        step = ep.step(str(guess))
        if step.done:
            break
        assert ("higher" in step.observation) == (guess < target)
        lo, hi = (guess + 1, hi) if guess < target else (lo, guess - 1)
    assert step.done and step.verdict.passed and step.verdict.reward == 1.0
    assert step.verdict.verifier.name == "exact_match"


def test_episode_ends_at_the_turn_budget_with_a_verdict():
    cat = load()
    label = '{"env": "arith/guess-v1", "seed": 4}'
    target = int(cat.reference(label))
    ep = cat.episode(label)
    ep.reset()
    steps = [ep.step(str(target + 1000)) for _ in range(ep.max_turns)]
    assert [s.done for s in steps] == [False] * (ep.max_turns - 1) + [True]
    assert steps[-1].verdict.reward == 0.0 and steps[-1].verdict.ok
