"""The command line: run a query over CSV files and print the result as a table or as CSV."""

from __future__ import annotations

import argparse
import io
import os
import sys

from .coltypes import format_value
from .engine import __Database__, __run_query__
from .errors import __Error__
from .functions import catalog, explain

EXAMPLES = """examples:
  python -m __pkg__ "SELECT region, SUM(price) AS total FROM sales GROUP BY region" sales.csv
  python -m __pkg__ --csv "SELECT * FROM s WHERE qty > 2 ORDER BY qty DESC LIMIT 5" s.csv
  python -m __pkg__ --explain "SELECT item FROM s WHERE price > 2" s.csv
  python -m __pkg__ --functions
  python -m __pkg__ --describe NAME
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="__pkg__", description="Run a SELECT query over CSV files. Each file is a table named after the file "
        "(sales.csv is `sales`); with one file, any table name in FROM reads it.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query", nargs="?", help="the SELECT statement (quote it for the shell)")
    parser.add_argument("files", nargs="*", help="CSV files with a header line")
    parser.add_argument("--csv", action="store_true", help="print the result as CSV instead of a table")
    parser.add_argument("--explain", action="store_true", help="print the plan's steps instead of running it")
    parser.add_argument("--functions", action="store_true", help="list the conversion functions and exit")
    parser.add_argument("--describe", metavar="NAME", help="explain one conversion function (its formula, what it "
                        "takes and gives, examples) and exit")
    return parser


def format_table(columns: list[str], rows: list) -> str:
    """An aligned text table: a header, a rule, the rows (NULL written as NULL)."""
    cells = [[("NULL" if v is None else format_value(v)) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(),
             "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.functions:
        print("\n".join(catalog()), file=out)
        return 0
    if args.describe:
        try:
            print("\n".join(explain(args.describe)), file=out)
        except __Error__ as exc:
            print(f"error: {exc}", file=out)
            return 1
        return 0
    if not args.query or not args.files:
        print("error: a query and at least one CSV file are needed (see --help)", file=out)
        return 2
    try:
        texts = {}
        for path in args.files:
            with open(path, encoding="utf-8", newline="") as f:
                texts[os.path.splitext(os.path.basename(path))[0]] = f.read()
        database = __Database__()
        for name, text in texts.items():
            database.load(name, text)
        if args.explain:
            print("\n".join(database.explain(args.query)), file=out)
            return 0
        if len(texts) == 1 and not args.csv:
            rows = __run_query__(args.query, next(iter(texts.values())))
            columns = list(rows[0]) if rows else []
            print(format_table(columns, [list(r.values()) for r in rows]) if rows else "(no rows)", file=out)
            return 0
        result = database.run(args.query)
        print(database.to_csv(args.query) if args.csv else format_table(result.columns, result.rows), file=out, end="" if args.csv else "\n")
        return 0
    except (__Error__, OSError) as exc:
        print(f"error: {exc}", file=out)
        return 1


def run_cli(argv: list[str]) -> tuple[int, str]:
    """(exit status, what was printed) of one command line."""
    buffer = io.StringIO()
    status = main(argv, buffer)
    return status, buffer.getvalue()
