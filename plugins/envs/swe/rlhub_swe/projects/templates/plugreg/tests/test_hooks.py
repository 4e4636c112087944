import pytest
from __pkg__ import core
from __pkg__.errors import HookError
from __pkg__.hooks import HookCaller, HookSpec
from __pkg__.markers import hookimpl, options_of
from __pkg__.plugins import plugin_module
#@test visible
def test_callers_follow_priority():
    first, second = __unit_names__[0], __unit_names__[1]
    caller = HookCaller(HookSpec("describe", ()))
    caller.add("one", plugin_module(first).describe, priority=1)
    caller.add("two", plugin_module(second).describe, priority=5)
    caller.add("three", core.describe)
    assert caller.plugins() == ["two", "one", "three"]
    versions = [str(plugin_module(n).SPEC.version) for n in (second, first)]
    assert caller.call() == [f"{second} {versions[0]}", f"{first} {versions[1]}", f"core {core.SPEC.version}"]
#@test visible
def test_equal_priority_keeps_the_order_added():
    caller = HookCaller(HookSpec("describe", ()))
    for plugin, name in zip(("c", "a", "b"), __unit_names__):
        caller.add(plugin, plugin_module(name).describe)
    assert caller.plugins() == ["c", "a", "b"]
#@test catches=hook_order
def test_tryfirst_and_trylast():
    names = __unit_names__
    caller = HookCaller(HookSpec("describe", ()))
    caller.add("late", plugin_module(names[0]).describe, priority=100, trylast=True)
    caller.add("mid", plugin_module(names[1]).describe, priority=1)
    caller.add("early", plugin_module(names[2]).describe, priority=-5, tryfirst=True)
    caller.add("low", core.describe, priority=-1)
    assert caller.plugins() == ["early", "mid", "low", "late"]
#@test
def test_firstresult_hooks():
    name = __unit_names__[0]
    module = plugin_module(name)
    caller = HookCaller(HookSpec("handles", ("path",), firstresult=True))
    caller.add(name, module.handles)
    assert caller.call(path="notes.unknownext") is None
    assert caller.call(path="DATA." + module.EXTENSION.upper()) == name
    caller.add("core", core.handles, priority=-1)
    assert caller.call(path="notes.unknownext") == "core"
    assert caller.call(path="x." + module.EXTENSION) == name
    plain = HookCaller(HookSpec("handles", ("path",)))
    plain.add(name, module.handles)
    plain.add("core", core.handles)
    assert plain.call(path="notes.unknownext") == ["core"]
#@test
def test_chain_hooks():
    name = __unit_names__[0]
    caller = HookCaller(HookSpec("transform", ("value", "settings"), chain=True))
    caller.add(name, plugin_module(name).transform)
    caller.add("core", core.transform, tryfirst=True)
    assert caller.chain("7", extra={name: {"settings": {"factor": 3, "offset": 1}}}) == 22
    assert caller.chain(2.9, skip={name}) == 2
    assert caller.chain(5, skip={name, "core"}) == 5
#@test
def test_bad_implementations_and_calls():
    name = __unit_names__[0]
    caller = HookCaller(HookSpec("describe", ()))
    with pytest.raises(HookError, match="does not pass"):
        caller.add(name, plugin_module(name).handles)
    caller.add(name, plugin_module(name).describe)
    with pytest.raises(HookError, match="already implements"):
        caller.add(name, core.describe)
    with pytest.raises(HookError, match="no argument"):
        caller.call(path="x")
    with pytest.raises(HookError, match="both"):
        caller.add("other", core.describe, tryfirst=True, trylast=True)
    chain = HookCaller(HookSpec("transform", ("value", "settings", "path"), chain=True))
    with pytest.raises(HookError, match="must take 'value'"):
        chain.add("core", core.handles)
    needs = HookCaller(HookSpec("handles", ("path",)))
    needs.add(name, plugin_module(name).handles)
    with pytest.raises(HookError, match="without path"):
        needs.call()
#@test
def test_markers():
    assert options_of(core.describe) == {"priority": None, "tryfirst": False, "trylast": True, "name": None}
    assert options_of(core.transform)["tryfirst"] is True
    assert options_of(plugin_module(__unit_names__[0]).check) is None
    with pytest.raises(HookError):
        hookimpl(tryfirst=True, trylast=True)
    with pytest.raises(HookError):
        hookimpl(priority="high")
#@test
def test_remove_and_call_one_plugin():
    name = __unit_names__[0]
    caller = HookCaller(HookSpec("describe", ()))
    caller.add(name, plugin_module(name).describe)
    caller.add("core", core.describe)
    assert caller.call_plugin("core") == f"core {core.SPEC.version}"
    assert caller.call_plugin("nobody") is None
    assert caller.remove(name) is True
    assert caller.remove(name) is False
    assert caller.plugins() == ["core"]

