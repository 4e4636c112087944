import json
import pytest
from __pkg__ import __FakeClock__, __Scheduler__, backoff
from __pkg__.errors import PolicyError, UnknownPolicy
from __pkg__.limits import parse_limits
from __pkg__.policy import health as judge
from __pkg__.policies import POLICIES, by_priority, configure, explain, export_settings, health, load_overrides, names, policy, problems, submit_lines, table
from __pkg__.stats import Stats
#@test visible
def test_every_policy_is_listed():
    assert sorted(POLICIES) == sorted(__unit_names__)
    assert names() == sorted(__unit_names__)
#@test visible
def test_policies_describe_themselves():
    for name in __unit_names__[:3]:
        module = policy(name)
        assert module.NAME == name
        assert module.describe().startswith(f"{name}: {module.RATE} ({module.ALGORITHM}")
        assert module.rate().count == int(module.RATE.split("/")[0])
#@test
def test_unknown_policy():
    with pytest.raises(UnknownPolicy):
        policy("no-such-policy")
    with pytest.raises(KeyError):
        policy("")
#@test
def test_policy_jobs_carry_their_settings():
    for name in __unit_names__:
        module = policy(name)
        job = module.job("x", now=10.0)
        assert (job.policy, job.priority) == (name, module.PRIORITY)
        assert job.deadline == (10.0 + module.DEADLINE if module.DEADLINE else None)
#@test
def test_configure_a_scheduler():
    s = __Scheduler__(__FakeClock__())
    assert configure(s) == names()
    assert sorted(s.limiters) == names()
    for name in __unit_names__[-3:]:
        assert s.retry_for(name).max_attempts == policy(name).MAX_ATTEMPTS
    assert configure(__Scheduler__(), [__unit_names__[0]]) == [__unit_names__[0]]
#@test catches=limit_key
def test_policy_limits_hold_in_a_scheduler():
    for name in __unit_names__[:4]:
        module = policy(name)
        probe = module.limiter(__FakeClock__())
        at_once = 0
        for _ in range(probe.capacity + 1):
            decision = probe.check()
            at_once += decision.allowed and decision.delay == 0
        s = __Scheduler__(__FakeClock__())
        configure(s, [name])
        for n in range(probe.capacity + 1):
            module.send(s, f"{name}-{n}")
        assert len(s.run_pending()) == at_once, name
#@test catches=swap_backoff
def test_policy_delays_follow_the_backoff():
    for name in __unit_names__:
        module = policy(name)
        expected = [min(module.MAX_DELAY, module.BASE_DELAY * backoff.FACTOR ** n) for n in range(module.MAX_ATTEMPTS - 1)]
        assert module.delays() == expected, name
        assert module.worst_case() == sum(expected)
#@test
def test_policy_problems():
    found = problems()
    assert set(found) <= set(names())
    for name in __unit_names__:
        module = policy(name)
        deadline = module.DEADLINE or float("inf")
        expected = [module.MAX_DELAY < module.BASE_DELAY, module.MAX_ATTEMPTS > 1 and module.BASE_DELAY >= deadline,
                    module.rate().interval > deadline]
        assert len(found.get(name, [])) == sum(expected), name
        assert all(message.startswith(f"{name}: ") for message in found.get(name, []))
#@test
def test_policies_by_priority_and_table():
    order = by_priority()
    assert sorted(order) == names()
    assert [policy(n).PRIORITY for n in order] == sorted(policy(n).PRIORITY for n in order)
    assert table().splitlines() == [policy(n).describe() for n in names()]
#@test visible
def test_policy_settings_as_a_limit_spec():
    clock = __FakeClock__()
    for name in __unit_names__[:3]:
        module = policy(name)
        chosen = module.settings()
        assert (chosen["rate"], chosen["algorithm"], chosen["attempts"]) == (module.RATE, module.ALGORITHM, module.MAX_ATTEMPTS)
        room = f"@{module.BURST}" if module.ALGORITHM in ("token", "leaky") else ""
        assert module.spec() == f"{module.ALGORITHM}:{module.RATE}{room}"
        assert parse_limits(module.spec(), clock).capacity == (module.BURST if room else module.rate().count)
