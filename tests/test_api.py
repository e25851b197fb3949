"""The Python API: scenario forms, overrides, determinism, results tables, bad input."""

from __future__ import annotations

import math

import pytest
from conftest import ROOT

import wlansim
from wlansim import _core
from wlansim.scenario import apply_overrides, call_core, load, parse_value, resolve

QUICK = {"duration": "3 s", "warmup": "1 s"}


def test_run_accepts_path_text_and_dict(saturated):
    text = saturated.read_text()
    by_path = wlansim.run(saturated, overrides=QUICK)
    by_text = wlansim.run(text, overrides=QUICK)
    by_dict = wlansim.run(load(text), overrides=QUICK)
    for r in (by_text, by_dict):
        assert r.flows.equals(by_path.flows)
        assert r.nodes.equals(by_path.nodes)


def test_results_tables_and_metrics(saturated):
    r = wlansim.run(saturated, overrides={**QUICK, "stations.sta.count": 4})
    assert list(r.flows["name"]) == [f"up-{i}" for i in range(4)]
    assert list(r.nodes["name"]) == ["ap"] + [f"sta-{i}" for i in range(4)]
    for column in (
        "throughput_bps",
        "delay_mean_s",
        "delay_p95_s",
        "dropped_queue",
        "dropped_retry",
        "offered_packets",
        "delivered_packets",
    ):
        assert column in r.flows
    for column in (
        "attempts",
        "successes",
        "collisions",
        "retries",
        "retry_drops",
        "queue_drops",
        "collision_probability",
    ):
        assert column in r.nodes
    m = r.metrics
    assert m["throughput_bps"] == pytest.approx(r.flows["throughput_bps"].sum())
    assert m["uplink_throughput_bps"] == m["throughput_bps"]
    assert 0 < m["collision_probability"] < 0.5
    assert 0.5 < m["jain_index"] <= 1
    assert r.meta["measured_s"] == 2.0 and r.meta["sim_time_s"] == 3.0
    assert r.meta["events"] > 1000
    # The AP only sends MAC ACKs (not counted as attempts): no collision probability.
    assert math.isnan(r.nodes.loc[0, "collision_probability"])


def test_same_seed_identical_different_seed_different(saturated):
    a = wlansim.run(saturated, seed=5, overrides=QUICK).to_dict()
    b = wlansim.run(saturated, seed=5, overrides=QUICK).to_dict()
    c = wlansim.run(saturated, seed=6, overrides=QUICK).to_dict()
    for d in (a, b, c):
        d["meta"].pop("wall_s")
    assert a == b
    assert a["flows"] != c["flows"]


def test_overrides_by_name_and_index_and_string_values():
    base = load("scenarios/saturated-11b.toml")
    out = apply_overrides(
        base, ["stations.sta.count=3", "flows.0.packet_size=1000 B", "mac.rts_threshold=0"]
    )
    assert out["stations"][0]["count"] == 3
    assert out["flows"][0]["packet_size"] == "1000 B"
    assert out["mac"]["rts_threshold"] == 0
    assert base["stations"][0]["count"] == 10, "the input is not modified"
    assert parse_value("[1, 2]") == [1, 2] and parse_value("11 Mb/s") == "11 Mb/s"


