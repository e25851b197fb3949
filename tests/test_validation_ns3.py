"""`wlansim validate ns3`: the matched cases on both sides, the cache of the compiled cell,
what the cell prints, and (where ns-3 is installed) the quick run end to end."""

from __future__ import annotations

import csv
import math

import pytest

from wlansim.evidence.ns3 import run as ns3
from wlansim.evidence.ns3 import store
from wlansim.evidence.validations import ns3 as validation
from wlansim.scenario import resolve


def test_every_case_is_a_valid_wlansim_scenario_with_ns3s_rates():
    for case in validation.cases(quick=False):
        resolved = resolve(validation.scenario(case, 12.0))
        assert resolved["phy"]["propagation_delay"] == "2 ns"
        args = validation.ns3_args(case, 12.0, seed=3, offered_bps=1e6)
        assert args["seed"] == 3 and args["ampdu"] == case.ampdu and args["amsdu"] == 0
        assert resolved["mac"].get("ampdu_max_bytes", 0) == case.ampdu
        assert args["preambleDetection"] is False and args["beacons"] is False
        # without A-MPDU ns-3's VHT agreement is off; with it both sides have one
        assert args["vhtBlockAck"] is bool(case.ampdu)
        assert resolved["channel"]["reception"]["model"] == "sinr"
        # ns-3.37's PPDU timing (no VHT-SIG-B in a VHT SU PPDU)
        assert resolved["profile"] == validation.PROFILE == "ns3"
        # basic access: ns-3's threshold above any PSDU, a 64-MPDU A-MPDU's too
        assert args["rts"] == (0 if case.rts else validation.NS3_RTS_NEVER)
        assert validation.NS3_RTS_NEVER > 1_048_575
        if case.ampdu:
            assert args["queue"] == resolved["mac"]["queue"] == validation.AMPDU_QUEUE
        # ns-3.37 discards no MPDU under a Block Ack agreement for its retries
        limits = ("short_retry_limit", "long_retry_limit")
        unlimited = {resolved["mac"][k] for k in limits} == {"unlimited"}
        assert unlimited == bool(case.ampdu), case
        # nor do its MPDUs under the agreement expire (wlansim models no MSDU lifetime);
        # single MPDUs keep ns-3's default lifetime
        lifetime = args.get(validation.AMPDU_NS3_LIFETIME)
        assert (lifetime is not None) == bool(case.ampdu), case
        assert lifetime is None or float(lifetime.rstrip("s")) > args["duration"], case
    # single MPDUs: 4 station counts x 2 accesses x 8 PHYs; A-MPDU: the 5 HT/VHT PHYs
    assert len(validation.cases(quick=False)) == 64 + 40
    assert {c.group for c in validation.cases(quick=False) if c.ampdu} == {
        "802.11n A-MPDU", "802.11ac A-MPDU"}  # fmt: skip


def test_addba_is_no_named_difference_both_set_their_agreements_up():
    # wlansim sets each Block Ack agreement up by ADDBA as ns-3.37 does: nothing to name.
    for rts in (False, True):
        ampdu = validation.Case("11ac-80", 10, rts, validation.AMPDU_BYTES)
        assert not any("ADDBA" in t for t in validation.named(ampdu))
        assert validation.named(ampdu) == validation.named(validation.Case("11ac-80", 10, rts))


def test_the_rates_match_ns3s_basic_rate_set():
    # 802.11b: ns-3 acknowledges 11 Mb/s at 2 Mb/s (its basic set {1, 2}); RTS at its
    # ControlMode, 1 Mb/s.
    case = validation.Case("11b", 5, True)
    ap = validation.scenario(case, 12.0)["ap"]
    assert ap == {"basic_rates": ["1 Mb/s", "2 Mb/s"], "rts_rate": "1 Mb/s"}
    assert validation.ns3_args(case, 12.0, 1, 1e6)["control"] == "DsssRate1Mbps"


def test_wlansims_side_captures_rts_collisions_as_ns3s_error_model_does():
    # Every frame at ns-3's -30.66 dBm, two that collide at SINR 0 dB: a 1 Mb/s DBPSK RTS
    # survives on the DSSS curves both simulators use, and a 6 Mb/s OFDM RTS on ns-3's
    # tables (its default TableBasedErrorRateModel, wlansim's error_model = "table": the
    # matched side's); a 54 Mb/s data frame survives neither.
    import wlansim

    def captures(phy: str, rts: bool) -> int:
        r = wlansim.run(validation.scenario(validation.Case(phy, 10, rts), 3.0), seed=1)
        return int(r.nodes["captures"].sum())

    assert validation.scenario(validation.Case("11a", 10, True), 3.0)["channel"] == {
        "reception": {"model": "sinr", "rx_power_dbm": -30.66, "error_model": "table"}
    }
    assert captures("11b", True) > 50
    assert captures("11b", False) == 0  # an 11 Mb/s CCK data frame does not survive 0 dB
    assert captures("11a", True) > 50
    assert captures("11a", False) == 0


