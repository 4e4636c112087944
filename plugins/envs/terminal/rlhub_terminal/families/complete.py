"""Complete-the-module families: the prompt shows a module with TODO stubs; the hidden tests
drive it through the module's own `run(...)` entry point."""

from __future__ import annotations

from ..family import NAMES, WORDS, family, function_spec


def complete(entry, what, partial, full, wrong, cases, equivalent=None):
    prompt = (f"Complete this module: implement every function or method marked TODO so that {what}. Keep everything "
              f"else as it is.\n\n```python\n{partial.strip()}\n```")
    spec = function_spec(prompt, entry, full, [partial, wrong], cases, show=0)
    spec.equivalent.update(equivalent or {})
    return spec


@family("complete", "complete-inventory")
def complete_inventory(rng):
    """Inventory class with validation, driven by an operations list."""
    items = rng.sample(WORDS, 3)
    cases = []
    for _ in range(4):
        ops = [[rng.choice(["add", "add", "remove"]), rng.choice(items), rng.randint(1, 6)] for _ in range(rng.randint(3, 8))]
        cases.append((ops,))
    cases.append(([["add", items[0], 2], ["remove", items[0], 3], ["remove", items[1], 1], ["add", items[1], 0]],))
    cases.append(([["add", items[0], 2], ["remove", items[0], 0], ["add", items[1], -1], ["remove", items[0], -2]],))
    head = '''
class Inventory:
    def __init__(self):
        self.stock = {}
'''
    tail = '''

def run(ops):
    inv, log = Inventory(), []
    for op, item, qty in ops:
        try:
            getattr(inv, op)(item, qty)
            log.append("ok")
        except ValueError as exc:
            log.append(f"error: {exc}")
    return log, inv.report()
'''
    partial = head + '''
    def add(self, item, qty):
        # TODO: qty must be positive (ValueError "bad quantity"); increase the stock
        raise NotImplementedError

    def remove(self, item, qty):
        # TODO: ValueError "bad quantity" for qty <= 0, "not enough <item>" when stock is short
        raise NotImplementedError

    def report(self):
        # TODO: sorted list of "<item>: <qty>" for items with stock > 0
        raise NotImplementedError
''' + tail
    full = head + '''
    def add(self, item, qty):
        if qty <= 0:
            raise ValueError("bad quantity")
        self.stock[item] = self.stock.get(item, 0) + qty

    def remove(self, item, qty):
        if qty <= 0:
            raise ValueError("bad quantity")
        if self.stock.get(item, 0) < qty:
            raise ValueError(f"not enough {item}")
        self.stock[item] -= qty

    def report(self):
        return [f"{k}: {v}" for k, v in sorted(self.stock.items()) if v > 0]
''' + tail
    wrong = head + '''
    def add(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty

    def remove(self, item, qty):
        self.stock[item] = max(0, self.stock.get(item, 0) - qty)

    def report(self):
        return [f"{k}: {v}" for k, v in sorted(self.stock.items())]
''' + tail
    return complete("run", "`run(ops)` returns the log and the final report", partial, full, wrong, cases, {
        "-> `if self.stock.get(item, -1) < qty:`": "qty is at least 1 here (qty <= 0 raised): -1 and 0 are both short"})


@family("complete", "complete-rpn")
def complete_rpn(rng):
    """Reverse-Polish calculator: tokenizer and evaluator stubs."""
    def expr():
        a, b, c = rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 9)
        return rng.choice([f"{a} {b} +", f"{a} {b} {c} * -", f"{a} {b} - {c} *", f"{a}{b} {c} /", f"-{a} {b} *"])
    cases = [(expr(),) for _ in range(5)] + [("1 +",), ("4 0 /",), ("2 3",), ("7 2 /",)]
    head = '''
class RPNError(Exception):
    pass

'''
    tail = '''

def run(text):
    try:
        return evaluate(text)
    except RPNError as exc:
        return f"error: {exc}"
'''
    partial = head + '''
def evaluate(text):
    """Evaluate space-separated RPN with integer operands (may be negative) and + - * /.
    / is exact division returning a float. Errors (RPNError): "stack underflow" when an
    operator lacks operands, "division by zero", "leftover operands" if more than one value
    remains at the end."""
    # TODO
    raise NotImplementedError
''' + tail
    full = head + '''
def evaluate(text):
    stack = []
    for tok in text.split():
        if tok in ("+", "-", "*", "/"):
            if len(stack) < 2:
                raise RPNError("stack underflow")
            b, a = stack.pop(), stack.pop()
            if tok == "/":
                if b == 0:
                    raise RPNError("division by zero")
                stack.append(a / b)
            else:
                stack.append(a + b if tok == "+" else a - b if tok == "-" else a * b)
        else:
            stack.append(int(tok))
    if len(stack) != 1:
        raise RPNError("leftover operands")
    return stack[0]
''' + tail
    wrong = head + '''
def evaluate(text):
    stack = []
    for tok in text.split():
        if tok in ("+", "-", "*", "/"):
            a, b = stack.pop(), stack.pop()
            stack.append(eval(f"{a} {tok} {b}"))
        else:
            stack.append(int(tok))
    return stack[-1]
''' + tail
    return complete("run", "`run(text)` returns the value or the error message", partial, full, wrong, cases)


