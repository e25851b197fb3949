"""TCP through the AP from Python: results columns, metrics, scenario errors, examples."""

from pathlib import Path

import pytest

import wlansim
from wlansim.errors import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
ONE_UP_ONE_DOWN = SCENARIOS / "pilosof-1up-1down.toml"


def test_tcp_flows_report_goodput_rtt_and_ratio():
    r = wlansim.run(ONE_UP_ONE_DOWN, overrides={"duration": "15 s", "ap.queue": 20})
    f = r.flows.set_index("name")
    assert set(f["protocol"]) == {"tcp"}
    assert f.loc["upload-0", "dst"] == "srv-0" and f.loc["download-0", "src"] == "srv-0"
    assert (f["goodput_bps"] > 0).all() and (f["rtt_mean_s"] > 0).all()
    m = r.metrics
    assert m["up_down_ratio"] == pytest.approx(
        f.loc["upload-0", "goodput_bps"] / f.loc["download-0", "goodput_bps"]
    )
    assert m["up_down_ratio"] > 5
    assert m["ap_queue_drops_ack"] > 0 and m["ap_queue_drops_data"] > 0
    ap = r.nodes.set_index("name").loc["ap"]
    assert ap["frames_data"] > 0 and ap["frames_ack"] > 0


def test_srtt_and_active_flow_series():
    r = wlansim.run(
        ONE_UP_ONE_DOWN,
        overrides={"duration": "12 s", "ap.queue": 5,
                   "output.series": ["srtt", "active_flows", "flow_throughput"],
                   "output.series_interval": "250 ms"},
    )  # fmt: skip
    srtt, active, thr = r.series["srtt"], r.series["active_flows"], r.series["flow_throughput"]
    f = r.flows.set_index("name")
    for name in f.index:
        values = [v for v in srtt[name] if v is not None]  # null before the first RTT sample
        assert values and min(values) > 0
        # The run's mean RTT lies within the range its smoothed estimate went through.
        assert min(values) * 0.5 < f.loc[name, "rtt_mean_s"] < max(values) * 2
    assert sorted(k for k in active if k != "t_s") == ["all", "downlink", "uplink"]
    directions = f["direction"].to_dict()
    for i, t in enumerate(active["t_s"]):
        moved = {n for n in f.index if thr[n][i] > 0}
        up = sum(directions[n] == "uplink" for n in moved)
        assert (active["uplink"][i], active["downlink"][i]) == (up, len(moved) - up), t
        assert active["all"][i] == len(moved)
    # With a 5-packet AP buffer the download stalls in some intervals (timeouts).
    assert min(active["downlink"]) == 0 and max(active["downlink"]) == 1


def test_clamp_example_is_fair():
    r = wlansim.run(SCENARIOS / "pilosof-4up-4down-clamp.toml", overrides={"duration": "15 s"})
    assert 0.8 <= r.metrics["up_down_ratio"] <= 1.25
    assert r.metrics["jain_index"] > 0.95


@pytest.mark.parametrize(
    ("override", "needle"),
    [
        ("tcp.rwnd=0", "rwnd"),
        ("tcp.variant=vegas2", "newreno"),
        ("ap.queue=0", "ap.queue"),
        ("tcp.profile=ns3", "ns2-compat"),
    ],
)
def test_bad_tcp_and_ap_options_are_clear_errors(override, needle):
    with pytest.raises(ScenarioError, match=needle):
        wlansim.run(ONE_UP_ONE_DOWN, overrides=[override])


