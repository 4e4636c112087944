import pytest
from __pkg__ import __run_query__, functions
from __pkg__.errors import TypeMismatch, UnknownFunction
from __pkg__.errors import ConversionError
from __pkg__.functions import FUNCTIONS, call_function, catalog, function
SALES = "region,item,qty,price,day,paid\nnorth,apple,3,1.5,2024-01-02,true\nsouth,pear,,2.25,2024-01-03,false\nnorth,pear,5,2.0,2024-01-03,true\neast,plum,2,3.75,2024-01-05,__null_word__\nsouth,apple,4,1.25,2024-01-06,true\nnorth,fig,1,4.5,2024-01-07,false\n"
#@test visible
def test_every_function_is_listed():
    assert sorted(FUNCTIONS) == sorted(__unit_names__)
#@test visible
def test_functions_convert():
    for name in __unit_names__[:3]:
        module = function(name)
        assert module.convert(10) == round(10 * module.FACTOR + module.OFFSET, module.DIGITS)
        assert module.convert(None) is None
#@test
def test_functions_in_queries():
    name = __unit_names__[0]
    module = function(name)
    rows = __run_query__(f"SELECT {name}(price) AS v, {name.upper()}(qty) AS w FROM __table__ ORDER BY price LIMIT 2", SALES)
    assert rows == [{"v": module.convert(1.25), "w": module.convert(4)}, {"v": module.convert(1.5), "w": module.convert(3)}]
#@test
def test_function_arguments_are_checked():
    name = __unit_names__[-1]
    assert call_function(name, [None]) is None
    with pytest.raises(TypeMismatch, match="takes 1 argument"):
        call_function(name, [1, 2])
    with pytest.raises(TypeMismatch, match="needs a number"):
        call_function(name.upper(), ["x"])
    with pytest.raises(UnknownFunction):
        call_function("no_such_function", [1])
#@test
def test_inverse_undoes_convert():
    for name in __unit_names__[-2:]:
        module = function(name)
        bound = 10 ** -module.DIGITS / module.FACTOR + 10 ** -(module.DIGITS + 2)
        assert abs(module.inverse(module.convert(10)) - 10) <= bound
#@test
def test_catalog_describes_each_function():
    lines = catalog()
    assert len(lines) == __unit_count__
    assert [line.split("(", 1)[0] for line in lines] == sorted(__unit_names__)
#@test visible
def test_show_and_read_back():
    for name in __unit_names__[:2]:
        module = function(name)
        value = module.convert(12)
        assert module.show(value) == f"{value:.{module.DIGITS}f} {name}"
        assert module.read(module.show(value)) == value
        assert module.read("7") == 7 and module.read(f" 2.5 {name.upper()} ") == 2.5
        assert module.read("") is None and module.read("NULL") is None and module.show(None) == "NULL"
#@test
def test_problems_give_every_reason():
    for name in (__unit_names__[0], __unit_names__[-1]):
        module = function(name)
        limit = module.LIMIT
        assert module.problems(None) == module.problems(limit) == module.problems(0.5) == []
        assert module.problems("12") == module.problems(True) == ["needs a number"]
        assert module.problems(float("nan")) == module.problems(float("-inf")) == ["needs a finite number"]
        too_big = f"takes values up to {limit:,} in size"
        assert module.problems(limit + 1) == [too_big]
        negative = [] if module.ALLOW_NEGATIVE else ["takes no negative values"]
        assert module.problems(-1) == negative, name
        assert module.problems(-limit - 0.5) == negative + [too_big]
#@test
def test_conversion_errors_name_the_function_value_and_reason():
    name = __unit_names__[0]
    module = function(name)
    value = module.LIMIT * 3
    with pytest.raises(ConversionError) as info:
        module.convert(value)
    error = info.value
    assert error.args == (name, value, f"takes values up to {module.LIMIT:,} in size")
    assert str(error) == f"{name}() takes values up to {module.LIMIT:,} in size, got {value!r}"
    assert isinstance(error, TypeMismatch)
    with pytest.raises(ConversionError, match="needs a number, got 'x'"):
        module.inverse("x")
#@test
def test_queries_refuse_values_a_function_cannot_take():
    name = __unit_names__[-1]
    module = function(name)
    with pytest.raises(TypeMismatch, match=rf"{name}\(\) takes values up to"):
        __run_query__(f"SELECT {name}(price * {module.LIMIT}) AS v FROM __table__", SALES)
    rows = __run_query__(f"SELECT {name}(price * {module.LIMIT}) AS v FROM __table__ WHERE price < 0", SALES)
    assert rows == []
#@test
def test_read_says_what_is_wrong():
    name = __unit_names__[0]
    module = function(name)
    assert module.read("1e3") == 1000.0 and module.read("-4") == -4
    with pytest.raises(ConversionError, match=f"reads values in {name}, got '3 parsecs'"):
        module.read("3 parsecs")
    with pytest.raises(ConversionError, match="needs a number, got 'abc'"):
        module.read("abc")
    with pytest.raises(ConversionError, match="reads text, got 5"):
        module.read(5)
#@test
def test_streams_apply_their_error_policy():
    name = __unit_names__[0]
    module = function(name)
    values = [1, None, module.LIMIT * 10, 2, "x"]
    one, two = module.convert(1), module.convert(2)
    skip = module.Stream("skip")
    assert [skip.feed(v) for v in values] == [one, None, None, two, None]
    assert skip.output == [one, None, two]
    assert skip.rejected == [(3, f"takes values up to {module.LIMIT:,} in size"), (5, "needs a number")]
    assert skip.close() == {"function": name, "policy": "skip", "values": 5, "converted": 2, "nulls": 1,
                            "rejected": 2, "low": min(one, two), "high": max(one, two),
                            "total": round(one + two, module.DIGITS)}
    with pytest.raises(ConversionError, match="the stream is closed"):
        skip.feed(1)
    null = module.Stream("null")
    for value in values:
        null.feed(value)
    assert null.output == [one, None, None, two, None]
    assert (null.close()["nulls"], null.state) == (1, "closed")
    strict = module.Stream("raise")
    with pytest.raises(ConversionError, match=r"in size \(value 3\)"):
        for value in values:
            strict.feed(value)
    assert strict.output == [one, None]
    with pytest.raises(TypeMismatch, match="no error policy 'ignore'"):
        module.Stream("ignore")
    assert module.Stream().policy == module.POLICY
#@test
def test_explain_and_specs():
    specs = functions.specs()
    assert [spec["name"] for spec in specs] == sorted(__unit_names__)
    for spec in specs[:3]:
        expected = [round(x * spec["factor"] + spec["offset"], spec["digits"]) for x in (0, 3, 7.5)]
        assert functions.convert_all(spec["name"], [0, 3, 7.5]) == expected
    module = function(specs[0]["name"])
    assert (specs[0]["limit"], specs[0]["allow_negative"]) == (module.LIMIT, module.ALLOW_NEGATIVE)
    name = __unit_names__[0]
    module = function(name)
    lines = functions.explain(name.upper())
    assert lines[0] == module.describe()
    assert f"  {name}(10) = {module.show(module.convert(10))}" in lines
    low = module.convert(-module.LIMIT if module.ALLOW_NEGATIVE else 0)
    assert f"gives: {module.show(low)} to {module.show(module.convert(module.LIMIT))}" in lines

