"""Algorithms and data structures families."""

from __future__ import annotations

from ..family import WORDS, family, function_spec, pick


def _ints(rng, n, lo=-20, hi=50):
    return [rng.randint(lo, hi) for _ in range(n)]


@family("algo", "interval-merge")
def interval_merge(rng):
    """Merge overlapping or touching closed intervals."""
    cases = []
    for _ in range(4):
        iv = []
        for _ in range(rng.randint(2, 7)):
            a = rng.randint(0, 40)
            iv.append([a, a + rng.randint(0, 8)])
        cases.append((iv,))
    cases += [([[5, 6], [1, 3], [3, 4]],), ([],)]
    cases += [([[1, 2], [5, 6], [6, 9], [8, 12]],), ([[1, 10], [2, 3]],), ([[1, 2], [5, 9], [6, 7]],)]  # merges after the first; one inside another
    ref = '''
def merge_intervals(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out
'''
    wrong = ['''
def merge_intervals(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a < out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out
''']
    prompt = ("Write `merge_intervals(intervals)`: given closed intervals [a, b] (lists, any order), return the sorted "
              "list of merged intervals, merging intervals that overlap or touch (e.g. [1,3] and [3,4] -> [1,4]).")
    return function_spec(prompt, "merge_intervals", ref, wrong, cases)


@family("algo", "topo-order")
def topo_order(rng):
    """Lexicographically smallest topological order, None on cycles."""
    cases = []
    for _ in range(4):
        nodes = pick(rng, WORDS, rng.randint(3, 6))
        deps = {n: sorted(rng.sample(nodes[:i], rng.randint(0, min(2, i)))) for i, n in enumerate(nodes)}
        cases.append((deps,))
    a, b, c = pick(rng, WORDS, 3)
    cases += [({a: [b], b: [c], c: [a]},), ({a: [], b: [a], c: []},)]
    ref = '''
import heapq

def build_order(deps):
    nodes = set(deps) | {d for ds in deps.values() for d in ds}
    indeg = {n: 0 for n in nodes}
    users = {n: [] for n in nodes}
    for n, ds in deps.items():
        for d in ds:
            indeg[n] += 1
            users[d].append(n)
    ready = [n for n in nodes if indeg[n] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        n = heapq.heappop(ready)
        order.append(n)
        for u in users[n]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, u)
    return order if len(order) == len(nodes) else None
'''
    wrong = ['''
def build_order(deps):
    order, seen = [], set()
    def visit(n):
        if n in seen:
            return
        seen.add(n)
        for d in sorted(deps.get(n, [])):
            visit(d)
        order.append(n)
    for n in sorted(deps):
        visit(n)
    return order
''']
    prompt = ("Write `build_order(deps)`: `deps` maps each item to the list of items it depends on (which must come "
              "first). Return the dependency order that is lexicographically smallest (at each step, the alphabetically "
              "first item whose dependencies are done), including items that only appear as dependencies; return None "
              "if there is a cycle.")
    return function_spec(prompt, "build_order", ref, wrong, cases)


@family("algo", "weighted-shortest-path")
def weighted_shortest_path(rng):
    """Dijkstra over an undirected weighted edge list; -1 if unreachable."""
    cases = []
    for _ in range(4):
        n = rng.randint(4, 7)
        edges = [[rng.randrange(n), rng.randrange(n), rng.randint(1, 20)] for _ in range(rng.randint(n, 2 * n))]
        cases.append((edges, 0, n - 1))
    cases += [([[0, 1, 10], [0, 2, 1], [2, 3, 1], [3, 1, 1]], 0, 1), ([[0, 1, 1]], 0, 5)]
    # a source that is not node 0 (the best path passing through 0); an unreachable target beyond a cycle
    cases += [([[1, 2, 3], [2, 3, 4], [1, 3, 9], [1, 0, 1], [0, 3, 1]], 1, 3), ([[0, 1, 1], [1, 2, 1], [2, 0, 1]], 0, 9)]
    stale = "a stale heap entry (longer than the best known) relaxes no edge to anything shorter: the same distances"
    equivalent = {"-> `if d + w <= dist.get(m,": "an equal path pushed again changes no distance",
                  "-> `if d < dist.get(n,": "a popped entry is never shorter than its node's best: the skip never fires, " + stale,
                  "StatementRemoved: `if d > dist.get(n,": stale, "StatementRemoved: `continue` -> `pass`": stale,
                  "-> `dist, heap = {src: 1}, [(0, src)]`": "no edge of weight >= 1 leads back to src under either bound"}
    ref = '''
import heapq

def shortest(edges, src, dst):
    graph = {}
    for a, b, w in edges:
        graph.setdefault(a, []).append((b, w))
        graph.setdefault(b, []).append((a, w))
    dist, heap = {src: 0}, [(0, src)]
    while heap:
        d, n = heapq.heappop(heap)
        if n == dst:
            return d
        if d > dist.get(n, float("inf")):
            continue
        for m, w in graph.get(n, []):
            if d + w < dist.get(m, float("inf")):
                dist[m] = d + w
                heapq.heappush(heap, (d + w, m))
    return -1
'''
    wrong = ['''
from collections import deque

def shortest(edges, src, dst):
    graph = {}
    for a, b, w in edges:
        graph.setdefault(a, []).append((b, w))
        graph.setdefault(b, []).append((a, w))
    dist, queue = {src: 0}, deque([src])
    while queue:
        n = queue.popleft()
        for m, w in graph.get(n, []):
            if m not in dist:
                dist[m] = dist[n] + w
                queue.append(m)
    return dist.get(dst, -1)
''']
    prompt = ("Write `shortest(edges, src, dst)`: `edges` is a list of [a, b, weight] undirected edges between integer "
              "nodes (positive weights). Return the smallest total weight of a path from src to dst, 0 if src == dst, "
              "-1 if dst cannot be reached.")
    spec = function_spec(prompt, "shortest", ref, wrong, cases)
    spec.equivalent.update(equivalent)
    return spec