VARIANTS = ["tahoe", "reno", "newreno", "sack", "vegas", "vegas-sack", "cubic", "cubic-sack"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_tcp_variant_runs_from_python(variant):
    """The variant names pass through `wlansim.run` (scenario dicts travel as JSON)."""
    r = wlansim.run(
        ONE_UP_ONE_DOWN,
        overrides={"duration": "10 s", "ap.queue": 20, "tcp.variant": variant},
    )
    f = r.flows.set_index("name")
    # 5 s measured; the cell carries about 3.4 Mb/s of goodput whatever the variant (the
    # download's share depends on it: B = 20 is the unfair case of pilosof2003).
    assert f["goodput_bps"].sum() > 3e6
    assert (f["goodput_bps"] > 0).all()


@pytest.mark.parametrize(
    ("override", "needle"),
    [
        ("tcp.vegas_alpha=4", "vegas_alpha = 4"),
        ("tcp.cubic_beta=1.5", "cubic_beta = 1.5"),
        ("tcp.variant=cubic-reno", "cubic-sack"),
    ],
)
def test_bad_variant_parameters_name_the_key(override, needle):
    with pytest.raises(ScenarioError, match=needle):
        wlansim.run(ONE_UP_ONE_DOWN, overrides=[override])


def test_clamping_total_throughput_cost_is_the_thinned_ack_airtime():
    """pilosof2003 reports total throughput unchanged by rwnd clamping (the issue asks for
    within 10 %). Here, 4 up + 4 down with B = 100, clamping costs about 12 % of the total.
    The cause, asserted below: without clamping the AP's full buffer drops a large share of
    the uploads' TCP ACKs, which cumulative ACKs make redundant, so the medium carries fewer
    ACK frames and more data frames; with clamping nothing is dropped and every data
    segment costs one ACK frame. The goodput difference is the difference in data frames."""
    runs = {
        clamp: wlansim.run(
            SCENARIOS / "pilosof-4up-4down-clamp.toml",
            overrides={"duration": "30 s", "ap.rwnd_clamp": clamp},
        ).metrics
        for clamp in (False, True)
    }
    plain, clamped = runs[False], runs[True]
    assert plain["up_down_ratio"] >= 5
    assert 0.8 <= clamped["up_down_ratio"] <= 1.25
    # Without clamping: ACK frames are thinned at the AP (drops ≥ 25 % of the ACKs sent on).
    assert plain["ap_queue_drops_ack"] >= 0.25 * plain["ap_frames_ack"]
    assert clamped["ap_queue_drops_ack"] == 0
    ack_per_data = {
        c: (m["ap_frames_ack"] + m["stations_frames_ack"])
        / (m["ap_frames_data"] + m["stations_frames_data"])
        for c, m in runs.items()
    }
    assert ack_per_data[False] < 0.7 and ack_per_data[True] > 0.98
    # The goodput ratio is the data-frame ratio: the loss is airtime spent on ACK frames.
    data = {c: m["ap_frames_data"] + m["stations_frames_data"] for c, m in runs.items()}
    goodput_ratio = clamped["goodput_bps"] / plain["goodput_bps"]
    assert abs(goodput_ratio - data[True] / data[False]) < 0.02
    assert 0.8 < goodput_ratio < 0.95


def test_cwnd_series_on_request():
    r = wlansim.run(
        ONE_UP_ONE_DOWN,
        overrides={"duration": "12 s", "output.series": ["cwnd", "flow_throughput"],
                   "output.series_interval": "500 ms"},
    )  # fmt: skip
    cwnd = r.series["cwnd"]
    tcp_flows = sorted(r.flows["name"])
    assert sorted(k for k in cwnd if k != "t_s") == tcp_flows
    n = len(cwnd["t_s"])
    assert n >= 10
    for name in tcp_flows:
        assert len(cwnd[name]) == n
        assert min(cwnd[name]) >= 1024, "cwnd never falls below one MSS"
    # The sampled throughput adds up to the delivered bytes, but for the last interval
    # (from the last sample to the end of the run), which no sample covers.
    thr = r.series["flow_throughput"]
    for _, f in r.flows.iterrows():
        sampled = sum(thr[f["name"]]) * 0.5 / 8
        assert 0 <= f["delivered_bytes"] - sampled <= 1.5 * f["delivered_bytes"] / n + 2048
