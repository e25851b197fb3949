"""ns-3's runs kept by key (`wlansim.evidence.ns3.store`), packed (`...ns3.pack`), and
`wlansim validate ns3` without ns-3: its side read from the pack. No ns-3 needed: a shell
script stands in for the compiled cell."""

from __future__ import annotations

import json

import pytest

from wlansim.evidence.ns3 import pack, store
from wlansim.evidence.ns3 import run as ns3
from wlansim.evidence.validations import ns3 as validation


def fake_cell(path, rx_bytes: int = 1500):
    """A stand-in for the compiled cell: prints a result, and appends a line to
    ``path.calls`` each time it runs."""
    calls = path.with_name(path.name + ".calls")
    path.write_text(
        f'#!/bin/sh\necho run >> "{calls}"\n'
        f'printf "sta 2 rx_bytes {rx_bytes}\\ntx_data 12\\ntx_data_rate_kbps 780\\n'
        f"flow up0 rx_bytes {rx_bytes}\\n"
        f'flow down0 rx_bytes {rx_bytes}\\nrx_bytes {rx_bytes}\\nwindow_s 2\\n"\n'
    )
    path.chmod(0o755)
    return lambda: len(calls.read_text().splitlines()) if calls.exists() else 0


def test_a_run_is_read_back_only_when_binary_and_arguments_match(tmp_path):
    calls = fake_cell(tmp_path / "cell")
    runs = store.Runs(tmp_path / "runs", "k1", tmp_path / "cell")
    first = runs.run({"n": 5, "seed": 1, "beacons": False})
    assert (first.rx_bytes, first.per_station, first.frames["tx_data"]) == (1500, {2: 1500}, 12)
    assert calls() == 1
    # the same arguments, in another order (ns-3 reads them in any): read back, not run
    again = runs.run({"beacons": False, "seed": 1, "n": 5})
    assert again == first and calls() == 1
    # another seed, another value, a bool as its 0/1: other runs
    runs.run({"n": 5, "seed": 2, "beacons": False})
    runs.run({"n": 5, "seed": 1, "beacons": True})
    assert calls() == 3
    assert store.run_key({"beacons": False}) == store.run_key({"beacons": 0})
    # another binary (another cell.cc, flags or ns-3): its own runs
    other = store.Runs(tmp_path / "runs", "k2", tmp_path / "cell")
    other.run({"n": 5, "seed": 1, "beacons": False})
    assert calls() == 4
    assert len(runs.made) == 3 and len(runs.asked) == 3
    # a stored file whose arguments are not the asked ones (a truncated key's collision)
    # is not read back
    path = runs.directory / f"{store.run_key({'n': 5, 'seed': 1, 'beacons': False})}.json"
    row = json.loads(path.read_text())
    path.write_text(json.dumps({**row, "argv": ["--n=6"]}))
    runs.run({"n": 5, "seed": 1, "beacons": False})
    assert calls() == 5


def test_without_a_binary_only_stored_runs_are_read(tmp_path):
    fake_cell(tmp_path / "cell")
    store.Runs(tmp_path / "runs", "k1", tmp_path / "cell").run({"seed": 1})
    key = store.stored_binary(tmp_path / "runs")
    assert key == "k1"  # its binary.json names this cell.cc
    readonly = store.Runs(tmp_path / "runs", key)
    assert readonly.run({"seed": 1}).rx_bytes == 1500
    with pytest.raises(store.NotStored):
        readonly.run({"seed": 2})
    # runs of another cell.cc are not taken for this one's
    (tmp_path / "runs" / "k1" / store.BINARY_FILE).write_text('{"source_sha256": "0"}')
    assert store.stored_binary(tmp_path / "runs") is None


def test_a_write_is_whole_or_not_at_all(tmp_path):
    path = tmp_path / "runs" / "k" / "a.json"
    store.keep(path, {"argv": [], "run": 1})
    with pytest.raises(TypeError):  # fails while writing: the old row stays, no leftover
        store.keep(path, {"argv": [], "run": object()})
    assert json.loads(path.read_text()) == {"argv": [], "run": 1}
    assert [p.name for p in path.parent.iterdir()] == ["a.json"]


