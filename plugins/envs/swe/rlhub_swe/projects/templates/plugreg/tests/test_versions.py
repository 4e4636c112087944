import pytest
from __pkg__.errors import VersionError
from __pkg__.versions import __Version__, compare, newest, parse_version, sort_versions
#@test visible
def test_parse_and_print():
    assert str(parse_version("1.4.2")) == "1.4.2"
    assert str(parse_version("2.0")) == "2.0.0"
    assert str(parse_version("v3")) == "3.0.0"
    assert str(parse_version(" 1.0.0-rc.1 ")) == "1.0.0-rc.1"
    assert parse_version("1.2.3").release == (1, 2, 3)
    assert parse_version("1.2.3-beta").is_prerelease is True
    assert parse_version("1.2.3").is_prerelease is False
#@test visible
def test_bad_versions_are_refused():
    for bad in ("", "1.2.3.4", "01.2", "1.x", "-1", "1.2-", "one"):
        with pytest.raises(VersionError):
            parse_version(bad)
#@test visible
def test_compare_releases():
    assert compare("1.2.3", "1.10.0") == -1
    assert compare("2.0.0", "2.0") == 0
    assert compare("1.0.1", "1.0.0") == 1
    assert sort_versions(["1.10.0", "1.2.0", "1.9.9", "0.4"]) == ["0.4.0", "1.2.0", "1.9.9", "1.10.0"]
    assert sort_versions(["1.0", "3.1", "2.2"], reverse=True) == ["3.1.0", "2.2.0", "1.0.0"]
#@test visible
def test_bump_releases():
    version = parse_version("1.4.2")
    assert [str(version.bump(part)) for part in ("patch", "minor", "major")] == ["1.4.3", "1.5.0", "2.0.0"]
    assert str(version.bump()) == "1.4.3"
#@test catches=prerelease
def test_prerelease_sorts_before_release():
    assert compare("1.0.0-rc.1", "1.0.0") == -1
    assert compare("2.0.0", "2.0.0-alpha") == 1
    assert sort_versions(["1.0.0", "1.0.0-rc.1", "0.9.0"]) == ["0.9.0", "1.0.0-rc.1", "1.0.0"]
    assert str(newest(["2.0.0-rc.2", "2.0.0", "1.9.0"])) == "2.0.0"
#@test
def test_prerelease_identifiers():
    assert compare("1.0.0-rc.2", "1.0.0-rc.10") == -1
    assert compare("1.0.0-alpha", "1.0.0-alpha.1") == -1
    assert compare("1.0.0-alpha.beta", "1.0.0-beta") == -1
    assert compare("1.0.0-1", "1.0.0-alpha") == -1
    assert compare("1.0.0-rc.1", "1.0.0-rc.1") == 0
    assert compare("1.0.0-rc.1", "0.9.9") == 1
#@test
def test_bump_prereleases():
    assert str(parse_version("1.4.0-rc.1").bump("patch")) == "1.4.0"
    assert str(parse_version("1.4.0-rc.1").bump("minor")) == "1.4.0"
    assert str(parse_version("1.4.1-rc.1").bump("minor")) == "1.5.0"
    assert str(parse_version("1.4.1-rc.1").bump("patch")) == "1.4.1"
    assert str(parse_version("2.0.0-rc.1").bump("major")) == "2.0.0"
    assert str(parse_version("2.1.0-rc.1").bump("major")) == "3.0.0"
    assert str(parse_version("2.0.1-rc.1").bump("major")) == "3.0.0"
    with pytest.raises(VersionError):
        parse_version("1.0.0").bump("build")
#@test
def test_newest():
    assert str(newest(["1.2.0", "1.10.0", "1.9.0"])) == "1.10.0"
    assert newest([]) is None
    assert str(newest(["2.0.0-rc.1", "1.9.0"])) == "2.0.0-rc.1"
    assert str(newest(["2.0.0-rc.1", "1.9.0"], include_prereleases=False)) == "1.9.0"
    assert newest(["2.0.0-rc.1"], include_prereleases=False) is None
#@test
def test_versions_as_objects():
    assert parse_version("1.2.3") == __Version__(1, 2, 3)
    assert __Version__(1, 2, 3) < __Version__(1, 3)
    assert not (__Version__(2) < __Version__(1, 9, 9))
    assert __Version__(1, 2) <= __Version__(1, 2, 0)
    assert repr(__Version__(1, 2, 3)) == "__Version__('1.2.3')"
    with pytest.raises(VersionError):
        __Version__(1, -2)
    with pytest.raises(VersionError):
        __Version__(-1)
#@test
def test_compatible_versions():
    base = parse_version("1.2.0")
    assert [base.compatible_with(parse_version(v)) for v in ("1.2.0", "1.9.0", "2.0.0", "1.1.9")] == [True, True, False, False]
    zero = parse_version("0.2.1")
    assert [zero.compatible_with(parse_version(v)) for v in ("0.2.5", "0.3.0", "0.2.0", "1.2.1")] == [True, False, False, False]

