"""rlhub-terminal: seeded terminal coding environments (Python, bash, SQL), single- and multi-turn."""

__version__ = "0.1.0"
