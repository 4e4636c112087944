"""rlhub-unittest: the `unit_tests` verifier (hidden tests run against model code in the sandbox)."""

__version__ = "0.1.0"
