"""The scenario JSON Schema and the key reference: generated from the Rust types, committed
under docs/, never stale; every example scenario validates against the schema."""

from __future__ import annotations

import sys

import jsonschema
import pytest
from conftest import ROOT, wlansim_cli

from wlansim.schema import json_schema, json_text, markdown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DOCS = ROOT / "docs"
REGENERATE = (
    "regenerate with `wlansim schema --out docs/scenario.schema.json` and "
    "`wlansim schema --markdown --out docs/scenario.md`"
)


def test_committed_schema_is_not_stale():
    assert (DOCS / "scenario.schema.json").read_text(encoding="utf-8") == json_text(), REGENERATE


def test_committed_reference_is_not_stale():
    assert (DOCS / "scenario.md").read_text(encoding="utf-8") == markdown(), REGENERATE


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(json_schema())


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_scenario_validates(path):
    scenario = tomllib.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json_schema()).validate(scenario)


@pytest.mark.parametrize(
    "change",
    [
        {"duration": "10 parsecs"},
        {"duration": 10},
        {"colour": "red"},
        {"stations": [{"name": "sta", "count": 0}]},
        {"phy": {"standard": "802.11z"}},
        {"mac": {"rts_threshold": "sometimes"}},
        {"flows": [{"name": "f", "direction": "up", "stations": "sta"}]},
    ],
)
def test_schema_refuses_what_the_core_refuses(change):
    scenario = {"duration": "1 s", "stations": [{"name": "sta"}], **change}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(json_schema()).validate(scenario)


def test_reference_lists_every_key_with_unit_and_default():
    text = markdown()
    for row in [
        "| `duration` | duration | required |",
        "| `seed` | integer",
        "| `stations[].count` | integer, 1 to 100000 | `1` |",
        '| `servers[].rate` | rate | `"100 Mb/s"` |',
    ]:
        assert row in text, row


def test_cli_schema_writes_the_schema_and_the_reference(tmp_path):
    out = wlansim_cli("schema", "--out", str(tmp_path / "s.json"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == json_text()
    out = wlansim_cli("schema", "--markdown")
    assert out.returncode == 0, out.stderr
    assert out.stdout == markdown()