@family("algo", "lru-evictions")
def lru_evictions(rng):
    """Simulate an LRU cache and report evicted keys."""
    cases = []
    for _ in range(4):
        keys = pick(rng, WORDS, 5)
        cases.append((rng.randint(2, 3), [rng.choice(keys) for _ in range(rng.randint(6, 14))]))
    cases.append((2, ["a", "b", "a", "c", "b"]))
    equivalent = {"-> `cache[key] = False`": "the cache's values are never read: only its keys and their order"}
    ref = '''
from collections import OrderedDict

def evictions(capacity, accesses):
    cache, out = OrderedDict(), []
    for key in accesses:
        if key in cache:
            cache.move_to_end(key)
            continue
        if len(cache) == capacity:
            out.append(cache.popitem(last=False)[0])
        cache[key] = True
    return out
'''
    wrong = ['''
from collections import OrderedDict

def evictions(capacity, accesses):
    cache, out = OrderedDict(), []
    for key in accesses:
        if key in cache:
            continue
        if len(cache) == capacity:
            out.append(cache.popitem(last=False)[0])
        cache[key] = True
    return out
''']
    prompt = ("Write `evictions(capacity, accesses)` simulating a least-recently-used cache of `capacity` keys over the "
              "access sequence (an access to a cached key makes it most recent; a miss on a full cache evicts the least "
              "recently used key). Return the evicted keys in order.")
    spec = function_spec(prompt, "evictions", ref, wrong, cases)
    spec.equivalent.update(equivalent)
    return spec


@family("algo", "bracket-check")
def bracket_check(rng):
    """Index of the first bracket error."""
    cases = []
    for _ in range(4):
        s = "".join(rng.choice("()[]{}xy") for _ in range(rng.randint(4, 12)))
        cases.append((s,))
    cases += [("([)]",), ("{[()]}",), ("((",), ("",), ("a]",)]
    ref = '''
def first_error(s):
    pairs, stack = {")": "(", "]": "[", "}": "{"}, []
    for i, ch in enumerate(s):
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return i
    return len(s) if stack else -1
'''
    wrong = ['''
def first_error(s):
    depth = 0
    for i, ch in enumerate(s):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return i
    return len(s) if depth else -1
''']
    prompt = ("Write `first_error(s)` checking brackets ()[]{} in `s` (other characters ignored): return the index of "
              "the first closing bracket that does not match, len(s) if brackets are left open at the end, or -1 if all "
              "are balanced.")
    return function_spec(prompt, "first_error", ref, wrong, cases)


@family("algo", "sliding-max")
def sliding_max(rng):
    """Maximum of every window of size k."""
    cases = [(_ints(rng, rng.randint(5, 12)), rng.randint(1, 4)) for _ in range(4)]
    cases += [([3, 1, 2], 3), ([1, 2], 3), ([5, 1, 3, 0], 3)]  # after the maximum leaves, the next largest
    equivalent = {"-> `while dq and xs[dq[-1]] < x:`": "an equal value kept behind its twin: the same maximum"}
    ref = '''
from collections import deque

def window_max(xs, k):
    out, dq = [], deque()
    for i, x in enumerate(xs):
        while dq and xs[dq[-1]] <= x:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            out.append(xs[dq[0]])
    return out
'''
    wrong = ['''
def window_max(xs, k):
    return [max(xs[i:i + k]) for i in range(len(xs) - k)]
''']
    prompt = ("Write `window_max(xs, k)` returning the maximum of each contiguous window of length k of the list `xs`, "
              "in order ([] if the list is shorter than k).")
    spec = function_spec(prompt, "window_max", ref, wrong, cases)
    spec.equivalent.update(equivalent)
    return spec


