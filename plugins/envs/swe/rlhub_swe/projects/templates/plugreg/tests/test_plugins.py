import pytest
from __pkg__ import core, lifecycle, report
from __pkg__.errors import ConfigError, NotLoaded
from __pkg__.errors import DataError
from __pkg__.plugins import builtin_registry, extensions, plugin_module, plugin_names
from __pkg__.plugins import chain_formula, explain_chain, process_file, transformers, undo_chain
from __pkg__.registry import __Registry__
from __pkg__.spec import PluginSpec
#@test visible
def test_every_plugin_is_listed():
    assert plugin_names() == sorted(__unit_names__)
    with pytest.raises(NotLoaded):
        plugin_module("no-such-plugin")
#@test visible
def test_plugin_specs_match_their_modules():
    for name in __unit_names__[:3]:
        module = plugin_module(name)
        assert module.SPEC.name == name
        assert module.SPEC.module == f"__pkg__.plugins.{name}"
        assert module.SPEC.requires_names() == ["core"]
        assert module.check(module.SPEC.settings) == []
#@test visible
def test_plugin_scale():
    for name in __unit_names__[-2:]:
        module = plugin_module(name)
        settings = module.SPEC.settings
        assert module.scale(4) == 4 * settings["factor"] + settings["offset"]
        assert module.scale(4, {"factor": 0, "offset": 1}) == 1
#@test
def test_plugin_checks():
    module = plugin_module(__unit_names__[0])
    name = __unit_names__[0]
    assert module.check({"factor": -1, "offset": 0}) == [f"{name}.factor: must not be negative, got -1"]
    assert module.check({"factor": "2", "offset": True}) == [f"{name}.factor: expected an integer, got '2'",
                                                             f"{name}.offset: expected an integer, got True"]
#@test
def test_extensions():
    table = extensions()
    assert sorted(n for names in table.values() for n in names) == sorted(__unit_names__)
    for ext, names in table.items():
        assert all(plugin_module(n).EXTENSION == ext for n in names)
#@test catches=swap_edge
def test_start_and_stop_order():
    registry = builtin_registry()
    started = lifecycle.start(registry)
    assert started == ["core", *sorted(__unit_names__)]
    assert lifecycle.stop(registry, started) == [*sorted(__unit_names__, reverse=True), "core"]
    assert lifecycle.plan(registry)[0] == f"1. core {core.SPEC.version}"
#@test
def test_start_skips_disabled_plugins():
    name = __unit_names__[0]
    registry = builtin_registry()
    registry.disable(name)
    assert sorted(lifecycle.start(registry)) == sorted(["core", *__unit_names__[1:]])
    assert sorted(lifecycle.stop(registry)) == sorted(["core", *__unit_names__[1:]])
    assert len(lifecycle.plan(registry)) == len(__unit_names__)
#@test
def test_resume_starts_what_was_blocked():
    registry = builtin_registry()
    registry.disable("core")
    assert registry.enabled() == []
    assert sorted(lifecycle.resume(registry, ["core"])) == sorted(["core", *__unit_names__])
    assert lifecycle.resume(registry, ["core"]) == []
    registry.disable(__unit_names__[0])
    assert lifecycle.resume(registry, [__unit_names__[0]]) == [__unit_names__[0]]
#@test
def test_start_checks_settings():
    name = __unit_names__[0]
    registry = builtin_registry()
    registry.config.set(name, "factor", -3)
    with pytest.raises(ConfigError, match="must not be negative"):
        lifecycle.start(registry)
#@test
def test_report_table():
    name = __unit_names__[0]
    registry = builtin_registry()
    registry.disable(name)
    lines = report.table(registry).splitlines()
    assert lines[0].split() == ["NAME", "VERSION", "STATE", "REQUIRES"]
    assert len(lines) == len(__unit_names__) + 2
    row = next(line for line in lines[1:] if line.split()[0] == name)
    assert row.split()[1:3] == [str(plugin_module(name).SPEC.version), "disabled"]
    assert next(line for line in lines[1:] if line.split()[0] == "core").split()[2:] == ["enabled", "-"]
    assert [line.split()[0] for line in lines[1:]] == sorted(["core", *__unit_names__])
#@test
def test_report_tree():
    registry = __Registry__()
    registry.add(PluginSpec("app", "1.0", requires={"web": "*", "db": "*"}))
    registry.add(PluginSpec("web", "1.1", requires={"db": "*"}))
    registry.add(PluginSpec("db", "2.0"))
    registry.load("app")
    assert report.tree(registry, "app") == "app 1.0.0\n  db 2.0.0\n  web 1.1.0\n    db 2.0.0\n"
    assert report.tree(registry, "web", indent="-") == "web 1.1.0\n-db 2.0.0\n"
#@test
def test_report_summary():
    registry = builtin_registry()
    assert report.summary(registry) == {"enabled": len(__unit_names__) + 1}
    registry.disable(__unit_names__[0])
    assert report.summary(registry) == {"enabled": len(__unit_names__), "disabled": 1}
    registry.disable("core")
    assert report.summary(registry) == {"disabled": 2, "blocked": len(__unit_names__) - 1}
#@test visible
def test_plugin_files():
    module = plugin_module(__unit_names__[0])
    assert module.parse("3\n\n# a note\n -4 \n") == [3, -4]
    assert module.render([1, 2], "made by hand") == "# made by hand\n1\n2\n"
    settings = {"factor": 3, "offset": -2, "label": "x"}
    out = module.process("# old note\n1\n5\n", settings)
    assert out == f"# {module.SPEC.name} {module.SPEC.version}: x * 3 - 2\n1\n13\n"
    assert module.parse(out) == [1, 13]