@family("complete", "complete-rate-limiter")
def complete_rate_limiter(rng):
    """Token bucket with explicit timestamps."""
    cap, rate = rng.randint(2, 5), rng.choice([0.5, 1.0, 2.0])
    cases = []
    for _ in range(4):
        t, times = 0.0, []
        for _ in range(rng.randint(5, 12)):
            t += rng.choice([0, 0, 0.25, 0.5, 1, 3])
            times.append(t)
        cases.append((cap, rate, times))
    cases.append((2, 1.0, [0, 0, 0, 0.5, 1.0, 10, 10, 10]))
    tail = '''

def run(capacity, rate, times):
    bucket = Bucket(capacity, rate)
    return [bucket.allow(t) for t in times]
'''
    partial = '''
class Bucket:
    """Token bucket: starts full with `capacity` tokens; refills `rate` tokens per second
    (continuously, never above capacity); each allowed request takes one token."""

    def __init__(self, capacity, rate):
        self.capacity, self.rate = capacity, rate
        # TODO: initial state

    def allow(self, now):
        # TODO: refill for the time since the last call, then take a token if there is one
        raise NotImplementedError
''' + tail
    full = '''
class Bucket:
    def __init__(self, capacity, rate):
        self.capacity, self.rate = capacity, rate
        self.tokens, self.last = float(capacity), None

    def allow(self, now):
        if self.last is not None:
            self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
''' + tail
    wrong = '''
class Bucket:
    def __init__(self, capacity, rate):
        self.capacity, self.rate = capacity, rate
        self.tokens, self.last = capacity, 0

    def allow(self, now):
        self.tokens = self.tokens + (now - self.last) * self.rate
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
''' + tail
    return complete("run", "`run(capacity, rate, times)` returns which requests are allowed", partial, full, wrong, cases)


@family("complete", "complete-ledger")
def complete_ledger(rng):
    """Bank ledger with transfers and overdraft checks."""
    people = rng.sample(NAMES, 3)
    cases = []
    for _ in range(4):
        ops = [["deposit", rng.choice(people), rng.randint(1, 50)] for _ in range(2)]
        ops += [["transfer", rng.choice(people), rng.choice(people), rng.randint(1, 60)] for _ in range(rng.randint(2, 5))]
        cases.append((ops,))
    cases.append(([["deposit", people[0], 10], ["transfer", people[0], people[1], 11], ["transfer", people[0], people[0], 5], ["deposit", people[1], 3], ["transfer", people[0], people[1], 10]],))
    cases.append(([["deposit", people[0], 4], ["transfer", people[2], people[0], 1]],))  # from an account never seen
    tail = '''

def run(ops):
    ledger, out = Ledger(), []
    for op, *args in ops:
        out.append(getattr(ledger, op)(*args))
    return out, ledger.balances()
'''
    partial = '''
class Ledger:
    def __init__(self):
        self.accounts = {}

    def deposit(self, who, amount):
        self.accounts[who] = self.accounts.get(who, 0) + amount
        return "ok"

    def transfer(self, src, dst, amount):
        # TODO: return "insufficient funds" (and change nothing) if src has less than amount,
        # "same account" if src == dst, else move the money and return "ok"
        raise NotImplementedError

    def balances(self):
        # TODO: dict of every account that ever appeared, sorted by name
        raise NotImplementedError
''' + tail
    full = '''
class Ledger:
    def __init__(self):
        self.accounts = {}

    def deposit(self, who, amount):
        self.accounts[who] = self.accounts.get(who, 0) + amount
        return "ok"

    def transfer(self, src, dst, amount):
        if src == dst:
            return "same account"
        if self.accounts.get(src, 0) < amount:
            return "insufficient funds"
        self.accounts[src] -= amount
        self.accounts[dst] = self.accounts.get(dst, 0) + amount
        return "ok"

    def balances(self):
        return dict(sorted(self.accounts.items()))
''' + tail
    wrong = '''
class Ledger:
    def __init__(self):
        self.accounts = {}

    def deposit(self, who, amount):
        self.accounts[who] = self.accounts.get(who, 0) + amount
        return "ok"

    def transfer(self, src, dst, amount):
        if self.accounts.get(src, 0) < amount:
            return "insufficient funds"
        self.accounts[src] = self.accounts.get(src, 0) - amount
        self.accounts[dst] = self.accounts.get(dst, 0) + amount
        return "ok"

    def balances(self):
        return dict(sorted(self.accounts.items()))
''' + tail
    return complete("run", "`run(ops)` returns each operation's result and the final balances", partial, full, wrong, cases, {
        "-> `if self.accounts.get(src, -1) < amount:`": "amounts are at least 1: an unseen account is short with -1 or 0"})


@family("complete", "complete-matrix")
def complete_matrix(rng):
    """Small Matrix class: transpose, multiply, shape errors."""
    def mat(r, c):
        return [[rng.randint(-3, 3) for _ in range(c)] for _ in range(r)]
    cases = []
    for _ in range(4):
        r, k, c = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
        cases.append((mat(r, k), mat(k, c) if rng.random() < 0.8 else mat(k + 1, c)))
    cases.append(([[1, 2, 3]], [[1], [2], [3]]))
    tail = '''

def run(a, b):
    try:
        return (Matrix(a) @ Matrix(b)).rows, Matrix(a).T.rows
    except ValueError as exc:
        return str(exc)
'''
    partial = '''
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    @property
    def T(self):
        # TODO: the transpose, as a new Matrix
        raise NotImplementedError

    def __matmul__(self, other):
        # TODO: matrix product; ValueError("shape mismatch") if the inner sizes differ
        raise NotImplementedError
''' + tail
    full = '''
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    @property
    def T(self):
        return Matrix([list(c) for c in zip(*self.rows)])

    def __matmul__(self, other):
        if len(self.rows[0]) != len(other.rows):
            raise ValueError("shape mismatch")
        cols = other.T.rows
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in cols] for r in self.rows])
''' + tail
    wrong = '''
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    @property
    def T(self):
        return Matrix([list(c) for c in zip(*self.rows)])

    def __matmul__(self, other):
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in other.rows] for r in self.rows])
''' + tail
    return complete("run", "`run(a, b)` returns the product and a's transpose, or the error", partial, full, wrong, cases)