@family("algo", "coin-change")
def coin_change(rng):
    """Fewest coins for an amount (where greedy fails)."""
    coins = rng.choice([[1, 3, 4], [1, 5, 6, 9], [2, 5], [1, 7, 10]])
    cases = [(coins, rng.randint(0, 40)) for _ in range(4)]
    cases += [([1, 3, 4], 6), ([2], 3), ([1, 5, 6, 9], 11)]
    ref = '''
def min_coins(coins, amount):
    best = [0] + [None] * amount
    for a in range(1, amount + 1):
        options = [best[a - c] for c in coins if c <= a and best[a - c] is not None]
        best[a] = min(options) + 1 if options else None
    return -1 if best[amount] is None else best[amount]
'''
    wrong = ['''
def min_coins(coins, amount):
    n = 0
    for c in sorted(coins, reverse=True):
        n += amount // c
        amount %= c
    return n if amount == 0 else -1
''']
    prompt = ("Write `min_coins(coins, amount)` returning the fewest coins (unlimited supply of each value in `coins`) "
              "that sum to exactly `amount`, or -1 if impossible.")
    return function_spec(prompt, "min_coins", ref, wrong, cases)


@family("algo", "edit-distance")
def edit_distance(rng):
    """Levenshtein distance."""
    cases = [(rng.choice(WORDS), rng.choice(WORDS)) for _ in range(4)]
    cases += [("kitten", "sitting"), ("", "abc"), ("flaw", "lawn"), ("abc", "abd")]
    ref = '''
def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
'''
    wrong = ['''
def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] if ca == cb else 10**9))
        prev = cur
    return prev[-1]
''']
    prompt = "Write `edit_distance(a, b)`: the minimum number of single-character insertions, deletions and substitutions turning a into b."
    return function_spec(prompt, "edit_distance", ref, wrong, cases)


@family("algo", "union-find-groups")
def union_find_groups(rng):
    """Connected components sizes via union-find."""
    cases = []
    for _ in range(4):
        n = rng.randint(3, 10)
        cases.append((n, [[rng.randrange(n), rng.randrange(n)] for _ in range(rng.randint(0, n))]))
    cases.append((5, [[0, 1], [1, 2]]))
    ref = '''
def group_sizes(n, pairs):
    parent = list(range(n))
    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in pairs:
        parent[find(a)] = find(b)
    sizes = {}
    for x in range(n):
        sizes[find(x)] = sizes.get(find(x), 0) + 1
    return sorted(sizes.values(), reverse=True)
'''
    wrong = ['''
def group_sizes(n, pairs):
    groups = []
    for a, b in pairs:
        for g in groups:
            if a in g or b in g:
                g.update((a, b))
                break
        else:
            groups.append({a, b})
    seen = set().union(*groups) if groups else set()
    return sorted([len(g) for g in groups] + [1] * (n - len(seen)), reverse=True)
''']
    prompt = ("Write `group_sizes(n, pairs)`: items 0..n-1, each pair [a, b] says a and b are in the same group "
              "(transitively). Return the sizes of all groups, largest first (singletons count as groups of 1).")
    cases.append((6, [[0, 1], [2, 3], [1, 2]]))
    return function_spec(prompt, "group_sizes", ref, wrong, cases)


@family("algo", "insert-position")
def insert_position(rng):
    """Leftmost insertion index in a sorted list with duplicates."""
    cases = []
    for _ in range(5):
        xs = sorted(_ints(rng, rng.randint(0, 10), 0, 9))
        cases.append((xs, rng.choice(xs) if xs else 3))
    cases += [([1, 2, 2, 2, 3], 2), ([], 5), ([1, 3], 4)]
    ref = '''
def insert_position(xs, x):
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo
'''
    wrong = ['''
def insert_position(xs, x):
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo
''']
    prompt = ("Write `insert_position(xs, x)` for a sorted list `xs`: the leftmost index at which x can be inserted "
              "keeping it sorted (before any equal elements). Do not use the bisect module.")
    spec = function_spec(prompt, "insert_position", ref, wrong, cases, forbidden=("bisect",))
    spec.clauses["Do not use the bisect module."] = "import bisect\n\n\ndef insert_position(xs, x):\n    return bisect.bisect_left(xs, x)\n"
    return spec


