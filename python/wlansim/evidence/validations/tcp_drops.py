"""Fall & Floyd, "Simulation-based comparisons of Tahoe, Reno and SACK TCP" (CCR 1996):
one TCP flow over a wired bottleneck with 1 to 4 segments dropped from one window.

The paper's path is a source on a fast link (8 Mb/s, 0.1 ms) to a router and a bottleneck
(0.8 Mb/s, 100 ms) to the sink, the router's queue 8 packets, 1000-byte segments, one ACK
per segment (ns of that era). In wlansim terms: station sta-0 uploads over an 802.11g radio
hop (54 Mb/s, alone on the channel: fast and uncontended) to the AP, which has the 8 Mb/s,
0.1 ms link to the router; the sink is a server behind the router on the 0.8 Mb/s, 100 ms
link with a queue of 8 packets. TCP uses the `ns2-compat` profile (MSS 1000 B, an ACK per
segment, receiver window 20 segments, initial window 2 and initial ssthresh 20 segments as
ns-2's defaults (the paper's initial window was 1), clock granularity 10 ms) with
RFC 6298's minimum RTO of 1 s instead of ns-2's 200 ms: the paper's coarse timers (ticks of
100 ms and more) never fired within NewReno's four RTTs of recovery, while a 200 ms minimum
lets the "impatient" timer of RFC 6582 §4 expire in the third RTT of recovery. The
`[[drops]]` entry drops data segments 14, 16, 18 and 20 (the first 1, 2, 3 or 4 of them,
first transmissions) as they leave the router: they are sent in the same flight of slow
start, before the sender sees the first duplicate ACK (the paper's "drops
from one window of data").

Per case the table gives: timeouts and retransmissions (the sender's counters), the
recovery point (the highest byte sent before the first retransmission, RFC 6582's
`recover`), the time from the first drop until an ACK covering the recovery point reaches
the sender, in seconds and in RTTs (the path's smallest measured RTT), the same from the
first retransmission (the time spent recovering once the loss is detected), whether cwnd went
down to one segment after the first drop (Tahoe's slow start, or a timeout), and the
queue drops (the scripted drops are meant to be the only losses; a window that grows
back too fast can still overflow the router's 8 packets, as Reno's does with two drops).

As a validation (:mod:`wlansim.evidence.validation`): :data:`CLAIMS` decided on the table
``tcp-drops`` of :func:`run`; a full run also keeps the first seed's segments, ACKs and
cwnd (tables ``tcp-drops-sequence`` and ``tcp-drops-cwnd``) for the paper's plots.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wlansim.api import run as run_scenario
from wlansim.evidence.claims import Claim, Every, InRange, NotRun, Sample, Scale
from wlansim.evidence.validation import at_least, seconds_text

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

TITLE = "Fall & Floyd 1996: 1 to 4 drops from one window, per TCP variant"
PROFILE = "standard"
NO_NS2 = "this validation sets wlansim beside the outcomes Fall & Floyd report, not beside ns-2.35"
JSON_TABLE = "tcp-drops"

VARIANTS = ("tahoe", "reno", "newreno", "sack", "vegas", "cubic")
DROP_PATTERN = (14, 16, 18, 20)
MSS = 1000
SAMPLE = "5 ms"


def scenario(variant: str, drops: int, *, duration: str = "6 s", seed: int = 1) -> dict:
    """The path with the first `drops` segments of DROP_PATTERN dropped at the router."""
    s = {
        "name": f"tcp-drops-{variant}-{drops}",
        "seed": seed,
        "duration": duration,
        "phy": {"standard": "802.11g"},
        "routers": [{"name": "router"}],
        "links": [{"a": "ap", "b": "router", "rate": "8 Mb/s", "delay": "0.1 ms"}],
        "servers": [
            {
                "name": "sink",
                "via": "router",
                "rate": "0.8 Mb/s",
                "delay": "100 ms",
                "queue": 8,
            }
        ],
        "stations": [{"name": "sta"}],
        "tcp": {"profile": "ns2-compat", "variant": variant, "mss": MSS, "min_rto": "1 s"},
        "flows": [
            {
                "name": "up",
                "protocol": "tcp",
                "direction": "uplink",
                "stations": "sta",
                "server": "sink",
            }
        ],
        "output": {"packets": True, "series": ["cwnd"], "series_interval": SAMPLE},
    }
    if drops:
        s["drops"] = [{"flow": "up-0", "segments": list(DROP_PATTERN[:drops]), "at": "router"}]
    return s


def segment_number(seq) -> int:
    """The 1-based number of the data segment starting at sequence number `seq`."""
    return int((seq - 1) // MSS) + 1


def analyse(r, variant: str, drops: int) -> dict:
    """One table row from a run's packet records, cwnd series and TCP counters."""
    p = r.packets
    data = p[(p["direction"] == "forward") & (p["payload_bytes"] > 0)].sort_values("created_s")
    acks = p[(p["direction"] == "reverse") & p["tcp_ack"].notna() & p["delivered_s"].notna()]
    flow = r.flows.iloc[0]
    row = {
        "variant": variant,
        "drops": drops,
        "timeouts": int(flow["timeouts"]),
        "retransmissions": int(flow["retransmissions"]),
        "fast_retransmits": int(flow["fast_retransmits"]),
        "queue_drops": int(flow["dropped_queue"]),
    }
    # The path's RTT: the smallest time from a first transmission to the ACK covering it.
    seen: set[int] = set()
    firsts = []
    for seq, created in zip(data["tcp_seq"], data["created_s"], strict=True):
        if seq not in seen:
            seen.add(seq)
            firsts.append((seq, created))
    ack_times = acks.sort_values("delivered_s")[["tcp_ack", "delivered_s"]].to_numpy()
    rtt = min(
        (
            next((t for a, t in ack_times if a >= seq + MSS and t > created), float("inf"))
            - created
            for seq, created in firsts[:60]
        ),
        default=float("nan"),
    )
    row["rtt_s"] = rtt
    scripted = p[p["dropped"] == "scripted"]
    if scripted.empty:
        row.update(recovery_s=float("nan"), recovery_rtts=float("nan"), cwnd_to_one=False)
        row.update(in_recovery_rtts=float("nan"))
        row["dropped_segments"] = ""
        return row
    row["dropped_segments"] = " ".join(
        str(segment_number(s)) for s in sorted(scripted["tcp_seq"].astype(int))
    )
    first_drop = float(scripted["created_s"].min())
    # The first retransmission: the first data segment sent again.
    sent: set[int] = set()
    recover = None
    highest = 0
    retx_at = float("nan")
    for seq, length, created in zip(
        data["tcp_seq"], data["payload_bytes"], data["created_s"], strict=True
    ):
        if seq in sent:
            recover, retx_at = highest, float(created)
            break
        sent.add(seq)
        highest = max(highest, int(seq) + int(length))
    if recover is None:
        row.update(recovery_s=float("nan"), recovery_rtts=float("nan"))
        row.update(in_recovery_rtts=float("nan"))
    else:
        covered = acks[acks["tcp_ack"] >= recover]["delivered_s"]
        done = float(covered.min()) if not covered.empty else float("nan")
        row["recovery_s"] = done - first_drop
        row["recovery_rtts"] = row["recovery_s"] / rtt
        row["in_recovery_rtts"] = (done - retx_at) / rtt
    cwnd = r.series["cwnd"]
    after = [c for t, c in zip(cwnd["t_s"], cwnd["up-0"], strict=True) if t > first_drop]
    row["cwnd_to_one"] = bool(after) and min(after) <= MSS
    return row