#@test
def test_plugin_files_say_where_they_are_wrong():
    module = plugin_module(__unit_names__[-1])
    with pytest.raises(DataError, match=r"^notes\.txt: line 3: expected a whole number, got '2\.5'"):
        module.parse("1\n# fine\n2.5\n", "notes.txt")
    with pytest.raises(ConfigError, match="factor: must not be negative"):
        module.process("1\n", {"factor": -1, "offset": 0})
    assert module.process("", {"factor": 1, "offset": 0}) == f"# {module.SPEC.name} {module.SPEC.version}: x\n"
#@test
def test_unscale_undoes_scale():
    for name in __unit_names__[:3]:
        module = plugin_module(name)
        assert [module.unscale(module.scale(v)) for v in (-4, 0, 3)] == [-4, 0, 3]
    module = plugin_module(__unit_names__[0])
    name = module.SPEC.name
    with pytest.raises(DataError, match=f"^{name}: with factor 0 every value becomes 4, so 4 cannot be undone"):
        module.unscale(4, {"factor": 0, "offset": 4})
    with pytest.raises(DataError, match=rf"^{name}: 8 is not a value its transform gives \(x \* 3 \+ 1\)"):
        module.unscale(8, {"factor": 3, "offset": 1})
    assert module.unscale(7, {"factor": 3, "offset": 1}) == 2
#@test
def test_formula_and_settings_checks():
    module = plugin_module(__unit_names__[0])
    name = module.SPEC.name
    assert [module.formula({"factor": f, "offset": o}, "v") for f, o in ((1, 0), (2, 0), (1, -3), (4, 5))] == [
        "v", "v * 2", "v - 3", "v * 4 + 5"]
    assert module.affine() == (module.SPEC.settings["factor"], module.SPEC.settings["offset"])
    assert module.check({"factor": 1, "offset": 0, "label": " "}) == [f"{name}.label: expected some text, got ' '"]
    with pytest.raises(ConfigError, match=f"{name}.offset: expected an integer, got '1'"):
        module.formula({"factor": 1, "offset": "1"})
#@test
def test_chain_formula_is_the_chain():
    registry = builtin_registry()
    factor, offset = chain_formula(registry)
    assert [registry.chain("transform", v) for v in (0, 1, 9, -2)] == [v * factor + offset for v in (0, 1, 9, -2)]
    lines = explain_chain(registry)
    assert [line.split(":")[0] for line in lines] == [f"{i}. {n}" for i, n in enumerate(transformers(registry), 1)]
    assert sorted(transformers(registry)) == sorted(__unit_names__)
    name = __unit_names__[0]
    registry.config.set(name, "factor", 1)
    registry.config.set(name, "offset", 0)
    registry.disable(__unit_names__[-1])
    assert f"{transformers(registry).index(name) + 1}. {name}: x" in explain_chain(registry)
    factor, offset = chain_formula(registry)
    assert registry.chain("transform", 6) == 6 * factor + offset
    registry.disable("core")
    assert (chain_formula(registry), explain_chain(registry), transformers(registry)) == ((1, 0), [], [])
#@test
def test_undo_chain():
    registry = builtin_registry()
    for value in (0, 7, -3):
        assert undo_chain(registry, registry.chain("transform", value)) == value
    registry.disable(__unit_names__[0])
    assert undo_chain(registry, registry.chain("transform", 11)) == 11
    name = __unit_names__[-1]
    registry.config.set(name, "factor", 0)
    with pytest.raises(DataError, match=f"^{name}: with factor 0"):
        undo_chain(registry, registry.chain("transform", 1))
#@test catches=hook_order
def test_files_go_to_the_plugin_that_handles_them():
    registry = builtin_registry()
    name = __unit_names__[0]
    ext = plugin_module(name).EXTENSION
    path = f"data/In.{ext.upper()}"
    handler, out = process_file(registry, path, "1\n# c\n2\n")
    assert handler in extensions()[ext] and handler == registry.first("handles", path=path)
    assert out == plugin_module(handler).process("1\n2\n", registry.settings(handler))
    assert process_file(registry, "notes.unknown", "x\n") == ("core", "x\n")
    for other in extensions()[ext]:
        registry.disable(other)
    assert process_file(registry, path, "1\n") == ("core", "1\n")
    registry.__enable__(name)
    with pytest.raises(DataError, match=f"^{path}: line 1: expected a whole number"):
        process_file(registry, path, "one\n")
#@test
def test_plugin_help():
    registry = builtin_registry()
    name = __unit_names__[0]
    module = plugin_module(name)
    registry.config.set(name, "factor", 7)
    text = report.plugin_help(registry, name)
    lines = text.splitlines()
    assert lines[0] == f"{name} {module.SPEC.version}: {module.SPEC.description}"
    assert "  hooks: describe, handles, setup, teardown, transform" in lines
    assert f"    factor = 7: {module.SETTINGS_HELP['factor']}" in lines
    assert f"    label = {module.SPEC.settings['label']!r}: {module.SETTINGS_HELP['label']}" in lines
    assert text == module.help_text({"factor": 7})
    assert report.plugin_help(registry, "core") == f"core {core.SPEC.version}: the host's own hooks\n"
    with pytest.raises(NotLoaded):
        report.plugin_help(registry, "no-such-plugin")
#@test catches=hook_order
def test_hook_call_orders():
    orders = report.hook_orders(builtin_registry())
    assert orders["describe"][-1] == "core"
    assert orders["handles"][-1] == "core"
    assert orders["transform"][0] == "core"
    assert sorted(orders["describe"]) == sorted(["core", *__unit_names__])
