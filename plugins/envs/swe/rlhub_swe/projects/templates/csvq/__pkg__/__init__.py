"""__pkg__: SQL-like queries over CSV text (SELECT ... WHERE ... GROUP BY ... ORDER BY ... LIMIT)."""

from .csvio import read_csv, write_csv
from .engine import __Database__, __run_query__
from .errors import (ConversionError, __Error__, CsvFormatError, QuerySyntaxError, TypeMismatch, UnknownColumn,
                     UnknownFunction, UnknownTable)
from .parser import parse_expression, __parse_query__
from .table import __Table__

__version__ = "0.__minor__.0"
__all__ = ["ConversionError", "CsvFormatError", "__Database__", "__Error__", "QuerySyntaxError", "__Table__", "TypeMismatch", "UnknownColumn",
           "UnknownFunction", "UnknownTable", "parse_expression", "__parse_query__", "read_csv", "__run_query__",
           "write_csv"]
