"""Package mode: the solution is a package of modules in the work dir (`hidden['package']`); the
tests import it and its modules, every one a stand-in served from the solution's process."""

from __future__ import annotations

PACKAGE = {
    "shop/__init__.py": "from .cart import Cart\n",
    "shop/prices.py": "RATE = 20\n\ndef with_tax(cents):\n    return cents + cents * RATE // 100\n",
    "shop/errors.py": "class CartError(ValueError):\n    pass\n",
    "shop/cart.py": (
        "from .errors import CartError\nfrom .prices import with_tax\n\n"
        "class Cart:\n    def __init__(self):\n        self.lines = {}\n\n"
        "    def add(self, sku, cents, qty=1):\n        if qty <= 0:\n            raise CartError(f'bad quantity {qty}')\n"
        "        self.lines[sku] = self.lines.get(sku, 0) + cents * qty\n        return self\n\n"
        "    def total(self):\n        return with_tax(sum(self.lines.values()))\n"),
}

TESTS = """\
import pytest
import shop
import shop.prices
from shop.cart import Cart
from shop import errors


def test_total_with_tax():
    assert Cart().add("a", 100, 2).total() == 240


def test_module_constant_and_function():
    assert shop.prices.RATE == 20 and shop.prices.with_tax(50) == 60


def test_error_class_of_a_module():
    with pytest.raises(errors.CartError, match="bad quantity"):
        Cart().add("a", 1, 0)
    assert issubclass(errors.CartError, ValueError)


def test_instances_are_handles():
    cart = shop.Cart()
    assert isinstance(cart, Cart)
    assert cart.lines == {}


def test_monkeypatch_reaches_the_module(monkeypatch):
    monkeypatch.setattr(shop.prices, "RATE", 0)
    assert Cart().add("a", 100).total() == 100
"""


def test_a_package_is_served_module_by_module(verify_files):
    v = verify_files(TESTS, dict(PACKAGE), package="shop")
    assert (v.reward, v.passed) == (1.0, True), v.details
    assert v.details["tests_total"] == 5


def test_a_bug_in_one_module_fails_the_tests_that_reach_it(verify_files):
    files = dict(PACKAGE, **{"shop/prices.py": PACKAGE["shop/prices.py"].replace("// 100", "// 10")})
    v = verify_files(TESTS, files, package="shop", reward="fraction")
    assert not v.passed and set(v.details["failures"]) == {"test_total_with_tax", "test_module_constant_and_function"}


def test_the_package_runs_in_its_own_process_not_the_runners(verify_files):
    # A module that reaches for the test runner's frames finds none of them: its process never loaded pytest.
    hack = PACKAGE["shop/cart.py"] + "\nimport sys\nassert 'pytest' not in sys.modules and '_pytest' not in sys.modules\n"
    v = verify_files(TESTS, dict(PACKAGE, **{"shop/cart.py": hack}), package="shop")
    assert v.passed, v.details


def test_a_package_that_hangs_at_import_fails_without_hanging_the_run(verify_files):
    files = dict(PACKAGE, **{"shop/errors.py": "while True:\n    pass\n"})
    v = verify_files(TESTS, files, package="shop")
    assert v.reward == 0.0 and not v.passed and v.error is None


def test_no_package_in_the_work_dir_is_a_zero(verify_files):
    v = verify_files(TESTS, {"other.py": "x = 1\n"}, package="shop")
    assert v.reward == 0.0 and "shop/__init__.py" in v.details["reason"]