def test_resolve_writes_every_default():
    r = resolve("scenarios/saturated-11b.toml")
    assert r["phy"]["slot"] == "20 us" and r["phy"]["difs"] == "50 us"
    assert r["phy"]["cw_min"] == 31 and r["phy"]["cw_max"] == 1023
    assert r["stations"][0]["queue"] == 50


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"stations.sta.count": 0}, "`stations.sta.count`: 0"),
        ({"stations.sta.count": "many"}, "`stations.sta.count`"),
        ({"duration": "-5 s"}, "`duration`"),
        ({"duration": "5"}, "no valid unit"),
        ({"phy.data_rate": "12 Mb/s"}, "allowed: 1, 2, 5.5, 11 Mb/s"),
        ({"phy.standard": "802.11z"}, "`phy.standard`"),
        ({"phy.cw_min": 63, "phy.cw_max": 31}, "CWmin ≤ CWmax"),
        ({"phy.cw_min": 30}, "2^k − 1"),
        ({"mac.queue": 0}, "`mac.queue`"),
        ({"mac.short_retry_limit": 0}, "`mac.short_retry_limit`"),
        ({"mac.colour": "red"}, "unknown field `colour`"),
        ({"flows.up.stations": "nobody"}, "not a station group"),
        ({"flows.up.traffic": "cbr"}, "need a rate"),
        ({"flows.up.packet_size": "9000 B"}, "`flows.up.packet_size`"),
        ({"warmup": "200 s"}, "shorter than duration"),
    ],
)
def test_bad_values_name_key_value_and_allowed(saturated, override, expected):
    with pytest.raises(wlansim.ScenarioError) as info:
        wlansim.run(saturated, overrides=override)
    assert expected in str(info.value)
    assert isinstance(info.value, ValueError)