#@test
def test_policy_overrides_are_applied():
    clock = __FakeClock__()
    for name in __unit_names__[:2] + __unit_names__[-2:]:
        module = policy(name)
        assert module.settings() == module.DEFAULTS
        assert module.settings(rate="7 per 2 min")["rate"] == "7 per 2 min"
        assert module.spec(rate="7 per 2 min", algorithm="token", burst=3) == "token:7/2min@3"
        assert module.spec(rate="90/60s", algorithm="counter") == "counter:90/min"
        made = module.limiter(clock, rate="2/s", algorithm="window")
        assert (made.name, made.capacity, made.rate.period) == ("window", 2, 1.0)
        retry = module.retry_policy(attempts=2, base_delay=0.5, max_delay=4.0)
        assert (retry.max_attempts, retry.base_delay, retry.max_delay) == (2, 0.5, 4.0)
        job = module.job("x", now=5.0, priority=0, deadline=10)
        assert (job.policy, job.priority, job.deadline) == (name, 0, 15.0)
        assert module.job("y", now=5.0, deadline=0).deadline is None
#@test
def test_bad_overrides_name_the_setting():
    module = policy(__unit_names__[0])
    for changes, words in (({"colour": "red"}, "unknown setting 'colour'"), ({"rate": "fast"}, "rate: not a rate"),
                           ({"rate": 10}, "rate must be text"), ({"rate": "0/s"}, "at least 1 job"),
                           ({"algorithm": "magic"}, "algorithm must be one of counter, leaky, token, window"),
                           ({"burst": 0}, "burst must be a whole number, 1 or more"), ({"attempts": True}, "attempts must be"),
                           ({"priority": 1.5}, "priority must be"), ({"base_delay": -1}, "base_delay must be a number of seconds"),
                           ({"deadline": float("nan")}, "deadline must be"), ({"max_delay": "5"}, "max_delay must be")):
        with pytest.raises(PolicyError) as info:
            module.settings(**changes)
        assert str(info.value).startswith(module.NAME + ": ") and words in str(info.value), (changes, str(info.value))
    with pytest.raises(PolicyError):
        module.limiter(algorithm="magic")
    with pytest.raises(ValueError):
        module.send(__Scheduler__(__FakeClock__()), "x", rate="")
#@test visible
def test_payloads_are_checked():
    module = policy(__unit_names__[0])
    key, size = list(module.FIELDS)
    assert module.check_payload({key: "ann", size: 3}) == []
    assert module.check_payload({key: "ann"}) == [f"{module.NAME}: the payload has no {size!r}"]
    with pytest.raises(PolicyError):
        module.job("x", payload={key: "", size: 1})
#@test
def test_every_payload_problem_is_named():
    for name in __unit_names__[:2] + __unit_names__[-2:]:
        module = policy(name)
        key, size = list(module.FIELDS)
        top = module.FIELDS[size][1]
        assert module.check_payload({key: "a", size: 0}) == [] and module.check_payload({key: "a", size: top}) == []
        for payload, count in (({key: "a", size: top + 1}, 1), ({key: "a", size: -1}, 1), ({key: "a", size: True}, 1),
                               ({key: "a", size: "3"}, 1), ({key: " ", size: 1}, 1), ({key: 7, size: 1}, 1), ({}, 2),
                               ({key: "a", size: 1, "extra": 1, "more": 2}, 2), ({size: 10 ** 9}, 2)):
            found = module.check_payload(payload)
            assert len(found) == count and all(m.startswith(name + ": ") for m in found), (payload, found)
        assert module.check_payload(["a"]) == [f"{name}: a payload is an object with {key}, {size}, got list"]
        assert f"must be a whole number from 0 to {top}, got {top + 1}" in module.check_payload({key: "a", size: top + 1})[0]
