import pytest
from __pkg__.coerce import coerce, render, to_bool, to_int, to_list
from __pkg__.config import HOST_SECTION, Config
from __pkg__.errors import ConfigError
#@test visible
def test_layers_in_order():
    config = Config()
    config.add_defaults("auth", {"realm": "main", "retries": 3})
    assert config.settings("auth") == {"realm": "main", "retries": 3}
    config.read("[auth]\nrealm = corp\n")
    assert config.settings("auth")["realm"] == "corp"
    assert config.source("auth", "realm") == "file"
    config.set("auth", "realm", "dev")
    assert (config.value("auth", "realm"), config.source("auth", "realm")) == ("dev", "override")
    assert config.source("auth", "retries") == "default"
    assert config.source("auth", "colour") is None
#@test visible
def test_apply_assignments():
    config = Config()
    config.add_defaults("auth", {"realm": "main"})
    assert config.apply("auth.realm = lab") == ("auth", "realm")
    assert config.value("auth", "realm") == "lab"
    for bad in ("authrealm=1", "auth.realm", ".realm=1", "auth.=1"):
        with pytest.raises(ConfigError, match="plugin.key=value"):
            config.apply(bad)
#@test visible
def test_coerce_values():
    assert coerce("yes", True) is True
    assert coerce("off", True) is False
    assert coerce("0x10", 0) == 16
    assert coerce("1_000", 0) == 1000
    assert coerce("1.5", 0.0) == 1.5
    assert coerce("a, b,,c", []) == ["a", "b", "c"]
    assert coerce("text", "default") == "text"
    assert coerce(7, "default") == 7
    assert [render(True), render(False), render(["a", "b"]), render(3)] == ["yes", "no", "a, b", "3"]
#@test catches=file_types
def test_file_values_take_the_type_of_the_default():
    config = Config()
    config.add_defaults("auth", {"retries": 3, "debug": False, "scopes": ["read"], "ratio": 0.5, "realm": "main"})
    config.read("[auth]\nretries = 5\ndebug = on\nscopes = read, write\nratio = 2\nrealm = corp\n")
    assert config.settings("auth") == {"retries": 5, "debug": True, "scopes": ["read", "write"], "ratio": 2.0, "realm": "corp"}
#@test catches=file_types
def test_override_strings_are_coerced():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.apply("auth.retries=7")
    assert config.value("auth", "retries") == 7
#@test
def test_values_set_in_code_keep_their_type():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.set("auth", "retries", 9)
    assert config.value("auth", "retries") == 9
    config.set("auth", "extra", "x")
    assert config.settings("auth") == {"retries": 9, "extra": "x"}
    assert config.unset("auth", "extra") is True
    assert config.unset("auth", "extra") is False
    assert config.value("auth", "missing", "fallback") == "fallback"
#@test
def test_bad_config_text():
    with pytest.raises(ConfigError, match="settings.ini"):
        Config("[auth\nx = 1\n", "settings.ini")
    with pytest.raises(ConfigError, match="already exists"):
        Config("[auth]\nx = 1\nx = 2\n")
    with pytest.raises(ConfigError, match="no section headers"):
        Config("x = 1\n")
#@test
def test_coerce_errors():
    with pytest.raises(ConfigError, match="auth.retries: expected an integer, got 'many'"):
        coerce("many", 3, "auth.retries")
    with pytest.raises(ConfigError, match="yes/no"):
        to_bool("maybe")
    with pytest.raises(ConfigError, match="number"):
        coerce("x", 1.0)
    assert to_int(" 012 ") == 12
    assert to_list(" , ") == []
#@test
def test_problems_name_the_setting():
    config = Config()
    config.add_defaults("auth", {"retries": 3})
    config.read("[auth]\nretries = many\ncolour = red\n")
    config.apply("auth.size=2")
    assert config.problems("auth") == ["auth.colour: unknown setting (known: retries)",
                                       "auth.retries: expected an integer, got 'many'",
                                       "auth.size: unknown setting (known: retries)"]
    assert Config().problems("auth") == []
#@test
def test_disabled_list():
    assert Config(f"[{HOST_SECTION}]\ndisabled = a, b\n").disabled() == ["a", "b"]
    assert Config().disabled() == []
    config = Config(f"[{HOST_SECTION}]\ndisabled = a\n")
    config.apply(f"{HOST_SECTION}.disabled=c, d")
    assert config.disabled() == ["c", "d"]
    config.set(HOST_SECTION, "disabled", ["e"])
    assert config.disabled() == ["e"]

