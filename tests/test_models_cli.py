"""`wlansim model bianchi`: argument parsing and output, with a stand-in PHY timing."""

import argparse
import json
import types

import pytest

import wlansim
from wlansim.cli import model_cmd
from wlansim.errors import ScenarioError
from wlansim.models import bianchi

US = 1e-6
TIMING = {  # Bianchi's FHSS values in wlansim.phy.timing's format
    "slot_s": 50 * US, "sifs_s": 28 * US, "difs_s": 128 * US, "eifs_s": 396 * US,
    "ack_timeout_s": 300 * US, "cts_timeout_s": 300 * US, "propagation_delay_s": 1 * US,
    "data_frame_s": 8584 * US, "ack_s": 240 * US, "rts_s": 288 * US, "cts_s": 240 * US,
    "cw_min": 31, "cw_max": 1023, "data_rate_bps": 1e6, "control_rate_bps": 1e6,
    "payload_bits": 8184,
}  # fmt: skip


@pytest.fixture
def fake_phy(monkeypatch):
    calls = []

    def timing(phy="802.11b", payload_bytes=1472):
        calls.append((phy["standard"], payload_bytes))
        return dict(TIMING)

    monkeypatch.setattr(wlansim, "phy", types.SimpleNamespace(timing=timing), raising=False)
    return calls


def run(argv):
    parser = argparse.ArgumentParser(prog="wlansim")
    model_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", [5]),
        ("5,10,20", [5, 10, 20]),
        ("1:4", [1, 2, 3, 4]),
        ("1:10:3", [1, 4, 7, 10]),
        ("2, 8:9", [2, 8, 9]),
    ],
)
def test_parse_stations(text, expected):
    assert model_cmd.parse_stations(text) == expected


@pytest.mark.parametrize("text", ["0", "x", "5:2", "1:5:0", "1:2:3:4", "", "3,,4", "1:99999"])
def test_parse_stations_rejects(text):
    with pytest.raises(ScenarioError, match="--stations"):
        model_cmd.parse_stations(text)


def test_table_output(fake_phy, capsys):
    assert run(["model", "bianchi", "--stations", "5,10", "--collision", "bianchi"]) == 0
    assert fake_phy == [("802.11b", 1472)]  # the default payload, as validate's
    lines = capsys.readouterr().out.splitlines()
    assert "n" in lines[1] and "throughput Mb/s" in lines[1]
    n, p, tau, S, mbps = lines[2].split()
    assert (n, p, tau, S) == ("5", "0.1781", "0.04785", "0.8102")
    assert float(mbps) == pytest.approx(0.810, abs=1e-3)
    assert lines[3].split()[:4] == ["10", "0.2898", "0.03731", "0.7579"]


def test_json_output(fake_phy, capsys):
    argv = ["model", "bianchi", "--phy", "802.11a", "--stations", "1:3", "--access", "rts"]
    assert run(argv + ["--payload", "1000 B", "--json"]) == 0
    assert fake_phy == [("802.11a", 1000)]
    doc = json.loads(capsys.readouterr().out)
    assert doc["access"] == "rts" and doc["collision"] == "standard"
    assert [row["n"] for row in doc["results"]] == [1, 2, 3]
    expected = bianchi.saturation(3, TIMING, access="rts")
    assert doc["results"][2] == pytest.approx({"n": 3, **expected})


def test_bad_payload(fake_phy):
    with pytest.raises(ScenarioError, match="--payload"):
        run(["model", "bianchi", "--stations", "5", "--payload", "0"])


@pytest.mark.parametrize("payload", ["-5", "big", "1.5", "10 m"])
def test_a_payload_that_is_not_a_size_is_refused_by_the_unit_parser(payload):
    from conftest import wlansim_cli

    out = wlansim_cli("model", "bianchi", "--stations", "5", "--payload", payload)
    assert out.returncode == 2 and "argument --payload" in out.stderr
    assert "a size: an integer number of bytes or a string with B" in out.stderr


def test_bianchi_takes_a_rate_with_its_unit_and_prints_it():
    from conftest import wlansim_cli

    out = wlansim_cli("model", "bianchi", "--stations", "5", "--rate", "1 Mb/s")
    assert out.returncode == 0, out.stderr
    assert "802.11b at 1 Mb/s (control 1 Mb/s)" in out.stdout.splitlines()[0]
    slow = float(out.stdout.splitlines()[-1].split()[-1])
    out = wlansim_cli("model", "bianchi", "--stations", "5", "--json")
    doc = json.loads(out.stdout)
    assert doc["data_rate_bps"] == 11e6  # the preset's when --rate is not given
    assert doc["results"][0]["throughput_bps"] / 1e6 > 4 * slow
    bad = wlansim_cli("model", "bianchi", "--stations", "5", "--rate", "1")
    assert bad.returncode == 2 and "argument --rate" in bad.stderr and "Mb/s" in bad.stderr


def test_model_powers_take_dbm_or_watts_and_print_dbm():
    from conftest import wlansim_cli

    w = wlansim_cli("model", "capture", "--stations", "5", "--power", "1e-9 W", "--json")
    dbm = wlansim_cli("model", "capture", "--stations", "5", "--power", "-60 dBm", "--json")
    assert w.returncode == 0 and dbm.returncode == 0, (w.stderr, dbm.stderr)
    assert json.loads(w.stdout)["results"] == json.loads(dbm.stdout)["results"]
    assert json.loads(w.stdout)["power_dbm"] == pytest.approx(-60.0)
    sh = wlansim_cli("model", "shadowing", "--tx-power", "24.5 dBm", "--distances", "50")
    assert sh.returncode == 0, sh.stderr
    assert "Pt 24.50 dBm (0.2818 W)" in sh.stdout and "RXThresh -64.37 dBm" in sh.stdout
    bad = wlansim_cli("model", "shadowing", "--rx-threshold", "-64")
    assert bad.returncode == 2 and "argument --rx-threshold" in bad.stderr


def test_bad_phy_timing_becomes_scenario_error(monkeypatch):
    bad = dict(TIMING, cw_max=1000)
    monkeypatch.setattr(wlansim, "phy", types.SimpleNamespace(timing=lambda *a: bad), raising=False)
    with pytest.raises(ScenarioError, match="power of two"):
        run(["model", "bianchi", "--stations", "5"])


def test_real_phy(capsys):
    pytest.importorskip("wlansim._core")
    assert run(["model", "bianchi", "--stations", "10", "--access", "rts", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["results"][0]
    assert 0 < row["throughput_bps"] < 11e6


def test_model_capture_and_error_rate_print_the_models_numbers():
    from conftest import wlansim_cli

    out = wlansim_cli("model", "capture", "--stations", "20", "--access", "rts", "--json")
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)["results"][0]
    # A 20-byte RTS pair at 1 Mb/s and 0 dB: one nearly always decodes, so capture
    # beats Bianchi's model (about +10 % at n = 20, as `validate capture` measures).
    assert row["q2"] > 0.9999
    assert row["throughput_bps"] > 1.05 * row["bianchi_bps"]
    out = wlansim_cli("model", "error-rate", "--sinr-db", "0:10:2", "--json")
    assert out.returncode == 0, out.stderr
    rows = {r["sinr_db"]: r for r in json.loads(out.stdout)}
    assert rows[0.0]["1.0"] > 0.9999 and rows[0.0]["11.0"] < 1e-6
    assert rows[10.0]["11.0"] > 0.999
    bad = wlansim_cli("model", "error-rate", "--sinr-db", "5:0:1")
    assert bad.returncode != 0 and "--sinr-db" in bad.stderr