def test_the_pack_round_trip_gives_the_same_runs_and_bytes(tmp_path):
    fake_cell(tmp_path / "cell")
    runs = store.Runs(tmp_path / "a", "k1", tmp_path / "cell")
    for seed in (1, 2, 3):
        runs.run({"seed": seed})
    packed = tmp_path / "ns3-runs.jsonl.xz"
    assert pack.save(tmp_path / "a", packed) == 3
    assert pack.restore(packed, tmp_path / "b") == 3
    assert pack.restore(packed, tmp_path / "b") == 0  # already there: kept as it is
    for p in (tmp_path / "a").rglob("*.json"):
        assert (tmp_path / "b" / p.relative_to(tmp_path / "a")).read_text() == p.read_text()
    again = tmp_path / "again.jsonl.xz"
    pack.save(tmp_path / "b", again)
    assert again.read_bytes() == packed.read_bytes()
    # a whole run packs what it asked for, no other run
    asked = {"k1": {store.run_key({"seed": 1})}}
    assert pack.save(tmp_path / "a", tmp_path / "one.jsonl.xz", asked) == 1
    assert pack.restore(None, tmp_path / "c") == 0


def test_without_ns3_the_tables_come_from_the_pack_for_the_runs_it_holds(tmp_path, monkeypatch):
    from wlansim.evidence.validation import validate

    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path / "cache"))
    # the pack holds the two quick runs (4 s, seeds 1 and 2) of 802.11b n = 5 only
    fake_cell(tmp_path / "cell", rx_bytes=1_550_000)  # 6.2 Mb/s over the 2 s window
    made = store.Runs(tmp_path / "made", "k1", tmp_path / "cell")
    case = validation.Case("11b", 5, False)
    for seed in (1, 2):
        validation.ns3_run(made, case, 4.0, seed)
    packed = tmp_path / "ns3-runs.jsonl.xz"
    pack.save(tmp_path / "made", packed)
    monkeypatch.setattr(pack, "default_pack", lambda: packed)
    monkeypatch.setattr(ns3, "missing", lambda: "g++ is not on the PATH.")

    assert validation.unavailable() == ""
    result = validate("ns3", tmp_path / "out", quick=True, reps=2, duration=4.0, jobs=1)
    assert list(result.tables["udp"]["cell"]) == [case.label]
    assert result.tables["udp"]["ns3_mbps"].iloc[0] == pytest.approx(6.2)
    left = list(result.tables["left-out"]["cell"])
    assert validation.Case("11ac-80", 5, False).label in left
    assert f"{case.label} (ns-3's defaults)" in left
    assert result.text.startswith("ns-3 not run (g++ is not on the PATH.)")
    assert "Left out, no ns-3 run of them stored" in result.text
    assert result.tables["build"]["packed"].iloc[0] == 0  # only a whole run with ns-3 packs

    # no pack and no stored run: the command says why and runs nothing
    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path / "empty"))
    monkeypatch.setattr(pack, "default_pack", lambda: None)
    assert validation.unavailable() == "g++ is not on the PATH."


def test_ns3s_load_is_its_own_and_saturates():
    # not a share of wlansim's result: with A-MPDU 3 times the PHY's nominal rate over n
    # (above 3 times any share the cell carries), with single MPDUs 1.5 times the share of
    # Bianchi's throughput, to 3 digits
    from wlansim.models.bianchi import saturation
    from wlansim.phy import timing

    for key, phy in validation.PHYS.items():
        assert phy.rate_bps == timing(phy.wlansim)["data_rate_bps"], key
    ampdu = validation.Case("11n-20", 20, False, validation.AMPDU_BYTES)
    assert validation.offered(ampdu) == 3 * 65e6 / 20
    single = validation.Case("11g", 20, False)
    share = saturation(20, timing({"standard": "802.11g", "data_rate": "54 Mb/s"}))
    assert validation.offered(single) == pytest.approx(1.5 * share["throughput_bps"] / 20, 5e-3)
    assert validation.offered(single) == 1.46e6  # 802.11g n = 20 carries 24.5 Mb/s in ns-3


