import pytest
from __pkg__.errors import ParseError
from __pkg__.lexer import quote, tokenize, unquote
#@test visible
def test_tokens_of_a_small_document():
    kinds = [t.kind for t in tokenize("# top\n[a]\nx = 1\n  more\n\n")]
    assert kinds == ["comment", "section", "entry", "continuation", "blank"]
#@test visible
def test_entry_value_is_unquoted():
    token = tokenize('name = "a \\"b\\" c"')[0]
    assert (token.name, token.value) == ("name", 'a "b" c')
#@test catches=split_all
def test_value_may_hold_equals_signs():
    token = tokenize("url = http://x/?a=1&b=2")[0]
    assert token.value == "http://x/?a=1&b=2"
#@test catches=column
def test_error_column_points_at_the_text():
    with pytest.raises(ParseError) as info:
        tokenize("[a]\n   oops")
    assert (info.value.args[0].split(":")[0], "column 4" in str(info.value)) == ("line 2, column 4", True)
#@test catches=swap_position
def test_section_error_position():
    with pytest.raises(ParseError) as info:
        tokenize("[a]\nx = 1\n[server\n")
    assert str(info.value).startswith("line 3, column 8:")
#@test
def test_section_errors():
    for text in ("[a", "[ ]", "= 1"):
        with pytest.raises(ParseError):
            tokenize(text)
#@test visible
def test_quote_round_trip():
    for value in ("plain", " padded ", 'say "hi"', "two\nlines", "#not a comment", ""):
        assert unquote(quote(value)) == value