def test_the_cache_key_follows_the_source_flags_and_version(tmp_path, monkeypatch):
    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path))
    a = ns3.Toolchain("g++", ("-lns3.37-core",), "3.37")
    b = ns3.Toolchain("g++", ("-lns3.37-core",), "3.38")
    assert ns3.binary_path(a).parent == tmp_path / "ns3"
    assert ns3.binary_path(a) != ns3.binary_path(b)
    assert ns3.binary_path(a) == ns3.binary_path(ns3.Toolchain("g++", ("-lns3.37-core",), "3.37"))


def test_what_the_cell_prints_is_read():
    out = (
        "sta 2 rx_bytes 1000\nsta 3 rx_bytes 500\ntx_ack 9\ntx_data 12\nrx_bytes 1500\nwindow_s 2\n"
    )
    assert ns3.parse(out) == (1500, 2.0, {2: 1000, 3: 500}, {"tx_ack": 9, "tx_data": 12}, {})
    tcp = (
        "flow down0 rx_bytes 700\nflow up0 rx_bytes 300\nby_u0_tc_drop 4\napq_samples 9\n"
        "tcp_up0_timeouts 1\nrx_bytes 1000\nwindow_s 2\n"
    )
    assert ns3.parse(tcp)[4] == {"down0": 700, "up0": 300}
    assert ns3.parse(tcp)[3] == {"by_u0_tc_drop": 4, "apq_samples": 9, "tcp_up0_timeouts": 1}
    with pytest.raises(RuntimeError, match="no byte count"):
        ns3.parse("Segmentation fault")


@pytest.mark.skipif(ns3.missing() is not None, reason=str(ns3.missing()))
def test_quick_run_agrees_within_3_percent_and_writes_its_claims(tmp_path):
    from wlansim.cli import main

    assert main(["validate", "ns3", "--quick", "--out", str(tmp_path)]) == 0
    rows = list(csv.DictReader(open(tmp_path / "ns3-udp.csv")))
    assert [r["cell"] for r in rows] == [c.label for c in validation.cases(quick=True)]
    for r in rows:
        # Within 3 %, or (the A-MPDU case: 2 runs of 4 s, its 95 % intervals about ±5 %)
        # within the two 95 % half-widths.
        apart = abs(float(r["ns3_mbps"]) - float(r["wlansim_mbps"]))
        noise = float(r["ns3_ci95"]) + float(r["wlansim_ci95"])
        assert abs(float(r["diff_pct"])) < 3.0 or apart < noise, r
        # the same share of the data frames collided (with A-MPDU wlansim's accesses also
        # count its BlockAckReqs, ns-3's data frames do not)
        if "A-MPDU" not in r["cell"]:
            assert abs(float(r["ns3_collided_pct"]) - float(r["wlansim_collided_pct"])) < 3.0, r
    claims = {r["id"]: r["verdict"] for r in csv.DictReader(open(tmp_path / "claims.csv"))}
    assert set(claims) == {"ns3.udp-80211b", "ns3.udp-80211ag", "ns3.udp-80211n",
                           "ns3.udp-80211ac", "ns3.udp-80211n-ampdu",
                           "ns3.udp-80211ac-ampdu", "ns3.tcp-total", "ns3.tcp-ratio",
                           "ns3.rate-minstrel-ht", "ns3.rate-ideal",
                           "ns3.rate-minstrel-ht-11ac", "ns3.rate-ideal-11ac"}  # fmt: skip
    assert claims["ns3.tcp-total"] == "not run"  # no TCP case in --quick
    assert claims["ns3.rate-ideal"] == "not run"  # Minstrel-HT only in --quick
    assert claims["ns3.rate-ideal-11ac"] == claims["ns3.rate-minstrel-ht-11ac"] == "not run"
    rate = list(csv.DictReader(open(tmp_path / "ns3-rate.csv")))
    assert [r["cell"] for r in rate] == [c.label for c in validation.rate_cases(quick=True)]
    # Minstrel-HT at 25 dB settles at MCS 7 in both; at 10 dB, with 2 runs, ns-3's spread
    # between seeds (docs/validation-ns3.md) may leave that statement undecided.
    assert abs(float(rate[1]["diff_pct"])) < 2.0, rate[1]
    agreed = {k: v for k, v in claims.items() if k != "ns3.rate-minstrel-ht"}
    assert "does not hold" not in agreed.values()
    defaults = list(csv.DictReader(open(tmp_path / "ns3-defaults.csv")))
    assert {r["default"] for r in defaults} == {"preambleDetection", "beacons"}


