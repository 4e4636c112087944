import json
import pytest
from __pkg__ import __dump__, __parse__
from __pkg__.errors import InvalidSetting, ValueFormatError
from __pkg__.query import changes
from __pkg__ import settings
from __pkg__.settings import SETTINGS, problems, read_all, setting
#@test visible
def test_every_setting_is_listed():
    assert sorted(SETTINGS) == sorted(__unit_names__)
#@test visible
def test_setting_defaults_are_allowed():
    for name in __unit_names__[:3]:
        module = setting(name)
        assert module.check(module.DEFAULT) == module.DEFAULT
        assert module.parse(module.format(module.DEFAULT)) == module.DEFAULT
#@test
def test_setting_range_and_steps():
    for name in __unit_names__[-2:]:
        module = setting(name)
        with pytest.raises(ValueFormatError):
            module.check(module.HIGH + module.STEP)
        assert module.clamp(module.HIGH + 100) <= module.HIGH
        assert module.choices(2) == [module.LOW, module.LOW + module.STEP]
#@test
def test_settings_from_a_document():
    name = __unit_names__[0]
    module = setting(name)
    doc = __parse__(f"[app]\n{name} = {module.format(module.HIGH)}\n{__unit_names__[1]} = -99999\n")
    values = read_all(__parse__("[app]\n"), "app")
    assert values[name] == module.DEFAULT
    assert len(problems(doc, "app")) == 1
#@test visible
def test_setting_errors_say_what_is_allowed():
    module = setting(__unit_names__[0])
    name, low, high = module.NAME, module.LOW, module.HIGH
    with pytest.raises(InvalidSetting) as info:
        module.check(high + 1)
    assert str(info.value) == f"{name}: {high + 1} is outside {low}..{high} (nearest allowed: {high})"
    verdict = module.validate(str(high + 1))
    assert (verdict.setting, verdict.value, verdict.suggestion, verdict.ok) == (name, None, high, False)
    assert module.validate("many").suggestion is None
#@test visible
def test_sample_document_reads_back_as_the_defaults():
    text = settings.sample("app")
    doc = __parse__(text)
    assert read_all(doc, "app") == read_all(__parse__(""), "app")
    assert problems(doc, "app") == [] and settings.unknown(doc, "app") == []
    assert f"# {setting(__unit_names__[0]).describe()}" in text.splitlines()
#@test
def test_nearest_allowed_value():
    for name in __unit_names__[:2]:
        module = setting(name)
        low, high, step, nearest = module.LOW, module.HIGH, module.STEP, module.nearest
        allowed = range(low, low + 8 * step, step)
        for value in range(low - 1, low + step + 2):
            assert nearest(value) == min(allowed, key=lambda a: (abs(a - value), -a)), value
        assert nearest(high + 5) == high == module.clamp(high + 5)
#@test
def test_validate_and_explain():
    module = setting(__unit_names__[1])
    name, low, high, step, default = module.NAME, module.LOW, module.HIGH, module.STEP, module.DEFAULT
    good = module.format(default)
    verdict = module.validate(good)
    assert (verdict.setting, verdict.text, verdict.value, verdict.problem, verdict.suggestion) == (name, good, default, "", None)
    assert verdict.ok and module.explain(f" {good} ") == f"{name} = {good} is allowed ({low}..{high} in steps of {step})"
    assert module.explain(str(high + 1)) == (f"{name} = {high + 1} is not allowed: {high + 1} is outside "
                                             f"{low}..{high}; write {module.format(high)}")
    assert module.explain("lots").endswith("; write a whole number")
    for text in ("--5", "\u00b2", "0x10"):
        assert module.problems(text) == [f"{name}: not a number: {text!r}"]
#@test
def test_write_and_read_entry():
    module = setting(__unit_names__[2])
    name, high = module.NAME, module.HIGH
    doc = __parse__(f"[app]\n{name} = {module.format(module.LOW)}\n")
    assert module.read_entry(doc, "app").line == 2 and module.read_entry(doc, "other") is None
    assert module.write(doc, "app", high).line == 2 and module.read(doc, "app") == high
    module.write(doc, "new", module.DEFAULT)
    assert __parse__(__dump__(doc)).as_dict()["new"] == {name: module.format(module.DEFAULT)}
    with pytest.raises(InvalidSetting):
        module.write(doc, "app", high + 1)
    assert module.read(doc, "app") == high
#@test
def test_environment_overrides_the_document():
    first, second = __unit_names__[:2]
    one = setting(first)
    low, high = one.LOW, one.HIGH
    variable, other = settings.environ_name(first), settings.environ_name(second)
    assert variable == f"{'__pkg__'.upper()}_{first.upper()}" and other == f"{'__pkg__'.upper()}_{second.upper()}"
    doc = __parse__(f"[app]\n{first} = {one.format(low)}\n")
    values = read_all(doc, "app", {variable: one.format(high), other: "  "})
    assert (values[first], values[second]) == (high, setting(second).DEFAULT)
    assert read_all(doc, "app")[first] == low
    with pytest.raises(InvalidSetting):
        read_all(doc, "app", {variable: "lots"})
