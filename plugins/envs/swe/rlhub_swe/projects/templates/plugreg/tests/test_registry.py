import json
import pytest
from __pkg__ import core
from __pkg__.config import HOST_SECTION, Config
from __pkg__.errors import __Error__, HookError, ManifestError, MissingPlugin, NotLoaded
from __pkg__.manifest import KEY
from __pkg__.plugins import builtin_registry, plugin_module
from __pkg__.registry import __Registry__
from __pkg__.spec import PluginSpec
#@test visible
def test_builtin_registry_loads_everything():
    registry = builtin_registry()
    assert sorted(registry.loaded()) == sorted(["core", *__unit_names__])
    assert sorted(registry.enabled()) == sorted(["core", *__unit_names__])
    assert registry.state(__unit_names__[0]) == "enabled"
    assert registry.version("core") == str(core.SPEC.version)
#@test visible
def test_describe_every_plugin():
    registry = builtin_registry()
    expected = [f"{n} {plugin_module(n).SPEC.version}" for n in __unit_names__] + [f"core {core.SPEC.version}"]
    assert sorted(registry.call("describe")) == sorted(expected)
#@test visible
def test_transform_chain_with_default_settings():
    registry = builtin_registry()
    value = 5
    for name in sorted(__unit_names__, key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = plugin_module(name).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", "5") == value
#@test visible
def test_disable_and_enable():
    name = __unit_names__[0]
    registry = builtin_registry()
    assert registry.disable(name) == [name]
    assert registry.disable(name) == []
    assert registry.state(name) == "disabled"
    assert name not in registry.enabled()
    assert registry.__enable__(name) == [name]
    assert registry.state(name) == "enabled"
#@test visible
def test_unknown_plugin_names():
    registry = builtin_registry()
    assert registry.state("nope") == "not loaded"
    with pytest.raises(NotLoaded):
        registry.disable("nope")
    with pytest.raises(NotLoaded):
        registry.spec("nope")
#@test catches=swap_edge
def test_load_order_puts_dependencies_first():
    registry = builtin_registry()
    assert registry.loaded() == ["core", *sorted(__unit_names__)]
#@test catches=swap_edge
def test_load_order_of_a_chain():
    registry = __Registry__()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    assert registry.load("app") == ["db", "web", "app"]
    assert registry.enabled() == ["db", "web", "app"]
#@test
def test_blocked_by_a_disabled_dependency():
    registry = __Registry__()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.add(PluginSpec("cli", "1.0"))
    registry.load("app", "cli")
    assert registry.disable("web") == ["web"]
    assert [registry.state(n) for n in ("db", "web", "app", "cli")] == ["enabled", "disabled", "blocked", "enabled"]
    assert sorted(registry.enabled()) == ["cli", "db"]
    registry.disable("db")
    assert sorted(registry.__enable__("web")) == []
    assert sorted(registry.enabled()) == ["cli"]
#@test catches=swap_edge
def test_enable_with_dependencies():
    registry = __Registry__()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.load("app")
    registry.disable("db")
    registry.disable("web")
    assert registry.__enable__("app") == []
    assert registry.__enable__("app", with_dependencies=True) == ["db", "web", "app"]
#@test catches=shared_seen,swap_edge
def test_disable_cascades_to_dependents():
    registry = __Registry__()
    registry.add(PluginSpec("app", "1.0", requires={"db": "*", "web": "*"}))
    registry.add(PluginSpec("web", "1.0", requires={"db": "*"}))
    registry.add(PluginSpec("db", "1.0"))
    registry.add(PluginSpec("cli", "1.0", requires={"db": "*"}))
    registry.load("app", "cli")
    assert sorted(registry.disable("web", cascade=True)) == ["app", "web"]
    assert registry.__enable__("web") == ["web"]
    assert registry.__enable__("app") == ["app"]
    assert sorted(registry.disable("cli", cascade=True)) == ["cli"]
    assert sorted(registry.disable("db", cascade=True)) == ["app", "db", "web"]
#@test catches=hook_order
def test_handles_falls_back_to_core():
    registry = builtin_registry()
    assert registry.first("handles", path="notes.unknownext") == "core"
    for name in __unit_names__[:4]:
        ext = plugin_module(name).EXTENSION
        takers = sorted((-plugin_module(n).SPEC.priority, n) for n in __unit_names__ if plugin_module(n).EXTENSION == ext)
        assert registry.first("handles", path=f"data.{ext}") == takers[0][1]
#@test catches=hook_order
def test_core_describes_itself_last():
    registry = builtin_registry()
    assert registry.call("describe")[-1] == f"core {core.SPEC.version}"
#@test
def test_disabled_plugins_are_skipped():
    name = __unit_names__[0]
    registry = builtin_registry()
    registry.disable(name)
    assert f"{name} {plugin_module(name).SPEC.version}" not in registry.call("describe")
    value = 5
    for other in sorted(__unit_names__[1:], key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = plugin_module(other).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", 5) == value
    assert registry.call_plugin("describe", name) is None
    registry.disable("core")
    assert registry.call("describe") == []
    assert registry.chain("transform", "5") == "5"
#@test
def test_loading_again_replaces_what_was_loaded():
    name = __unit_names__[0]
    registry = builtin_registry()
    assert sorted(registry.load(name)) == sorted(["core", name])
    assert sorted(registry.hooks.describe.plugins()) == sorted(["core", name])
    assert registry.state(__unit_names__[1]) == "not loaded"
    assert sorted(builtin_registry(only=[name]).loaded()) == sorted(["core", name])
#@test
def test_registry_errors():
    registry = builtin_registry()
    with pytest.raises(MissingPlugin):
        registry.load("nope")
    with pytest.raises(HookError, match="no hook named 'nohook'"):
        registry.call("nohook")
    with pytest.raises(__Error__, match="SPEC"):
        registry.add_module(json)
#@test catches=file_types
def test_chain_uses_settings_from_the_config_file():
    name = __unit_names__[0]
    config = Config(f"[{name}]\nfactor = 2\noffset = 0\n")
    registry = builtin_registry(config=config)
    assert registry.settings(name)["factor"] == 2
    value = 5
    for other in sorted(__unit_names__, key=lambda n: (-plugin_module(n).SPEC.priority, n)):
        settings = {"factor": 2, "offset": 0} if other == name else plugin_module(other).SPEC.settings
        value = value * settings["factor"] + settings["offset"]
    assert registry.chain("transform", 5) == value
#@test
def test_config_disables_plugins():
    names = __unit_names__
    config = Config(f"[{HOST_SECTION}]\ndisabled = {names[0]}, {names[1]}, unknown\n")
    registry = builtin_registry(config=config)
    assert [registry.state(n) for n in names[:3]] == ["disabled", "disabled", "enabled"]
    assert sorted(registry.enabled()) == sorted(["core", *names[2:]])
#@test
def test_discover_from_a_manifest():
    names = __unit_names__[:2]
    entries = [{"name": "core", "version": str(core.SPEC.version), "module": "__pkg__.core"}]
    entries += [{"name": n, "version": "9.0.0", "requires": {"core": "*"}, "module": f"__pkg__.plugins.{n}", "priority": 1}
                for n in names]
    registry = __Registry__()
    assert registry.discover(json.dumps({KEY: entries})) == [f"core=={core.SPEC.version}"] + [f"{n}==9.0.0" for n in names]
    assert sorted(registry.load(*names)) == sorted(["core", *names])
    assert sorted(registry.call("describe")) == sorted([f"core {core.SPEC.version}"]
                                                       + [f"{n} {plugin_module(n).SPEC.version}" for n in names])
    assert registry.version(names[0]) == "9.0.0"
#@test
def test_discover_refuses_a_missing_module():
    registry = __Registry__()
    text = json.dumps({KEY: [{"name": "ghost", "version": "1.0", "module": "__pkg__.plugins.no_such_plugin"}]})
    with pytest.raises(ManifestError, match=r"ghost 1\.0\.0: cannot import module"):
        registry.discover(text)
    assert registry.catalog.names() == []
#@test
def test_version_pins():
    registry = __Registry__()
    for version in ("1.0", "1.2", "2.0"):
        registry.add(PluginSpec("db", version))
    registry.add(PluginSpec("app", "1.0", requires={"db": ">=1"}))
    registry.load("app", pinned={"db": "1.2"})
    assert registry.version("db") == "1.2.0"
    registry.load("app")
    assert registry.version("db") == "2.0.0"