def test_the_rate_cases_match_on_both_sides():
    cases = validation.rate_cases(quick=False)
    assert {(c.phy, c.algorithm, c.snr_db) for c in cases} == {
        (p, a, snr) for p in ("11n-20", "11ac-80") for a in ("minstrel_ht", "ideal")
        for snr in (5, 10, 15, 20, 25, 30)}  # fmt: skip
    for case in cases:
        s = resolve(validation.rate_scenario(case, 4.0))
        args = validation.rate_args(case, 4.0, seed=2)
        reception = s["channel"]["reception"]
        assert reception["noise_floor_dbm"] == validation.RATE_NOISE_DBM
        # the SNR over the noise of the channel's width (+6.02 dB at 80 MHz)
        width_db = {"11n-20": 0.0, "11ac-80": 6.02}[case.phy]
        assert reception["rx_power_dbm"] == args["rss"] == case.rx_power_dbm
        assert abs(case.rx_power_dbm - (validation.RATE_NOISE_DBM + width_db + case.snr_db)) < 0.01
        assert s["mac"]["rate_control"] == case.algorithm
        assert "mcs" not in validation.rate_scenario(case, 4.0)["phy"]  # the controller's
        assert args["rateManager"] == validation.RATE_MANAGERS[case.algorithm]
        assert args["nistErrors"] is True and args["preambleDetection"] is False
        assert args["n"] == 1 and args["ampdu"] == s["mac"]["ampdu_max_bytes"] == 65_535
        assert args["width"] == s["phy"]["channel_width"] == case.width
        assert args["standard"] == {"11n-20": "11n-5", "11ac-80": "11ac"}[case.phy]
        assert s["phy"]["standard"] == {"11n-20": "802.11n", "11ac-80": "802.11ac"}[case.phy]
        assert args["counters"] is True


