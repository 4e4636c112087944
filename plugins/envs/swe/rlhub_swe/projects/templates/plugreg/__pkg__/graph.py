"""The order plugins load in: a directed graph from each plugin to the plugins that need it,
sorted so that every plugin comes after everything it depends on (ties broken by name)."""

from __future__ import annotations

import heapq

from .errors import __Error__, CycleError


class DependencyGraph:
    def __init__(self) -> None:
        self._after: dict[str, set[str]] = {}   # name -> the plugins that need it
        self._before: dict[str, set[str]] = {}  # name -> the plugins it needs

    def add(self, name: str) -> None:
        self._after.setdefault(name, set())
        self._before.setdefault(name, set())

    def add_edge(self, first: str, then: str) -> None:
        """`then` depends on `first`: `first` loads before it."""
        if first == then:
            raise CycleError(f"dependency cycle: {first} -> {first}")
        self.add(first)
        self.add(then)
        self._after[first].add(then)
        self._before[then].add(first)

    def nodes(self) -> list[str]:
        return sorted(self._after)

    def has(self, name: str) -> bool:
        return name in self._after

    def __len__(self) -> int:
        return len(self._after)

    def requires(self, name: str) -> list[str]:
        """The plugins `name` needs directly."""
        return sorted(self._node(name, self._before))

    def needed_by(self, name: str) -> list[str]:
        """The plugins that need `name` directly."""
        return sorted(self._node(name, self._after))

    def _node(self, name: str, edges: dict[str, set[str]]) -> set[str]:
        if name not in edges:
            raise __Error__(f"{name!r} is not in the dependency graph")
        return edges[name]

    def order(self) -> list[str]:
        """Every plugin after the plugins it needs; among those ready at once, by name."""
        waiting = {name: len(needs) for name, needs in self._before.items()}
        ready = [name for name, count in waiting.items() if count == 0]
        heapq.heapify(ready)
        out: list[str] = []
        while ready:
            name = heapq.heappop(ready)
            out.append(name)
            for after in self._after[name]:
                waiting[after] -= 1
                if waiting[after] == 0:
                    heapq.heappush(ready, after)
        if len(out) < len(waiting):
            raise CycleError("dependency cycle: " + " -> ".join(self.find_cycle()))
        return out

    def find_cycle(self) -> list[str]:
        """A cycle as [a, b, ..., a] where a needs b's ... (first by name), or [] if there is none."""
        state: dict[str, int] = {}  # 1: on the current path, 2: done
        path: list[str] = []

        def visit(name: str) -> list[str]:
            state[name] = 1
            path.append(name)
            for nxt in sorted(self._after[name]):
                if state.get(nxt) == 1:
                    return path[path.index(nxt):] + [nxt]
                if nxt not in state:
                    found = visit(nxt)
                    if found:
                        return found
            state[name] = 2
            path.pop()
            return []

        for name in self.nodes():
            if name not in state:
                found = visit(name)
                if found:
                    return found
        return []

    def layers(self) -> list[list[str]]:
        """Plugins grouped by depth: first those needing nothing, then those needing only the first
        group, and so on; each group sorted by name."""
        depth: dict[str, int] = {}
        for name in self.order():
            depth[name] = 1 + max((depth[n] for n in self._before[name]), default=-1)
        out: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
        for name in sorted(depth):
            out[depth[name]].append(name)
        return out

    def dependents(self, name: str, _seen: set | None = None) -> list[str]:  #@if:bug.shared_seen: def dependents(self, name: str, _seen: set = set()) -> list[str]:
        """Every plugin that needs `name`, directly or through others, in load order."""
        self._node(name, self._after)
        seen = set() if _seen is None else _seen  #@if:bug.shared_seen: seen = _seen
        for after in sorted(self._after[name]):
            if after not in seen:
                seen.add(after)
                self.dependents(after, seen)
        return [n for n in self.order() if n in seen]

    def dependencies(self, name: str) -> list[str]:
        """Every plugin `name` needs, directly or through others, in load order."""
        stack, seen = list(self._node(name, self._before)), set()
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self._before[current])
        return [n for n in self.order() if n in seen]

    def subgraph(self, names) -> "DependencyGraph":
        """The graph of `names` only, with the edges between them."""
        keep = set(names)
        out = DependencyGraph()
        for name in sorted(keep):
            out.add(name)
            for after in self._node(name, self._after) & keep:
                out.add_edge(name, after)
        return out