def run_case(variant: str, drops: int, *, duration: str = "6 s", seed: int = 1):
    """Run one case: (table row, results)."""
    r = run_scenario(scenario(variant, drops, duration=duration, seed=seed))
    return analyse(r, variant, drops), r


def compare(
    variants=VARIANTS, drops=(1, 2, 3, 4), *, duration: str = "6 s", seeds=(1,)
) -> tuple[pd.DataFrame, dict]:
    """Every (variant, number of drops, seed): the table (a row per run, with its seed),
    and the results by case (the first seed's)."""
    import pandas as pd

    rows, runs = [], {}
    for v in variants:
        for d in drops:
            for seed in seeds:
                row, r = run_case(v, d, duration=duration, seed=seed)
                rows.append({**row, "seed": seed})
                runs.setdefault((v, d), r)
    return pd.DataFrame(rows), runs


# --------------------------------------------------------------------------- the validation


@dataclasses.dataclass(frozen=True)
class Plan:
    """The options of ``wlansim validate tcp-drops``: the variants, the first seed and
    the runs per case; --quick runs 4 s instead of 6 s and draws no plots."""

    quick: bool
    variants: tuple[str, ...]
    seed: int
    reps: int

    @classmethod
    def of(cls, quick: bool, variants: Sequence[str], seed: int, reps: int) -> Plan:
        from wlansim.errors import ScenarioError
        from wlansim.scenario import resolve

        for v in variants:
            try:
                resolve(scenario(v, 1))
            except ScenarioError as exc:
                raise ScenarioError(f"--variants {v!r}: {exc}") from None
        at_least("--reps", reps)
        return cls(quick, tuple(variants), seed, reps)

    @property
    def duration(self) -> float:
        """Seconds per run."""
        return 4.0 if self.quick else 6.0

    def skips(self) -> list[str]:
        return ["quick: 4 s per run instead of 6 s, no plots"] if self.quick else []


