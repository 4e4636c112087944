import pytest
from __pkg__ import config
from __pkg__.errors import ConfigError, UsageError
#@test visible
def test_defaults(tmp_path):
    settings = config.load(str(tmp_path / "none.ini"), {}, [])
    assert (settings.get("limit"), settings.get("sort"), settings.get("relative")) == (__list_limit__, "id", False)
    assert {source for _, _, source in settings.items()} == {"default"}
#@test visible
def test_layers_override_each_other(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[__pkg__]\nlimit = 7\nsort = due\n")
    assert config.load(str(path), {}, []).get("limit") == 7
    environ = {"__env_prefix___LIMIT": "9", "__env_prefix___RELATIVE": "yes"}
    settings = config.load(str(path), environ, [])
    assert (settings.get("limit"), settings.get("sort"), settings.get("relative")) == (9, "due", True)
    settings = config.load(str(path), environ, ["limit=11"])
    assert settings.get("limit") == 11
    sources = [source for name, _, source in settings.items() if name in ("limit", "sort", "relative")]
    assert sources == ["-o", str(path), "$__env_prefix___RELATIVE"]
#@test
def test_bad_values_say_where(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[__pkg__]\nlimit = many\n")
    with pytest.raises(ConfigError) as info:
        config.load(str(path), {}, [])
    assert str(path) in str(info.value) and "limit must be a whole number" in str(info.value)
    with pytest.raises(ConfigError) as info:
        config.load(str(tmp_path / "none.ini"), {"__env_prefix___SHOW_DONE": "perhaps"}, [])
    assert "__env_prefix___SHOW_DONE" in str(info.value)
    for override in (["limit"], ["=3"]):
        with pytest.raises(UsageError):
            config.load(str(tmp_path / "none.ini"), {}, override)
    for override in (["colour=red"], ["sort=size"], ["title_width=3"], ["columns=id,colour"], ["file="], ["limit=-1"]):
        with pytest.raises(ConfigError):
            config.load(str(tmp_path / "none.ini"), {}, override)
#@test
def test_unknown_settings_and_broken_files(tmp_path):
    path = tmp_path / "rc.ini"
    path.write_text("[__pkg__]\ncolour = red\n")
    with pytest.raises(ConfigError) as info:
        config.load(str(path), {}, [])
    assert "colour" in str(info.value)
    path.write_text("limit = 3\n")
    with pytest.raises(ConfigError):
        config.load(str(path), {}, [])
    path.write_text("[other]\ncolour = red\n")
    assert config.load(str(path), {}, []).get("limit") == __list_limit__
#@test
def test_set_and_unset_value(tmp_path):
    path = str(tmp_path / "sub" / "rc.ini")
    assert config.set_value(path, "sort", "due") == "due"
    assert config.set_value(path, "relative", "on") is True
    settings = config.load(path, {}, [])
    assert (settings.get("sort"), settings.get("relative")) == ("due", True)
    with pytest.raises(ConfigError):
        config.set_value(path, "limit", "-2")
    assert config.load(path, {}, []).get("limit") == __list_limit__
    assert config.unset_value(path, "sort") is True
    assert config.unset_value(path, "sort") is False
    assert config.load(path, {}, []).get("sort") == "id"
#@test
def test_env_names_and_values():
    assert config.env_name("title_width") == "__env_prefix___TITLE_WIDTH"
    assert [config.format_value(v) for v in (True, False, 3, "due")] == ["yes", "no", "3", "due"]
    assert config.default_path({"HOME": "/home/ann"}) == "/home/ann/__config_name__"