#@test
def test_ramp_and_rollout():
    module = setting(__unit_names__[-1])
    name, low, high, default = module.NAME, module.LOW, module.HIGH, module.DEFAULT
    stages, jump = module.ramp(low, high), module.MAX_JUMP
    assert stages[-1] == high and len(stages) > 1
    assert all(0 < b - a <= jump for a, b in zip([low, *stages], stages))
    assert module.ramp(high, low)[-1] == low and module.ramp(default, default) == []
    rollout = settings.Rollout(name, low, high)
    assert rollout.state == "planned" and rollout.advance() == stages[0] and rollout.state == "running"
    while rollout.state == "running":
        rollout.advance()
    assert rollout.progress() == f"{name}: stage {len(stages)} of {len(stages)}, at {module.format(high)} (done)"
    for step in (rollout.advance, rollout.rollback):
        with pytest.raises(InvalidSetting):
            step()
    again = settings.Rollout(name, low, high)
    again.advance()
    assert again.rollback() == low and again.state == "rolled back"
    with pytest.raises(InvalidSetting):
        again.advance()
    assert settings.Rollout(name, default, default).state == "done"
#@test
def test_schema_and_help():
    full = settings.schema("app")
    assert full["additionalProperties"] is False and sorted(full["properties"]) == sorted(__unit_names__)
    module = setting(__unit_names__[0])
    name, low, high, step, default = module.NAME, module.LOW, module.HIGH, module.STEP, module.DEFAULT
    prop = full["properties"][name]
    assert (prop["minimum"], prop["maximum"], prop["default"], prop["description"]) == (low, high, default, module.describe())
    assert all(value % prop.get("multipleOf", 1) == 0 for value in range(low, low + 5 * step, step))
    text = settings.help_all()
    lines = settings.help_for(name).splitlines()
    assert text.count("\n\n") == len(SETTINGS) - 1 and "\n".join(lines) in text
    assert lines[0] == module.describe() and lines[1] == f"  written as: {name} = {module.format(default)}"
    assert f"  the environment variable {settings.ENV_PREFIX}_{name.upper()} overrides the document" in lines
#@test
def test_report_unknown_keys_and_fix():
    first, second = __unit_names__[:2]
    one, two = setting(first), setting(second)
    high = one.HIGH
    doc = __parse__(f"[app]\n{first} = {high + 1}\n{second} = plenty\n{first}x = 1\nqqqq = 2\n")
    expected = [f"line 2: {one.explain(str(high + 1))}", f"line 3: {two.explain('plenty')}"]
    assert sorted(settings.report(doc, "app")) == sorted(expected)
    assert settings.unknown(doc, "app") == [f"{first}x: no such setting; did you mean {first}?", "qqqq: no such setting"]
    made = settings.fix(doc, "app")
    expected = [f"{first}: '{high + 1}' -> '{one.format(high)}'", f"{second}: 'plenty' -> '{two.format(two.DEFAULT)}'"]
    assert sorted(made) == sorted(expected)
    assert problems(doc, "app") == [] and settings.report(doc, "app") == [] and settings.fix(doc, "app") == []
    assert read_all(doc, "app")[first] == high
#@test
def test_export_and_load():
    values = read_all(__parse__("[app]\n"), "app")
    assert settings.load(settings.export(values)) == values
    data = json.loads(settings.export(values))
    assert data["version"] == 1 and [row["name"] for row in data["settings"]] == sorted(values)
    name = __unit_names__[0]
    for bad in ("nope", "[]", '{"version": 2, "settings": []}', json.dumps({"version": 1, "settings": [{"name": "qqqq"}]})):
        with pytest.raises(ValueFormatError):
            settings.load(bad)
    for value in (setting(name).HIGH + 1, True, "1", None):
        with pytest.raises(InvalidSetting):
            settings.load(json.dumps({"version": 1, "settings": [{"name": name, "value": value}]}))
#@test
def test_plan_rollouts_and_changelog():
    name = __unit_names__[0]
    module = setting(name)
    low, high = module.format(module.LOW), module.format(module.HIGH)
    old = __parse__(f"[app]\n{name} = {low}\nmode = fast\n")
    new = __parse__(f"[app]\n{name} = {high}\nmode = safe\nextra = 1\n")
    assert settings.plan(old, new, "app") == {name: module.ramp(module.LOW, module.HIGH)}
    assert [(n, r.state) for n, r in settings.rollouts(old, new, "app").items()] == [(name, "planned")]
    change = f"{name}: {low} -> {high} (+{module.HIGH - module.LOW})"
    assert module.diff(module.LOW, module.HIGH) == change
    assert settings.changelog(old, new, "app") == [change, "mode: fast -> safe", "extra: (unset) -> 1"]
    assert changes(old, new) == {f"app.{name}": (low, high), "app.mode": ("fast", "safe"), "app.extra": (None, "1")}
    assert settings.plan(old, old, "app") == {} and settings.changelog(old, old, "app") == []
