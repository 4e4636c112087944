"""rlhub-cad: parametric CadQuery part families as rlhub environments.

Each family samples validated parameters from a seeded rng, writes the reference CadQuery
script, and describes the part at several levels of detail. `kinds` turns a family into task
kinds (text to code, edit, repair, image); `plugin` registers every (family, kind) pair.
"""

from .family import Family, Edit
from .families import FAMILIES

__all__ = ["Family", "Edit", "FAMILIES"]
