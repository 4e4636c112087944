"""All task families, one module per sub-domain; importing this package registers them."""

from ..family import FAMILIES
from . import (algo, bugfix, cli, complete, dates, files, formats, logs, numeric,  # noqa: F401
               regex, shell, sql, text)

__all__ = ["FAMILIES"]