def test_the_ladders_station_hears_ns3s_first_reports():
    """Under the ns3 profile the ladder's Minstrel-HT hears ns-3.37's association, ARP and
    ADDBA reports (``mac.rate_first_reports``'s default there), which trap some runs at
    MCS 1 at 802.11n 10 dB (ns-3: 7 of 60 runs at 11.5 Mb/s); without them none is."""
    import wlansim

    case = validation.RateCase("minstrel_ht", 10)

    def mbps(value: str | None) -> list[float]:
        out = []
        for seed in range(1, 21):
            s = validation.rate_scenario(case, 4.0)
            if value is not None:
                s["mac"]["rate_first_reports"] = value
            out.append(wlansim.run(s, seed=seed).metrics["throughput_bps"] / 1e6)
        return out

    default, ns3, none = mbps(None), mbps("ns3"), mbps("none")
    assert default == ns3
    assert min(none) > 15.5, none
    trapped = [x for x in ns3 if x < 12.0]
    assert trapped and all(11.0 < x < 12.0 for x in trapped), ns3
    assert sorted(ns3)[len(ns3) // 2] > 15.5  # most runs settle at MCS 2 as before


def test_the_tcp_cases_match_on_both_sides():
    import wlansim

    cases = validation.tcp_cases(quick=False)
    assert validation.tcp_cases(quick=True) == []
    assert {(c.phy, c.k) for c in cases} == {
        (p, k) for p in ("11n-20", "11ac-80") for k in (1, 2, 5)
    }
    case = validation.TcpCase("11n-20", 2)
    s = validation.tcp_scenario(case, 3.0)
    resolved = resolve(s)
    args = validation.tcp_args(case, 3.0, seed=4)
    # the AP's buffer, A-MPDU and the TCP settings on both sides
    assert resolved["ap"]["queue"] == args["apQueue"] == 100
    assert resolved["mac"]["ampdu_max_bytes"] == args["ampdu"] == validation.AMPDU_BYTES
    assert args["ns3::TcpSocket::SegmentSize"] == 1460 and s["tcp"]["mss"] == "1460 B"
    assert args["ns3::TcpSocket::RcvBufSize"] == 131072 and s["tcp"]["rwnd"] == "131072 B"
    # ns-3's bulk senders write whole segments, as wlansim's bulk source sends them
    assert args["ns3::BulkSendApplication::SendSize"] == args["ns3::TcpSocket::SegmentSize"]
    assert args["tcp"] == 2 and args["seed"] == 4 and args["rts"] == validation.NS3_RTS_NEVER
    # both directions carry traffic in a short wlansim run, and the ratio is up/down
    r = validation.tcp_wlansim_run(case, 3.0, seed=1)
    assert r["up_mbps"] > 1 and r["down_mbps"] > 0.1
    assert r["ratio"] == pytest.approx(r["up_mbps"] / r["down_mbps"])
    assert r == validation.tcp_wlansim_run(case, 3.0, seed=1) | {"cpu_s": r["cpu_s"]}
    assert wlansim.run(s, seed=1).metrics["events"] > 0


def test_a_starved_direction_takes_a_case_out_of_the_ratio_claim_only():
    import pandas as pd

    rows = []
    for sim, up, down in (("ns3", 40.0, 10.0), ("wlansim", 45.0, 3.0)):
        rows += [{"cell": "c", "k": 2, "buffer": 100, "sim": sim, "seed": s, "up_mbps": up + s,
                  "down_mbps": down, "total_mbps": up + s + down, "ratio": (up + s) / down,
                  "retransmissions": 0, "silent": 0, "cpu_s": 0.0}
                 for s in (1, 2, 3)]  # fmt: skip
    tables = {"tcp-runs": pd.DataFrame(rows)}
    total, ratio = [c for c in validation.CLAIMS if c.id.startswith("ns3.tcp")]
    assert validation.tcp_summary([]) == []  # --quick runs no TCP case
    assert validation.tcp_summary(rows)[0]["starved"]  # 3 of 48 Mb/s: under 10 %
    assert set(total.measure(tables)) == {"c"}
    from wlansim.evidence.claims import NotRun

    with pytest.raises(NotRun, match="starves"):
        ratio.measure(tables)


def test_a_run_with_a_silent_flow_stays_in_the_total_and_leaves_the_ratio():
    import pandas as pd

    rows = [{"cell": "c", "k": 1, "buffer": 100, "sim": sim, "seed": s, "up_mbps": 30.0 + s,
             "down_mbps": 20.0, "total_mbps": 50.0 + s, "ratio": (30.0 + s) / 20.0,
             "retransmissions": 0, "silent": 0, "cpu_s": 0.0} for sim in ("ns3", "wlansim")
            for s in (1, 2, 3)]  # fmt: skip
    # ns-3's seed 3: the download stalled (ns-3.37's Block Ack stall), its ratio infinite
    rows[2] = {**rows[2], "up_mbps": 53.0, "down_mbps": 0.0, "ratio": math.inf, "silent": 1}
    row = validation.tcp_summary(rows)[0]
    assert row["ns3_silent"] == pytest.approx(1 / 3) and row["wlansim_silent"] == 0
    assert (row["ns3_ratio_runs"], row["wlansim_ratio_runs"]) == (2, 3)
    assert row["ns3_ratio"] == pytest.approx((31 / 20 + 32 / 20) / 2)
    assert row["ns3_total_mbps"] == pytest.approx((51 + 52 + 53) / 3)
    total, ratio = [c for c in validation.CLAIMS if c.id.startswith("ns3.tcp")]
    tables = {"tcp-runs": pd.DataFrame(rows)}
    wl, ns = ratio.measure(tables)["c"]
    assert len(ns.values) == 2 and len(wl.values) == 3
    assert len(total.measure(tables)["c"][1].values) == 3


def test_an_ns3_run_that_aborts_is_left_out_and_counted(tmp_path):
    import pandas as pd

    # a cell that aborts as ns-3.37's TCP does in some runs (std::bad_alloc)
    crash = tmp_path / "cell"
    crash.write_text('#!/bin/sh\necho "terminate called" >&2\nexit 134\n')
    crash.chmod(0o755)
    cell = store.Runs(tmp_path / "runs", "k", crash)
    failed = validation.tcp_ns3_run(cell, validation.TcpCase("11n-20", 1), 3.0, seed=2)
    assert failed["failed"] == "ns-3 aborted: terminate called"
    # stored as it failed: read back without running anything
    crash.unlink()
    again = validation.tcp_ns3_run(cell, validation.TcpCase("11n-20", 1), 3.0, seed=2)
    assert again["failed"] == failed["failed"] and cell.made == cell.asked
    assert math.isnan(failed["total_mbps"])
    rows = [{"cell": "c", "k": 1, "buffer": 100, "sim": sim, "seed": s, "up_mbps": 30.0 + s,
             "down_mbps": 20.0, "total_mbps": 50.0 + s, "ratio": (30.0 + s) / 20.0,
             "retransmissions": 0, "silent": 0, "cpu_s": 0.0} for sim in ("ns3", "wlansim")
            for s in (1, 2, 3)]  # fmt: skip
    rows[1] = {**rows[1], **failed}  # ns-3's seed 2
    row = validation.tcp_summary(rows)[0]
    assert row["ns3_failed"] == 1
    assert row["ns3_total_mbps"] == pytest.approx(52.0)  # seeds 1 and 3
    assert row["wlansim_total_mbps"] == pytest.approx(52.0)  # seeds 1-3
    total = next(c for c in validation.CLAIMS if c.id == "ns3.tcp-total")
    wlansim_sample, ns3_sample = total.measure({"tcp-runs": pd.DataFrame(rows)})["c"]
    assert len(ns3_sample.values) == 2 and len(wlansim_sample.values) == 3


def test_speed_runs_ns3_at_its_cheapest_on_the_bench_cases():
    from wlansim.bench import cases as bench_cases

    saturated, tcp = validation.SPEED_CASES
    bench = bench_cases()
    # the validation's cells under the standard's PPDU timing (the bench's history)
    std = {"profile": "standard"}
    assert bench["ampdu-11ac-20sta-saturated-100s"] == validation.scenario(saturated, 100.0) | std
    assert bench["ampdu-11ac-tcp-5up-5down-100s"] == validation.tcp_scenario(tcp, 100.0) | std
    s, args, mbps = validation._speed_sides(saturated, 3.0)
    assert "counters" not in args and args["ampdu"] == validation.AMPDU_BYTES
    share = mbps({"throughput_bps": 8.0 * 1e6 * saturated.n}) / saturated.n  # 8 Mb/s each
    assert share == pytest.approx(8.0)
    ours = validation.wlansim.run(s, seed=1).metrics["throughput_bps"] / saturated.n
    assert args["offered"] == round(validation.SPEED_LOAD_FACTOR * ours)
    row = {"case": saturated.label, "duration_s": 3.0, "runs": 1, "ns3_mbps": 230.0,
           "wlansim_mbps": 231.0, "ns3_wall_s": 9.0, "wlansim_wall_s": 0.03, "ns3_cpu_s": 8.0,
           "wlansim_cpu_s": 0.02, "wall_ratio": 300.0, "cpu_ratio": 400.0,
           "load_before": (1.0, 1.0, 1.0), "load_after": (1.0, 1.0, 1.0)}  # fmt: skip
    lines = validation.speed_lines([row])
    assert "1.2x their share" in lines[0] and "400" in lines[2] and "load average" in lines[3]


@pytest.mark.skipif(ns3.missing() is not None, reason=str(ns3.missing()))
def test_speed_refuses_no_rounds():
    from wlansim.errors import ScenarioError
    from wlansim.evidence.validation import speed_report

    with pytest.raises(ScenarioError, match="--speed-runs 0: at least 1"):
        speed_report("ns3", 0)


def test_the_tcp_cells_count_the_mpdus_in_flight_against_the_queues():
    """Under the ns3 profile with A-MPDUs the MPDUs in flight count against the AP's
    queue of B (``mac.queue_counts_in_flight``'s default there, ns-3.37's
    `WifiMacQueue`): at 802.11n k = 2 the AP's queue, sampled with them, holds more and
    drops more of the uploads' ACKs than with the key off, which is what came before;
    the key is refused without A-MPDUs, naming key, value and what is allowed."""
    import wlansim
    from wlansim.errors import ScenarioError

    case = validation.TcpCase("11n-20", 2)
    output = {"series": ["queue_length"], "series_interval": "10 ms"}

    def ap(value: bool | None) -> tuple[float, int]:
        s = validation.tcp_scenario(case, 4.0) | {"output": output}
        if value is not None:
            s["mac"]["queue_counts_in_flight"] = value
        r = wlansim.run(s, seed=1)
        queue = r.series["queue_length"]["ap"]
        return sum(queue) / len(queue), int(r.nodes.iloc[0]["queue_drops_ack"])

    default, on, off = ap(None), ap(True), ap(False)
    assert default == on
    assert on[0] > off[0] and on[1] > off[1], (on, off)
    s = validation.tcp_scenario(case, 4.0)
    del s["mac"]["ampdu_max_bytes"]
    s["mac"]["queue_counts_in_flight"] = True
    with pytest.raises(ScenarioError, match=r"mac\.queue_counts_in_flight.*true.*allowed"):
        wlansim.run(s, seed=1)
