from __pkg__.cli import format_table, run_cli
#@test visible
def test_format_table():
    assert format_table(["a", "bb"], [[1, None], [22, "x"]]) == "a  | bb\n---+-----\n1  | NULL\n22 | x"
#@test
def test_cli_lists_functions():
    status, text = run_cli(["--functions"])
    assert status == 0
    assert len(text.splitlines()) == __unit_count__
#@test visible
def test_cli_describes_a_function():
    name = __unit_names__[0]
    status, text = run_cli(["--describe", name])
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"{name}(x) = x * ") and len(lines) == 8
    assert lines[-1].startswith(f"  {name}(10) = ")
    assert run_cli(["--describe", "no_such_function"]) == (1, "error: no function 'no_such_function'\n")
#@test
def test_cli_reports_problems():
    assert run_cli([]) == (2, "error: a query and at least one CSV file are needed (see --help)\n")
    status, text = run_cli(["SELECT a FROM t", "no-such-file.csv"])
    assert status == 1 and text.startswith("error:")