def plain(value, where="answer"):
    """Assert `value` holds only what `json.loads` makes: dicts with str keys, lists, str,
    int, finite floats, bool, None."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), where
            plain(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            plain(v, f"{where}[{i}]")
    elif isinstance(value, float):
        assert math.isfinite(value), where
    else:
        assert value is None or isinstance(value, (str, int, bool)), (where, type(value))


@pytest.mark.parametrize("name", ["saturated-11b", "http-onoff", "two-bss", "wired-tree"])
def test_the_core_answers_with_what_json_loads_made_of_its_json(name):
    """The core hands back its answers as Python objects, as `json.loads` read its JSON
    before (NaN as None, tuples as lists, integers as ints, floats as floats): the tables
    come out as they did (tests/test_api.py's other tests pin their values)."""
    path = ROOT / "scenarios" / f"{name}.toml"
    r = wlansim.run(path, overrides={"duration": "40 s", "output.packets": True})
    plain(r._data)
    assert r.nodes["attempts"].dtype == "int64" and r.flows["throughput_bps"].dtype == "float64"
    plain(resolve(path))


def test_a_scenario_dict_is_read_as_json_wrote_it():
    """The core reads a dict as the canonical JSON text `json.dumps(d, sort_keys=True)`
    wrote: what JSON cannot write (a date, as TOML reads one), keys that do not sort, and a
    circular reference are refused as before; int keys are written as strings."""
    import datetime

    base = {"duration": "1 s", "stations": [{"name": "sta"}]}
    not_plain = "scenario holds a value that is not plain data: "
    cases = [
        ({**base, "x": datetime.date(1979, 5, 27)}, "Object of type date is not JSON serializable"),
        (
            {**base, "phy": {1: "a", "b": 2}},
            "'<' not supported between instances of 'str' and 'int'",
        ),
        ({**base, "phy": {(1,): "a"}}, "keys must be str, int, float, bool or None, not tuple"),
    ]
    for scenario, message in cases:
        with pytest.raises(wlansim.ScenarioError) as info:
            wlansim.run(scenario)
        assert str(info.value) == not_plain + message
    with pytest.raises(wlansim.ScenarioError, match="not plain data: Object of type datetime"):
        wlansim.run('duration = "1 s"\nwhen = 1979-05-27T07:32:00Z\n[[stations]]\nname = "s"')
    with pytest.raises(wlansim.ScenarioError, match="unknown field `7`"):
        wlansim.run({**base, "phy": {7: 1}})
    circular: list = []
    circular.append(circular)
    with pytest.raises(wlansim.ScenarioError, match="Circular reference detected"):
        call_core(_core.resolve, {**base, "x": circular})


def test_bad_scenario_forms():
    with pytest.raises(wlansim.ScenarioError, match="does not exist"):
        wlansim.run("no/such/file.toml")
    with pytest.raises(wlansim.ScenarioError, match="invalid TOML"):
        wlansim.run("duration = \n[[")
    with pytest.raises(wlansim.ScenarioError, match="missing field `duration`"):
        wlansim.run({"stations": [{"name": "s"}]})
    with pytest.raises(wlansim.ScenarioError, match="no station group"):
        wlansim.run({"duration": "1 s"})
    with pytest.raises(wlansim.ScenarioError, match="seed"):
        wlansim.run("scenarios/saturated-11b.toml", seed=-1)
    with pytest.raises(wlansim.ScenarioError, match="seed"):
        wlansim.run("scenarios/saturated-11b.toml", seed=2**64)
    with pytest.raises(wlansim.ScenarioError, match="no element 'nobody'"):
        wlansim.run("scenarios/saturated-11b.toml", overrides={"stations.nobody.count": 2})
    with pytest.raises(wlansim.ScenarioError, match="key=value"):
        wlansim.run("scenarios/saturated-11b.toml", overrides=["count"])


def test_per_packet_records_give_delays_jitter_and_hops():
    r = wlansim.run(
        ROOT / "scenarios" / "wired-tree.toml",
        overrides={
            "duration": "5 s",
            "flows.from-near.protocol": "udp",
            "flows.from-near.traffic": "cbr",
            "flows.from-near.rate": "200 kb/s",
            "output.packets": ["from-near"],
        },
    )
    p, hops = r.packets, r.packet_hops
    near = r.flows[r.flows["name"].str.startswith("from-near")]
    assert len(p) == near["delivered_packets"].sum() + near["dropped_queue"].sum()
    # Server → router → AP → station: three hops, the first two wired.
    assert set(p["hops"]) == {3}
    assert set(hops["node"]) == {"near-0", "router", "ap"}
    j = r.jitter()
    assert set(j["flow"]) == set(near["name"])
    assert (j["rfc3550_jitter_s"] >= 0).all() and (j["delay_std_s"] >= 0).all()
    merged = j.set_index("flow")["delay_mean_s"]
    for _, f in near.iterrows():
        assert abs(merged[f["name"]] - f["delay_mean_s"]) < 1e-9


def test_files_app_reports_sessions():
    r = wlansim.run(
        ROOT / "scenarios" / "wired-tree.toml",
        overrides={
            "duration": "20 s",
            "flows.from-far.files": {"sizes": ["10 kB", "50 kB"], "new_connection": True},
        },
    )
    s = r.sessions
    assert list(s.columns[:4]) == ["station", "flow", "file", "bytes"]
    assert {"setup_s", "timeouts"} <= set(s.columns)
    assert ((s["setup_s"] > 0) & (s["setup_s"] < s["delay_s"])).all()
    assert len(s) == 6 and set(s["bytes"]) == {10_000, 50_000}
    # Each file on a fresh connection: at least two round trips to the far server (2 × 31 ms
    # one way: 30 ms + the router's 1 ms), handshake then data.
    assert (s["delay_s"] > 2 * 2 * 0.031).all()
    assert r.unfinished_sessions == {f"from-far-{i}": 0 for i in range(3)}
    m = r.metrics
    assert m["sessions"] == 6 and m["sessions_unfinished"] == 0
    assert m["session_delay_mean_s"] == pytest.approx(s["delay_s"].mean())
    # 6 sessions cannot make 10 batches of at least 2: no interval rather than a wrong one.
    assert math.isnan(m["session_delay_ci95_s"])
    assert m["session_delay_mice_s"] == pytest.approx(s["delay_s"].mean())


def test_a_scenario_files_inputs_are_relative_to_its_directory(tmp_path, monkeypatch):
    """An empirical distribution's `csv` in a scenario file is found next to the file,
    whatever the working directory; TOML text keeps paths relative to the working
    directory."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "sizes.csv").write_text("bytes\n1000\n2000\n")
    text = """
duration = "5 s"
[[stations]]
name = "s"
[[servers]]
name = "w"
[[flows]]
name = "f"
protocol = "tcp"
direction = "downlink"
stations = "s"
server = "w"
files = { size = { distribution = "empirical", csv = "sizes.csv" }, count = 4 }
"""
    (sub / "s.toml").write_text(text)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = wlansim.run(sub / "s.toml")
    assert len(r.sessions) == 4
    assert set(r.sessions["bytes"]) <= {1000, 2000}
    with pytest.raises(wlansim.ScenarioError, match="csv"):
        wlansim.run(text)
