import json
import pytest
from __pkg__.errors import ManifestError
from __pkg__.manifest import KEY, dump_manifest, __load_manifest__
#@test visible
def test_manifest_entries():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.4.0", "requires": {"core": ">=1.0"}},
                             {"name": "core", "version": "2.0", "settings": {"strict": True}}]})
    specs = __load_manifest__(text)
    assert [s.key for s in specs] == ["auth==1.4.0", "core==2.0.0"]
    assert [str(r) for r in specs[0].requires] == ["core>=1.0.0"]
    assert specs[1].settings == {"strict": True}
#@test visible
def test_manifest_requires_as_a_list():
    text = json.dumps({KEY: [{"name": "app", "version": "1.0.0", "requires": ["web^1.2", "db"], "priority": 7}]})
    spec = __load_manifest__(text)[0]
    assert [str(r) for r in spec.requires] == ["db", "web>=1.2.0,<2.0.0"]
    assert spec.priority == 7
#@test visible
def test_manifest_errors_name_the_entry_and_field():
    text = json.dumps({KEY: [{"name": "ok", "version": "1.0.0"}, {"name": "cache", "version": "1.0.0", "priority": "high"}]})
    with pytest.raises(ManifestError, match=r"plugins\.json: entry 2 \(cache\): field 'priority': expected an integer, got str"):
        __load_manifest__(text, "plugins.json")
#@test
def test_manifest_bad_json():
    with pytest.raises(ManifestError, match="line 2, column 1"):
        __load_manifest__('{"a":\n', "m.json")
#@test
def test_manifest_shape_errors():
    cases = [
        ([], "expected an object with a"),
        ({"other": []}, "expected an object with a"),
        ({KEY: {"name": "a"}}, "must be a list of plugins, got dict"),
        ({KEY: ["auth"]}, r"entry 1: expected an object, got str"),
        ({KEY: [{"name": "auth"}]}, r"entry 1 \(auth\): field 'version' is missing"),
        ({KEY: [{"version": "1.0"}]}, r"entry 1: field 'name' is missing"),
        ({KEY: [{"name": "auth", "version": "1.0", "colour": "red"}]}, r"entry 1 \(auth\): unknown field 'colour'"),
        ({KEY: [{"name": "auth", "version": "1.x"}]}, r"entry 1 \(auth\): field 'version': not a version"),
        ({KEY: [{"name": "auth", "version": "1.0", "priority": True}]}, r"field 'priority': expected an integer, got bool"),
        ({KEY: [{"name": "auth", "version": "1.0", "requires": "core"}]}, r"field 'requires': expected an object or a list"),
        ({KEY: [{"name": "Auth", "version": "1.0"}]}, r"entry 1 \(Auth\): not a plugin name"),
        ({KEY: [{"name": "a", "version": "1.0"}, {"name": "a", "version": "1.0.0"}]}, "already listed by entry 1"),
    ]
    for data, message in cases:
        with pytest.raises(ManifestError, match=message):
            __load_manifest__(json.dumps(data), "m.json")
#@test
def test_manifest_dump_round_trip():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.4.0", "requires": {"core": "^1.0"}, "priority": 3,
                              "settings": {"realm": "x"}, "module": "app.auth"}, {"name": "core", "version": "1.2.0"}]})
    specs = __load_manifest__(text)
    again = __load_manifest__(dump_manifest(specs))
    assert [s.as_dict() for s in again] == [s.as_dict() for s in specs]
    assert json.loads(dump_manifest(specs))[KEY][0]["requires"] == {"core": ">=1.0.0,<2.0.0"}
#@test needs=conflicts
def test_manifest_reads_conflicts():
    text = json.dumps({KEY: [{"name": "auth", "version": "1.0.0", "conflicts": {"legacy-auth": "*"}},
                             {"name": "sso", "version": "1.0.0", "conflicts": ["auth<2"]}]})
    specs = __load_manifest__(text)
    assert [[str(c) for c in s.conflicts] for s in specs] == [["legacy-auth"], ["auth<2.0.0"]]
    with pytest.raises(ManifestError, match=r"field 'conflicts': expected an object or a list"):
        __load_manifest__(json.dumps({KEY: [{"name": "a", "version": "1.0", "conflicts": 3}]}))

