import pytest
from __pkg__.errors import __Error__, CycleError
from __pkg__.graph import DependencyGraph
#@test visible
def test_order_puts_dependencies_first():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    assert graph.order() == ["core", "auth", "admin", "cache"]
#@test visible
def test_plugins_ready_together_are_ordered_by_name():
    graph = DependencyGraph()
    for name in ("zeta", "alpha", "mid"):
        graph.add(name)
    graph.add_edge("zeta", "beta")
    assert graph.order() == ["alpha", "mid", "zeta", "beta"]
    assert graph.nodes() == ["alpha", "beta", "mid", "zeta"]
#@test visible
def test_cycles_are_reported():
    graph = DependencyGraph()
    graph.add_edge("a", "b")
    graph.add_edge("b", "c")
    graph.add_edge("c", "a")
    with pytest.raises(CycleError, match="a -> b -> c -> a"):
        graph.order()
#@test
def test_self_dependency_and_cycles():
    graph = DependencyGraph()
    with pytest.raises(CycleError, match="x -> x"):
        graph.add_edge("x", "x")
    graph.add_edge("root", "a")
    graph.add_edge("a", "b")
    graph.add_edge("b", "c")
    assert graph.find_cycle() == []
    graph.add_edge("c", "b")
    assert graph.find_cycle() == ["b", "c", "b"]
    with pytest.raises(CycleError, match="b -> c -> b"):
        graph.order()
#@test
def test_layers():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add_edge("cache", "admin")
    graph.add("lonely")
    assert graph.layers() == [["core", "lonely"], ["auth", "cache"], ["admin"]]
    assert DependencyGraph().layers() == []
#@test
def test_direct_neighbours():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("core", "cache")
    graph.add_edge("auth", "admin")
    graph.add_edge("cache", "admin")
    assert graph.requires("admin") == ["auth", "cache"]
    assert graph.needed_by("core") == ["auth", "cache"]
    assert graph.requires("core") == []
    assert (len(graph), graph.has("auth"), graph.has("nope")) == (4, True, False)
    with pytest.raises(__Error__, match="nope"):
        graph.requires("nope")
#@test catches=shared_seen
def test_dependents_transitive():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add("other")
    assert graph.dependents("core") == ["auth", "admin", "cache"]
    assert graph.dependents("auth") == ["admin"]
    assert graph.dependents("admin") == []
    assert graph.dependents("other") == []
#@test catches=shared_seen
def test_dependents_of_separate_graphs():
    first = DependencyGraph()
    first.add_edge("x", "y")
    second = DependencyGraph()
    second.add_edge("x", "z")
    second.add_edge("y", "z")
    assert first.dependents("x") == ["y"]
    assert second.dependents("x") == ["z"]
    assert second.dependents("y") == ["z"]
    assert first.dependents("y") == []
#@test
def test_dependents_of_an_unknown_plugin():
    with pytest.raises(__Error__, match="nope"):
        DependencyGraph().dependents("nope")
#@test
def test_dependencies_transitive():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    graph.add_edge("db", "admin")
    assert graph.dependencies("admin") == ["core", "auth", "db"]
    assert graph.dependencies("cache") == ["core"]
    assert graph.dependencies("core") == []
#@test
def test_subgraph():
    graph = DependencyGraph()
    graph.add_edge("core", "auth")
    graph.add_edge("auth", "admin")
    graph.add_edge("core", "cache")
    sub = graph.subgraph(["auth", "admin", "cache"])
    assert sub.order() == ["auth", "admin", "cache"]
    assert sub.requires("admin") == ["auth"]
    assert sub.requires("cache") == []