#@test
def test_payloads_from_text():
    for name in __unit_names__[:3]:
        module = policy(name)
        key, size = list(module.FIELDS)
        assert module.parse_payload(f"{key}=ann {size}=7") == {key: "ann", size: 7}
        assert module.parse_payload(f" {size}=0   {key}=b-2 ") == {size: 0, key: "b-2"}
        for bad in (f"{key}=ann", f"{key}=ann {size}=x", f"{key}=ann {size}=-3", f"{key} {size}=1",
                    f"{key}=a {key}=b {size}=1", f"={key}", f"{key}=a {size}=1 other=2"):
            with pytest.raises(PolicyError) as info:
                module.parse_payload(bad)
            assert str(info.value).startswith(name + ": "), bad
#@test
def test_jobs_carry_checked_payloads():
    s = __Scheduler__(__FakeClock__())
    for name in __unit_names__[:3]:
        module = policy(name)
        key, size = list(module.FIELDS)
        payload = {key: "ann", size: 2}
        assert s.job(module.send(s, f"{name}-job", payload=payload)).payload == payload
        assert module.job("x", payload=payload).payload == payload
        with pytest.raises(PolicyError):
            module.send(s, "bad", payload={key: "ann"})
    assert len(s.pending()) == 3
#@test catches=limit_key
def test_overrides_from_a_file_reach_the_scheduler():
    first, second = __unit_names__[0], __unit_names__[1]
    text = json.dumps({first: {"rate": "1/h", "algorithm": "token", "burst": 1}, second: {"attempts": 1}})
    overrides = load_overrides(text, "policies.json")
    assert overrides[first]["rate"] == "1/h"
    s = __Scheduler__(__FakeClock__())
    assert configure(s, overrides=overrides) == names()
    ids = [policy(first).send(s, f"{first}-{n}") for n in range(3)]
    s.run_pending()
    assert [s.state(i) for i in ids] == ["done", "waiting", "waiting"]
    assert s.retry_for(second).max_attempts == 1
#@test
def test_bad_override_files_say_where():
    name = __unit_names__[0]
    for text, words in (("{oops", "policies.json: not JSON (line 1"), ("[1]", "expected an object of policies, got list"),
                        ('{"no-such-policy": {}}', "no policy 'no-such-policy'"),
                        (json.dumps({name: 3}), f"policies.json: {name}: expected an object of settings"),
                        (json.dumps({name: {"burst": 0}}), f"policies.json: {name}: burst must be")):
        with pytest.raises(PolicyError) as info:
            load_overrides(text, "policies.json")
        assert str(info.value).startswith("policies.json: ") and words in str(info.value), text
    with pytest.raises(UnknownPolicy):
        configure(__Scheduler__(), overrides={"no-such-policy": {}})
#@test
def test_exported_settings_read_back():
    data = json.loads(export_settings())
    assert sorted(data) == names()
    assert all(data[name] == policy(name).settings() for name in names())
    assert load_overrides(export_settings()) == data
    assert list(json.loads(export_settings([__unit_names__[1]]))) == [__unit_names__[1]]
#@test
def test_jobs_from_lines():
    first, second = __unit_names__[0], __unit_names__[1]
    (key1, size1), (key2, size2) = list(policy(first).FIELDS), list(policy(second).FIELDS)
    text = (f"# nightly\n{first} a {key1}=ann {size1}=3\n\n"
            f"{second} b   # no payload\n{second} c {size2}=0 {key2}=bo\n")
    s = __Scheduler__(__FakeClock__())
    ids = submit_lines(s, text, "jobs.txt")
    assert ids == ["a#1", "b#2", "c#3"]
    assert [s.job(i).policy for i in ids] == [first, second, second]
    assert (s.job("a#1").payload, s.job("b#2").payload) == ({key1: "ann", size1: 3}, None)
    for bad, where in ((f"{first} a\n{first}\n", "jobs.txt:2: expected POLICY NAME"), ("nope a\n", "jobs.txt:1: no policy 'nope'"),
                       (f"{first} a\n{first} b {key1}=x\n", f"jobs.txt:2: {first}: the payload has no {size1!r}")):
        fresh = __Scheduler__(__FakeClock__())
        with pytest.raises(PolicyError) as info:
            submit_lines(fresh, bad, "jobs.txt")
        assert str(info.value).startswith(where), bad
        assert fresh.pending() == []