def run(plan: Plan) -> dict[str, pd.DataFrame]:
    """The table ``tcp-drops`` (a row per variant, number of drops and seed, :func:`compare`)
    and, unless quick, the first seed's ``tcp-drops-sequence`` and ``tcp-drops-cwnd``
    (:func:`traces`) for :func:`plot`."""
    seeds = range(plan.seed, plan.seed + plan.reps)
    table, runs = compare(plan.variants, duration=seconds_text(plan.duration), seeds=seeds)
    if plan.quick:
        return {"tcp-drops": table}
    sequence, cwnd = traces(runs)
    return {"tcp-drops": table, "tcp-drops-sequence": sequence, "tcp-drops-cwnd": cwnd}


def traces(runs: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """From each case's results (:func:`compare`'s second value): the segments sent, the
    ACKs received and the segments dropped (variant, drops, kind, t_s and segment: the
    data segment's number, an ACK's ``(ack - 1) // MSS``), and cwnd in segments over time."""
    import pandas as pd

    sequence, cwnd = [], []
    for (v, d), r in runs.items():
        case = {"variant": v, "drops": d}
        p = r.packets
        data = p[(p["direction"] == "forward") & (p["payload_bytes"] > 0)]
        acks = p[(p["direction"] == "reverse") & p["delivered_s"].notna()]
        lost = data[data["dropped"] == "scripted"]
        for kind, t, n in (
            ("data", data["created_s"], data["tcp_seq"].map(segment_number)),
            ("ack", acks["delivered_s"], (acks["tcp_ack"] - 1) // MSS),
            ("drop", lost["created_s"], lost["tcp_seq"].map(segment_number)),
        ):
            sequence.append(pd.DataFrame({**case, "kind": kind, "t_s": t, "segment": n}))
        c = r.series["cwnd"]
        cwnd.append(pd.DataFrame({**case, "t_s": c["t_s"],
                                  "cwnd_segments": [x / MSS for x in c["up-0"]]}))  # fmt: skip
    return pd.concat(sequence, ignore_index=True), pd.concat(cwnd, ignore_index=True)


SHOWN = ["variant", "drops", "timeouts", "retransmissions", "fast_retransmits", "queue_drops",
         "recovery_s", "recovery_rtts", "in_recovery_rtts", "cwnd_to_one"]  # fmt: skip


def show(tables: dict[str, pd.DataFrame], plan: Plan) -> list[str]:
    """The first seed's row of every case."""
    table = tables["tcp-drops"]
    shown = table[table["seed"] == plan.seed][SHOWN]
    rtt = table["rtt_s"].min()
    return [
        "Fall & Floyd 1996: one TCP upload, bottleneck 0.8 Mb/s 100 ms, router queue 8, "
        "MSS 1000 B, segments 14, 16, 18, 20 dropped at the router; "
        f"{seconds_text(plan.duration)} per run, "
        f"smallest RTT {rtt * 1e3:.0f} ms. recovery = first drop (in_recovery: first "
        "retransmission) until the recovery point is acknowledged:",
        shown.to_string(index=False, float_format=lambda v: f"{v:.2f}"),
    ]


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[Path]:
    """The paper's plots (none in a quick run): tcp-drops-sequence.png and
    tcp-drops-cwnd.png (:func:`plot_case`)."""
    if "tcp-drops-sequence" not in tables:
        return []
    out = Path(out)
    return [
        plot_case(tables["tcp-drops-sequence"], out / "tcp-drops-sequence.png"),
        plot_case(tables["tcp-drops-cwnd"], out / "tcp-drops-cwnd.png", kind="cwnd"),
    ]


def plot_case(trace: pd.DataFrame, path: Path, *, kind: str = "sequence") -> Path:
    """The paper's layout: one panel per variant (columns) and number of drops (rows), from
    a table of :func:`traces`. `sequence`: segment number (mod 90, as in the paper) against
    time, data segments sent as dots, ACKs as small marks, drops as crosses. `cwnd`: cwnd
    in segments against time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(trace["variant"]))
    drops = sorted(set(trace["drops"]))
    fig, axes = plt.subplots(
        len(drops),
        len(variants),
        figsize=(2.6 * len(variants), 2.2 * len(drops)),
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    for j, v in enumerate(variants):
        for i, d in enumerate(drops):
            ax = axes[i][j]
            case = trace[(trace["variant"] == v) & (trace["drops"] == d)]
            if kind == "cwnd":
                ax.plot(case["t_s"], case["cwnd_segments"], lw=0.9)
            else:
                style = {"data": (".", {"ms": 2}),
                         "ack": ("_", {"ms": 2, "color": "grey", "alpha": 0.6}),
                         "drop": ("x", {"ms": 6})}  # fmt: skip
                for what, (marker, kw) in style.items():
                    rows = case[case["kind"] == what]
                    ax.plot(rows["t_s"], rows["segment"] % 90, marker, **kw)
            if i == 0:
                ax.set_title(v)
            if j == 0:
                what = "cwnd (segments)" if kind == "cwnd" else "segment mod 90"
                ax.set_ylabel(f"{d} drop{'s' if d > 1 else ''}\n{what}")
            if i == len(drops) - 1:
                ax.set_xlabel("time (s)")
            ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- claims


def _cases(runs: pd.DataFrame, variant: str, column: str, drops=(1, 2, 3, 4)) -> dict:
    """{drops: the runs' values of `column`} for one variant."""
    out = {}
    for d in drops:
        rows = runs[(runs["variant"] == variant) & (runs["drops"] == d)]
        if not rows.empty:
            out[d] = Sample.from_frame(rows, column)
    if not out:
        raise NotRun(f"{variant} was not run")
    return out


def _claims() -> list[Claim]:
    """Fall & Floyd 1996's outcomes per variant as claim records (the runs differ only
    in the wireless hop's backoff draws, so their values rarely differ between seeds)."""
    count = Scale(relative=False, digits=2)

    def none(label):
        return InRange(label, -0.5, 0.5, scale=count)

    def per(variant, column, drops=(1, 2, 3, 4)):
        return lambda t: _cases(t["tcp-drops"], variant, column, drops)

    rtts = Scale(relative=False, unit="RTT", digits=2)
    return [
        Claim("ff.tahoe-slow-starts", "Fall & Floyd 1996, §3",
              "Tahoe slow-starts (cwnd to one segment) after every drop pattern",
              Every(InRange("cwnd fell to one", 0.5, 1.0, scale=count), "drops"),
              per("tahoe", "cwnd_to_one")),
        Claim("ff.reno-one-drop", "Fall & Floyd 1996, §4",
              "Reno recovers from one drop by fast retransmit, without a timeout",
              Every(none("timeouts"), "drops"), per("reno", "timeouts", (1,))),
        Claim("ff.reno-timeout-from-three", "Fall & Floyd 1996, §4",
              "Reno needs a retransmit timeout for three or four drops from one window",
              Every(InRange("timeouts", 0.5, 10, scale=count), "drops"),
              per("reno", "timeouts", (3, 4))),
        Claim("ff.newreno-no-timeout", "Fall & Floyd 1996, §5",
              "NewReno recovers from one to four drops without a timeout",
              Every(none("timeouts"), "drops"), per("newreno", "timeouts")),
        *[Claim(f"ff.newreno-rtt-per-drop-{d}", "Fall & Floyd 1996, §5",
                f"NewReno retransmits one dropped segment per RTT: {d} drops take {d} RTTs",
                InRange("RTTs from the first retransmission", d - 0.05, d + 0.5, scale=rtts),
                lambda t, d=d: _cases(t["tcp-drops"], "newreno", "in_recovery_rtts", (d,))[d])
          for d in (1, 2, 3, 4)],
        Claim("ff.sack-no-timeout", "Fall & Floyd 1996, §6",
              "SACK recovers from one to four drops without a timeout",
              Every(none("timeouts"), "drops"), per("sack", "timeouts")),
        Claim("ff.sack-one-rtt", "Fall & Floyd 1996, §6",
              "SACK recovers every drop pattern in about one RTT",
              Every(InRange("RTTs from the first retransmission", 0.95, 1.5, scale=rtts),
                    "drops"), per("sack", "in_recovery_rtts")),
    ]  # fmt: skip


CLAIMS = _claims()