@family("algo", "spiral-order")
def spiral_order(rng):
    """Clockwise spiral traversal of a rectangular matrix."""
    cases = []
    for _ in range(4):
        r, c = rng.randint(1, 4), rng.randint(1, 5)
        cases.append(([[rng.randint(0, 9) for _ in range(c)] for _ in range(r)],))
    cases += [([[1, 2, 3], [4, 5, 6]],), ([[1], [2], [3]],), ([],)]
    ref = '''
def spiral(m):
    out = []
    m = [list(r) for r in m]
    while m:
        out += m.pop(0)
        m = [list(r) for r in zip(*m)][::-1]
    return out
'''
    wrong = ['''
def spiral(m):
    out, n = [], len(m)
    for layer in range((n + 1) // 2):
        for j in range(layer, n - layer):
            out.append(m[layer][j])
        for i in range(layer + 1, n - layer):
            out.append(m[i][n - layer - 1])
        for j in range(n - layer - 2, layer - 1, -1):
            if n - layer - 1 != layer:
                out.append(m[n - layer - 1][j])
        for i in range(n - layer - 2, layer, -1):
            out.append(m[i][layer])
    return out
''']
    prompt = "Write `spiral(m)` returning the elements of a rectangular matrix (list of rows) in clockwise spiral order starting at the top-left."
    spec = function_spec(prompt, "spiral", ref, wrong, cases)
    spec.equivalent["StatementRemoved: `m = [list(r) for r in m]` -> `pass`"] = (
        "the copy only spares the caller's matrix, which the task does not ask about: the same result")
    return spec


@family("algo", "lis-length")
def lis_length(rng):
    """Longest strictly increasing subsequence length."""
    cases = [(_ints(rng, rng.randint(0, 12)),) for _ in range(4)]
    cases += [([5, 1, 6, 2, 7, 3, 8],), ([2, 2, 2],)]
    ref = '''
import bisect

def lis_length(xs):
    tails = []
    for x in xs:
        i = bisect.bisect_left(tails, x)
        tails[i:i + 1] = [x]
    return len(tails)
'''
    wrong = ['''
def lis_length(xs):
    best = run = 0
    for i, x in enumerate(xs):
        run = run + 1 if i and x > xs[i - 1] else 1
        best = max(best, run)
    return best
''']
    prompt = "Write `lis_length(xs)`: the length of the longest strictly increasing subsequence (not necessarily contiguous) of the list."
    return function_spec(prompt, "lis_length", ref, wrong, cases)


@family("algo", "knapsack")
def knapsack(rng):
    """0/1 knapsack best value."""
    cases = []
    for _ in range(4):
        items = [[rng.randint(1, 9), rng.randint(1, 30)] for _ in range(rng.randint(2, 7))]
        cases.append((items, rng.randint(5, 20)))
    cases.append(([[5, 10], [4, 7], [4, 7]], 8))
    ref = '''
def best_value(items, capacity):
    best = [0] * (capacity + 1)
    for weight, value in items:
        for c in range(capacity, weight - 1, -1):
            best[c] = max(best[c], best[c - weight] + value)
    return best[capacity]
'''
    wrong = ['''
def best_value(items, capacity):
    total = 0
    for weight, value in sorted(items, key=lambda it: -it[1] / it[0]):
        if weight <= capacity:
            capacity -= weight
            total += value
    return total
''']
    prompt = "Write `best_value(items, capacity)`: items are [weight, value] pairs, each usable at most once; return the largest total value with total weight <= capacity."
    return function_spec(prompt, "best_value", ref, wrong, cases)


@family("algo", "roman-numerals")
def roman_numerals(rng):
    """Integer to Roman numerals with subtractive forms."""
    cases = [(rng.randint(1, 3999),) for _ in range(5)] + [(4,), (1994,), (3999,), (40,)]
    ref = '''
VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]

def to_roman(n):
    out = ""
    for value, sym in VALUES:
        while n >= value:
            out += sym
            n -= value
    return out
'''
    wrong = ['''
VALUES = [(1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I")]

def to_roman(n):
    out = ""
    for value, sym in VALUES:
        while n >= value:
            out += sym
            n -= value
    return out
''']
    return function_spec("Write `to_roman(n)` converting 1 <= n <= 3999 to Roman numerals (standard subtractive forms such as IV, XC, CM).",
                         "to_roman", ref, wrong, cases)