#@test catches=retry_branch,limit_key
def test_explain_tells_what_happened():
    name = __unit_names__[0]
    module = policy(name)
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    changes = {"rate": "1/s", "algorithm": "token", "burst": 1, "attempts": 3, "base_delay": 1.0, "deadline": 0}
    configure(s, [name], overrides={name: changes})
    calls = []

    def flaky():
        calls.append(clock.now())
        if len(calls) == 1:
            raise ConnectionError("down")

    module.send(s, "first", **changes)
    job_id = module.send(s, "second", flaky, **changes)
    s.run_until(100)
    assert explain(s, job_id, {name: changes}).splitlines() == [
        f"{job_id}: done after 2 attempt(s)", f"0s: queued ({name}, priority {module.PRIORITY})",
        "0s: held back: the token limit of 1/s was reached", "1s: attempt 1 of 3", "1s: failed; next attempt in 1s",
        "2s: attempt 2 of 3", "2s: done"]
    assert module.explain(s.job(job_id), **{**changes, "attempts": 5})[2] == "1s: attempt 1 of 5"
#@test
def test_explain_a_job_past_its_deadline_or_of_no_policy():
    name = __unit_names__[0]
    clock = __FakeClock__()
    s = __Scheduler__(clock)
    late = policy(name).send(s, "late", deadline=2)
    clock.advance(3)
    s.run_pending()
    assert explain(s, late).splitlines()[-1] == "3s: expired: its deadline passed before it could run (deadline 2s)"
    other = s.__submit__("loose", lambda: 1, policy="no-such-policy")
    s.run_pending()
    assert explain(s, other).splitlines() == [f"{other}: done after 1 attempt(s)", "3s: queued", "3s: attempt 1", "3s: done"]
    with pytest.raises(KeyError):
        explain(s, "nope")
#@test
def test_health_from_outcomes():
    assert [judge(None, 0.9), judge(0.0, 0.9), judge(0.5, 0.9), judge(0.89, 0.9), judge(0.9, 0.9), judge(1.0, 0.95)] == [
        "idle", "failing", "degraded", "degraded", "healthy", "healthy"]
    for name in __unit_names__[:3]:
        module = policy(name)
        stats = Stats()
        assert module.health(stats) == "idle"
        stats.record(name, "failed")
        stats.record("someone-else", "done")
        assert module.health(stats) == "failing"
        for _ in range(4):
            stats.record(name, "done")
        assert module.health(stats) == ("healthy" if module.HEALTHY <= 0.8 else "degraded")
#@test
def test_health_of_a_scheduler():
    first, second = __unit_names__[0], __unit_names__[1]
    s = __Scheduler__(__FakeClock__())
    configure(s, [first, second], overrides={second: {"attempts": 1, "deadline": 30, "rate": "100/s", "algorithm": "window"}})
    policy(first).send(s, "ok", lambda: 1)

    def broken():
        raise ValueError("no")

    policy(second).send(s, "bad", broken, deadline=30)
    s.drain(limit=600)
    found = health(s)
    assert sorted(found) == names()
    assert (found[first], found[second]) == ("healthy", "failing")
    assert {found[name] for name in __unit_names__[2:]} == {"idle"}
#@test catches=window_edge
def test_backlog_time_follows_the_limiter():
    for name in __unit_names__[:4]:
        module = policy(name)
        assert module.backlog_time(0) == 0.0 and module.backlog_time(1) == 0.0
        assert module.backlog_time(5, rate="2/s", algorithm="token", burst=3) == 1.0
        assert module.backlog_time(4, rate="4/s", algorithm="leaky", burst=10) == 0.75
        assert module.backlog_time(5, rate="2/s", algorithm="window") == 2.0
    with pytest.raises(ValueError):
        policy(__unit_names__[0]).backlog_time(-1)