def test_a_whole_run_is_the_commands_defaults():
    # the pack holds what a whole run asks for: every case with the command's defaults
    from wlansim.cli import build_parser

    args = build_parser().parse_args(["validate", "ns3"])
    plan = validation.Plan.of(False, args.reps, args.duration, args.jobs)
    assert validation.whole(plan)
    assert (args.reps, args.duration) == (validation.REPS, validation.DURATION_S)
    assert not validation.whole(validation.Plan.of(True, args.reps, args.duration, 1))
    assert not validation.whole(validation.Plan.of(False, 5, args.duration, 1))
    # a whole run: each kind of case its own count of seeds
    for reps in (validation.SINGLE_REPS, validation.AMPDU_REPS, validation.TCP_REPS):
        assert validation.whole_seeds(plan, reps) == list(range(1, reps + 1))
    assert validation.rate_seeds(plan) == list(range(1, validation.RATE_REPS + 1))
    for case in validation.cases(False):
        reps = validation.MORE_REPS.get(case, validation.AMPDU_REPS)
        if case.ampdu:
            assert reps >= validation.AMPDU_REPS
            assert validation.case_seeds(plan, case, validation.AMPDU_REPS) == list(
                range(1, reps + 1)
            )
    for case in validation.tcp_cases(False):
        reps = validation.MORE_REPS.get(case, validation.TCP_REPS)
        assert reps >= validation.TCP_REPS
        assert validation.tcp_seeds(plan, case) == list(range(1, reps + 1))
    five = validation.Plan.of(False, 5, args.duration, 1)
    assert validation.whole_seeds(five, validation.SINGLE_REPS) == [1, 2, 3, 4, 5]
    assert validation.rate_seeds(five) == [1, 2, 3]
    quick = validation.Plan.of(True, args.reps, args.duration, 1)
    assert validation.whole_seeds(quick, validation.AMPDU_REPS) == [1, 2]
    assert validation.rate_seeds(quick) == [1, 2]


def test_a_whole_run_packs_its_runs_and_the_next_runs_none_in_ns3(tmp_path, monkeypatch):
    # every case with the command's defaults, a stand-in for the cell: the pack holds what
    # it asked for; from that pack alone (an empty store) the next whole run makes no ns-3
    # run. wlansim's side of every case runs twice (about 23 s of CPU each, most of it the
    # single-MPDU cases' 6 seeds).
    from wlansim.evidence.validation import validate

    calls = fake_cell(tmp_path / "cell", rx_bytes=1_500_000)
    monkeypatch.setattr(ns3, "missing", lambda: None)
    monkeypatch.setattr(ns3, "compiled", lambda: ns3.Compiled(tmp_path / "cell-k", 0.0, 0.0))
    (tmp_path / "cell-k").symlink_to(tmp_path / "cell")
    packed = tmp_path / "ns3-runs.jsonl.xz"
    monkeypatch.setattr(pack, "default_pack", lambda: packed)
    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path / "first"))
    options = {"reps": validation.REPS, "duration": validation.DURATION_S, "jobs": 1}
    first = validate("ns3", tmp_path / "out1", **options)
    made = calls()
    assert made == first.tables["build"]["made"].iloc[0] == first.tables["build"]["packed"].iloc[0]
    plan = validation.Plan.of(False, validation.REPS, validation.DURATION_S, 1)
    ampdu = [c for c in validation.cases(False) if c.ampdu]
    udp = 64 * validation.SINGLE_REPS  # single MPDUs, then A-MPDU
    udp += sum(len(validation.case_seeds(plan, c, validation.AMPDU_REPS)) for c in ampdu)
    tcp = sum(len(validation.tcp_seeds(plan, c)) for c in validation.tcp_cases(False))
    assert made == udp + 19 * validation.REPS + tcp + 24 * validation.RATE_REPS  # defaults, rate
    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path / "second"))
    second = validate("ns3", tmp_path / "out2", **options)
    assert calls() == made and second.tables["build"]["restored"].iloc[0] == made
    assert len(second.tables["left-out"]) == 0
