"""Property-based fuzzing of the Python API (hypothesis): generated and mutated scenario
dicts through `wlansim.run`. Every outcome is results or a `ScenarioError` naming a key
and saying what is allowed; never a Rust panic ("internal error"), another exception, a
process abort or a run that does not end; and the results of a run make sense
(`sane`: no collision probability above 1, no more UDP packets delivered than offered
unless offered during the warm-up, no file moved faster than any link, MAC counters that
add up: `fuzz_forkserver.nonsense`). Each case runs
in a process of its own, forked from a small fork server that has imported wlansim
(`tests/fuzz_forkserver.py`), with limits on its CPU time and address space, so that an
abort or a hang is reported as such instead of ending the test session.

The operators include those that found issue 28's bugs: values nested deeply, sizes and
rates near the caps, special files (/dev/zero, a directory, a FIFO) as input files,
every size and time distribution at extreme parameters, per-AP options on some APs
only. The generated scenarios reach the keys of issue 40 (802.11n/ac, A-MPDU, A-MSDU,
Block Ack, per-AC TXOP limits, MSDU lifetimes, rate control, the ns-3 profile, captures)
and their interactions, and `sane` holds their MAC counters to account too (every
exchange ends once; ADDBA frames, BlockAckReqs and A-MPDUs of at most 64 MPDUs go in
exchanges; captures are well-formed pcap). In `make test` each property tries a small
fixed set of cases (derandomized); the long run of the README sets
``WLANSIM_FUZZ_CASES`` (cases per property) and a fresh ``--hypothesis-seed``, and
``WLANSIM_FUZZ_REPORT=FILE`` writes there the tally of outcomes of each property, its
duration and CPU time, and the load average.

Crashes found in the Rust core are listed in KNOWN_CRASHES (reproducers, now regression
tests since the core was fixed) and kept out of the generated cases, so that the fuzz looks
for new ones.
"""

from __future__ import annotations

import atexit
import collections
import copy
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ROOT

from wlansim.machine import load_average

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

#: CPU seconds a case may use before it gets Ctrl-C (SIGINT).
TIME_LIMIT_S = 10.0
#: CPU seconds a case may use after Ctrl-C before it counts as stuck.
INTERRUPT_LIMIT_S = 5.0
#: Wall-clock seconds a case may spend asleep (blocked, not waiting for a CPU) before it
#: gets Ctrl-C, and again after it.
ASLEEP_LIMIT_S = 10.0
LIMITS = (TIME_LIMIT_S, INTERRUPT_LIMIT_S, ASLEEP_LIMIT_S)


class Nested:
    """A value nested `depth` levels deep (tables or arrays): sent to the fork server as
    a marker and built in the case's process without recursion, since encoding it as JSON,
    or hypothesis printing it, would itself recurse past Python's limit."""

    def __init__(self, depth: int, table: bool):
        self.depth, self.table = depth, table

    def __repr__(self) -> str:
        return f"Nested({self.depth}, table={self.table})"


def _encode(obj):
    """`obj` as JSON (`fuzz_forkserver.decode` turns it back): markers for `Nested`
    values and for the numbers JSON cannot carry."""
    if isinstance(obj, Nested):
        return {"__nested__": [obj.depth, obj.table]}
    if isinstance(obj, float) and not math.isfinite(obj):
        return {"__float__": repr(obj)}
    if isinstance(obj, dict):
        return {k: _encode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    return obj


#: Per property: outcomes, CPU seconds of the cases' processes, time of the first case's
#: start and of the last one's end (written to $WLANSIM_FUZZ_REPORT at exit).
TALLY: dict = {}
EXAMPLES_OF: dict = {}
LOAD_AT_START = load_average()


def _report() -> None:
    path = os.environ.get("WLANSIM_FUZZ_REPORT")
    if not (path and TALLY):
        return
    properties = {}
    for name, t in TALLY.items():
        cases, wall = sum(t["outcomes"].values()), t["end"] - t["start"]
        properties[name] = {"cases": cases, "outcomes": dict(t["outcomes"]),
                            "wall_s": round(wall, 1), "cpu_s": round(t["cpu_s"], 1),
                            "cases_per_s": round(cases / wall, 1)}  # fmt: skip
    with open(path, "w") as f:
        json.dump({"command": sys.argv, "load_average": [LOAD_AT_START, load_average()],
                   "properties": properties, "examples": EXAMPLES_OF}, f, indent=1)  # fmt: skip


atexit.register(_report)


class ForkServer:
    """`tests/fuzz_forkserver.py`, started at the first case (and again if it ended):
    every case runs in a process forked from it, under the limits."""

    def __init__(self):
        self.proc = None

    def ask(self, body: str, scenario, limits) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("fuzz_forkserver.py"))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
            )  # fmt: skip
        case = {"body": body, "scenario": _encode(scenario), "limits": limits}
        try:
            self.proc.stdin.write(json.dumps(case) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            return {"outcome": "crash", "message": "the fork server ended", "cpu_s": 0.0}
        return json.loads(line)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()  # the server ends at the end of its input
            self.proc.wait()
            self.proc.stdout.close()


FORK_SERVER = ForkServer()
atexit.register(FORK_SERVER.close)


class Runner:
    """Runs cases of the property `name` in the fork server and tallies their outcomes."""

    def __init__(self, name: str):
        self.name = name

    def run(self, scenario: dict) -> dict:
        start = time.monotonic()
        out = FORK_SERVER.ask("verdict", scenario, LIMITS)
        tally = TALLY.setdefault(self.name, {"outcomes": collections.Counter(), "cpu_s": 0.0,
                                             "start": start})  # fmt: skip
        tally["outcomes"][out["outcome"]] += 1
        tally["cpu_s"] += out["cpu_s"]
        tally["end"] = time.monotonic()
        if out["outcome"] not in ("ok", "ScenarioError"):
            EXAMPLES_OF.setdefault(out["outcome"], []).append(
                {"scenario": _encode(scenario), "message": out.get("message", "")}
            )
        return out


@pytest.fixture
def runner(request):
    return Runner(request.node.originalname)


SMALL = {"duration": "1 s", "stations": [{"name": "sta"}],
         "flows": [{"name": "f", "direction": "uplink", "stations": "sta"}]}  # fmt: skip


@pytest.mark.parametrize(
    "body, expected",
    [
        ("verdict", "ok"),
        ("abort", "abort"),
        ("spin", "slow"),
        ("spin-ignoring-ctrl-c", "stuck"),
        ("sleep", "blocked"),
        ("allocate-the-address-space", "MemoryError"),
    ],
)
def test_the_fork_server_tells_each_outcome(body, expected):
    """The harness itself, with limits of 0.3 s: a sane run, an abort, a run stopped by
    Ctrl-C past the CPU limit, one that ignores Ctrl-C, one asleep, one past the address
    space."""
    assert FORK_SERVER.ask(body, SMALL, (0.3, 0.3, 0.3))["outcome"] == expected


#: What a message that does not say what is allowed looks like.
VAGUE = ("another value", "this value is not allowed", "expected value", "invalid type")


def check(outcome: dict, scenario: dict, slow_ok: bool = False) -> None:
    """The property: sane results, or a ScenarioError that names a key and says what is
    allowed (a run stopped by Ctrl-C at the time limit passes where `slow_ok`)."""
    where = json.dumps(_encode(scenario), sort_keys=True)[:3000]
    kind, message = outcome["outcome"], outcome.get("message", "")
    allowed = ("ok", "ScenarioError") + (("slow",) if slow_ok else ())
    assert kind in allowed, f"{kind}: {message}\nscenario: {where}"
    if kind == "ScenarioError":
        assert message.strip(), where
        assert "`" in message or "scenario" in message, f"{message}\nscenario: {where}"
        assert not any(v in message for v in VAGUE), f"{message}\nscenario: {where}"


# --------------------------------------------------------------------------- values

SAFE_INTS = [-1, 0, 1, 2, 3, 7, 50]
FLOATS = [0.0, -1.5, 0.5, 1e-3, math.nan, math.inf, -math.inf]
STRINGS = [
    "", " ", "abc", "sta", "ap", "up", "srv", "1 s", "0 s", "-1 s", "nan s", "inf s",
    "2 s", "500 ms", "1 Mb/s", "0 Mb/s", "-1 Mb/s", "11 Mb/s", "64 kb/s", "1500 B", "0 B",
    "1000 B", "always", "off", "unlimited", "802.11a", "802.11b", "802.11g", "short", "long",
    "tcp", "udp", "uplink", "downlink", "cbr", "poisson", "saturated", "vo", "be",
    "newreno", "ns2-compat", "flow_throughput", "queue_length", "cwnd", "a b.c",
]  # fmt: skip
SCALARS = st.sampled_from(SAFE_INTS + FLOATS + STRINGS + [True, False, None, 2**64])
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.sampled_from(["a", "name", "count", "rate"]), SCALARS, max_size=2),
)


def examples() -> list[dict]:
    out = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        s = tomllib.loads(path.read_text())
        s["duration"], s["warmup"] = "2 s", "0.5 s"
        out.append(s)
    return out


EXAMPLES = examples()


def paths(node, prefix=()):
    """Every key path of a scenario (tables, list elements and leaves)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*prefix, k)
            yield from paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*prefix, i)
            yield from paths(v, (*prefix, i))


def get_parent(root, path):
    node = root
    for part in path[:-1]:
        node = node[part]
    return node


# --------------------------------------------------------------------------- known crashes


def known_crash(s: dict) -> bool:
    """Cases of the Rust-side findings of issue 12 still open in the core (see
    KNOWN_CRASHES): kept out of the generated cases so that the fuzz looks for new ones."""
    for f in s.get("flows", []) if isinstance(s.get("flows"), list) else []:
        if isinstance(f, dict) and f.get("traffic") == "poisson" and f.get("rate") in (0, 0.0):
            return True  # endless loop (rate 0)
    return False


KNOWN_CRASHES = {
    # issue 12: a duration this long aborts the process (memory allocation of the series)
    "huge-duration-aborts": {"duration": "1e12 s"},
    # issue 12: Poisson rate 0 with a start time loops forever
    "poisson-rate-0-hangs": {
        "duration": "2 s",
        "stations": [{"name": "sta"}],
        "flows": [
            {
                "name": "f",
                "direction": "uplink",
                "stations": "sta",
                "traffic": "poisson",
                "rate": 0,
                "start": "1 s",
            }
        ],
    },  # fmt: skip
    # issue 12: a server link of 0.1 b/s divides by zero (a panic, "internal error")
    "server-link-0.1-bps-panics": {
        "duration": "2 s",
        "stations": [{"name": "sta"}],
        "servers": [{"name": "srv", "rate": "0.1 b/s"}],
        "flows": [
            {
                "name": "f",
                "protocol": "tcp",
                "direction": "uplink",
                "stations": "sta",
                "server": "srv",
            }
        ],
    },  # fmt: skip
}


@pytest.mark.parametrize("name", sorted(KNOWN_CRASHES))
def test_known_core_crashes(runner, name):
    """The core crashes of issue 12 (fixed in the core): each now ends in results or a
    ScenarioError naming a key, never an abort, a hang or a panic."""
    scenario = copy.deepcopy(KNOWN_CRASHES[name])
    if name == "huge-duration-aborts":
        base = copy.deepcopy(EXAMPLES[-1])
        base.update(scenario)
        scenario = base
    check(runner.run(scenario), scenario)


# --------------------------------------------------------------------------- properties

#: cases per property: a small fixed set in `make test`, more for the long run
LONG_RUN = "WLANSIM_FUZZ_CASES" in os.environ


def fuzz(cases: int):
    return settings(
        max_examples=int(os.environ.get("WLANSIM_FUZZ_CASES", cases)),
        deadline=None,
        derandomize=not LONG_RUN,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


FUZZ = fuzz(150)


@st.composite
def mutated(draw):
    s = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        every = [p for p in paths(s) if p[0] not in ("duration", "warmup")]
        if not every:
            break
        path = draw(st.sampled_from(every))
        parent = get_parent(s, path)
        action = draw(st.sampled_from(["set", "delete", "add"]))
        if action == "set":
            parent[path[-1]] = draw(VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["x", "rate", "count", "queue", "name"]))] = draw(VALUES)
    return s


@FUZZ
@given(scenario=mutated())
def test_mutated_example_scenarios_give_results_or_a_scenario_error(runner, scenario):
    assume(not known_crash(scenario))
    check(runner.run(scenario), scenario)


def pick(valid: list, invalid: list, odds: int = 10):
    """A valid value `odds` - 1 times in `odds` (so that runs happen), else an invalid one."""
    return st.integers(1, odds).flatmap(
        lambda k: st.sampled_from(invalid) if k == odds else st.sampled_from(valid)
    )


def rare(valid: list, invalid: list):
    """`pick` with an invalid value 1 time in 40: for the many keys a case may set."""
    return pick(valid, invalid, 40)


@st.composite
def generated(draw):
    standard = draw(pick(LEGACY + HT, ["802.11ax", "802.11"]))
    # 802.11n/ac cases, which add many keys of their own, take invalid values more rarely
    pick_ = rare if standard in HT else pick
    n_groups = draw(st.integers(1, 2))
    names = [f"g{i}" for i in range(n_groups)]
    stations = [{"name": n, "count": draw(pick_([1, 2, 3], [0, -1, 2.5, "2"]))} for n in names]
    flows = []
    for i in range(draw(st.integers(0, 3))):
        flow = {
            "name": draw(pick_([f"f{i}"], ["", "a b"])),
            "direction": draw(pick_(["uplink", "downlink"], ["sideways"])),
            "stations": draw(pick_(names, ["missing"])),
            "traffic": draw(pick_(["cbr", "poisson", "saturated"], ["bursty"])),
            "rate": draw(pick_(["1 Mb/s", "100 kb/s"], ["0 Mb/s", -5, "x", math.nan])),
            "packet_size": draw(pick_(["1000 B", 1472, 40], [0, "70000 B", math.inf])),
        }
        if draw(st.booleans()):
            flow["protocol"] = draw(pick_(["udp", "tcp"], ["sctp"]))
            if flow["protocol"] == "tcp":
                flow["server"] = draw(pick_(["srv"], ["nowhere"]))
        if standard in HT and (flow["traffic"] == "saturated" or "server" in flow):
            flow.pop("rate")  # neither a saturated source nor TCP has a rate
        if standard in HT and "server" in flow:
            del flow["packet_size"], flow["traffic"]  # TCP's segments are its MSS
        flows.append(flow)
    s = {
        "duration": draw(pick_(["2 s", "1 s"], ["0 s", "-1 s", 2, "1 parsec"])),
        "seed": draw(pick_([1, 0, 2**63], [-1, 2**64, 1.5, "1"])),
        "phy": {"standard": standard},
        "stations": stations,
        "servers": [{"name": "srv"}],
        "flows": flows,
    }
    if draw(st.booleans()):
        s["mac"] = {"rts_threshold": draw(pick_(["off", "always", 500], [-1, math.nan]))}
    if draw(st.booleans()):
        s["ap"] = {"queue": draw(pick_([1, 50], [0, -3, 1e9, "many"]))}
    if draw(st.booleans()):
        s["output"] = {
            "series": draw(
                pick_([["queue_length"], ["cwnd"], ["data_rate"], []], [["nope"], "cwnd"])
            ),
            "series_interval": draw(pick_(["0.5 s"], ["0 s", "-1 s", 0.1])),
        }
    # 802.11n/ac and what came with them (issue 40), on HT/VHT PHYs and, 1 time in 10, on
    # a legacy one (where they must be refused by name)
    if standard in HT or draw(st.integers(0, 9)) == 0:
        draw(ht_and_aggregation(s))
    return s


LEGACY = ["802.11b", "802.11a", "802.11g"]
HT = ["802.11n", "802.11ac"]
RATE_CONTROL = ["constant", "ideal", "arf", "aarf", "minstrel", "minstrel_ht"]
#: where a case's captures go: the fork server makes a fresh directory for each case,
#: checks the files written there (`fuzz_forkserver.pcap_problems`) and removes it
CASE_DIR = "{case_dir}"


def maybe(draw, table: dict, key: str, strategy) -> None:
    """`table[key]` = a value drawn from `strategy`, half the time."""
    if draw(st.booleans()):
        table[key] = draw(strategy)


@st.composite
def ht_and_aggregation(draw, s):
    """Adds to scenario `s` the keys of issue 40 and their interactions: an MCS, streams,
    width, guard interval and band; A-MPDU and A-MSDU limits, the Block Ack window,
    MSDU lifetimes (tiny and huge) and per-AC TXOP limits under EDCA; RTS/CTS and legacy
    control rates; rate control under SINR reception or frame errors; the ns-3 profile;
    captures of aggregated exchanges; TCP; a spatial medium; warm-ups that end inside an
    exchange."""
    phy, mac = s["phy"], s.setdefault("mac", {})
    ht = phy["standard"] != "802.11ac"  # HT's values are valid for the legacy PHYs' errors
    maybe(draw, phy, "mcs", rare([0, 3, 7] + ([] if ht else [8, 9]), [10, -1, 1.5]))
    maybe(draw, phy, "streams", rare([1, 2, 3, 4], [0, 5]))
    maybe(draw, phy, "channel_width", rare([20, 40] + ([] if ht else [80, 160]),
                                           [30, 320, "80 MHz"]))  # fmt: skip
    maybe(draw, phy, "guard_interval", rare(["long", "short"], ["medium"]))
    if ht:
        maybe(draw, phy, "band", rare(["2.4 GHz", "5 GHz"], ["6 GHz"]))
    maybe(draw, phy, "control_rate", rare(["6 Mb/s", "24 Mb/s", "54 Mb/s"], ["1 Mb/s"]))
    maybe(draw, mac, "ampdu_max_bytes", rare([1, 1600, 3839, 65535] + ([] if ht else [1048575]),
                                             [1048576, -1]))  # fmt: skip
    maybe(draw, mac, "amsdu_max_bytes", rare([0, 1600, 3839, 4065] + ([7935] if ht else [11454]),
                                             [11455]))  # fmt: skip
    if "ampdu_max_bytes" in mac or draw(st.integers(0, 39)) == 0:
        maybe(draw, mac, "ba_window", rare([1, 2, 8, 64], [0, 65]))
    maybe(draw, mac, "msdu_lifetime", rare(["1 ns", "10 us", "1 ms", "50 ms", "1e9 s"],
                                           ["0 s", "-1 ms", "1e10 s"]))  # fmt: skip
    maybe(draw, mac, "queue", st.sampled_from([1, 2, 64, 200]))
    maybe(draw, mac, "rate_control", rare(RATE_CONTROL, ["minstrel-ht"]))
    if mac.get("rate_control", "constant") != "constant" and draw(st.integers(0, 9)):
        phy.pop("mcs", None)  # a controller chooses the MCS (refused with `mcs` but 1 in 10)
    if draw(st.booleans()):
        s["ap"] = {**s.get("ap", {}),
                   "basic_rates": draw(rare([["6 Mb/s"], ["6 Mb/s", "12 Mb/s", "24 Mb/s"]],
                                            [["1 Mb/s"], []]))}  # fmt: skip
    if draw(st.booleans()):
        # per-AC TXOP limits and lifetimes, at the AP or at a station group
        where = draw(st.sampled_from([s.setdefault("ap", {}), s["stations"][0]]))
        edca = where.setdefault("edca", {})
        for ac in draw(st.lists(st.sampled_from(["be", "bk", "vi", "vo"]), max_size=2)):
            edca[ac] = {}
            maybe(draw, edca[ac], "txop", rare(["0 s", "32 us", "1.504 ms", "3.008 ms", "5 ms"],
                                               ["-1 s", "3 s"]))  # fmt: skip
            maybe(draw, edca[ac], "msdu_lifetime", rare(["1 us", "2 ms"], ["0 s"]))
    if s["flows"] and draw(st.booleans()):
        # flows into other ACs than AC_BE (a TXOP limit differs per AC)
        s["qos"] = {"classifier": [{"flow": "f0", "ac": draw(st.sampled_from(["vo", "vi", "bk"]))},
                                   {"tcp_ack": True, "ac": "vo"}]}  # fmt: skip
    if mac.get("rate_control", "constant") != "constant":
        s["channel"] = {"reception": {"model": draw(rare(["sinr"], ["threshold", "none"]))}}
    elif draw(st.booleans()):
        s["channel"] = {"reception": {"model": draw(rare(["sinr", "threshold", "none"], ["snr"]))}}
    if "channel" in s:
        reception = s["channel"]["reception"]
        maybe(draw, reception, "rx_power_dbm", st.sampled_from([-40, -65, -75, -82, -90]))
        if reception["model"] == "sinr":
            maybe(draw, reception, "error_model", rare(["nist", "table"], ["awgn"]))
        maybe(draw, reception, "capture", st.booleans())
    if draw(st.integers(0, 4)) == 0:
        # frame errors on one group's links (i.i.d. or bursts)
        s["stations"][-1]["fer"] = draw(rare([0.05, 0.3, 0.9], [1.0, -0.1]))
    if draw(st.integers(0, 4)) == 0 and not mac.get("amsdu_max_bytes"):
        # two groups far apart on the spatial medium: hidden from each other
        s["ap"] = {**s.get("ap", {}), "position": [0, 0]}
        for i, g in enumerate(s["stations"]):
            g["position"] = [draw(st.sampled_from([5, 60, 150])) * (-1) ** i, 0]
        s.setdefault("channel", {})["medium"] = "spatial"
        s["channel"]["propagation"] = {
            "model": draw(st.sampled_from(["shadowing", "two-ray-ground"]))
        }
    maybe(draw, s, "profile", rare(["standard", "ns3"], ["ns2", "ns4"]))
    maybe(draw, s, "warmup", rare(["0 s", "0.1 s", "0.5 s", "0.9993 s"], ["-1 s"]))
    if draw(st.integers(0, 3)) == 0 and not mac.get("amsdu_max_bytes"):
        snaplen = rare([64, 128, 300, 262144], [63, 262145])
        s["output"] = {**s.get("output", {}), "pcap": CASE_DIR,
                       "pcap_per": draw(st.sampled_from(["node", "bss"])),
                       "pcap_snaplen": draw(snaplen)}  # fmt: skip
    return s


@FUZZ
@given(scenario=generated())
def test_generated_scenarios_give_results_or_a_scenario_error(runner, scenario):
    assume(not known_crash(scenario))
    check(runner.run(scenario), scenario)


# --------------------------------------------------------------------------- issue 28's operators

#: Special files offered as inputs: devices, a directory, a FIFO (opening one waits for a
#: writer), a missing file, a sparse file above the 64 MiB limit, and a CSV with values
#: near and above the caps.
SPECIAL_DIR = Path(tempfile.mkdtemp(prefix="wlansim-fuzz-"))
atexit.register(shutil.rmtree, SPECIAL_DIR, True)
os.mkfifo(SPECIAL_DIR / "fifo")
with open(SPECIAL_DIR / "huge.csv", "wb") as _f:
    _f.truncate((64 << 20) + 1)
(SPECIAL_DIR / "values.csv").write_text("bytes\n1\n16777216\n16777217\n9007199254740993\n")
(SPECIAL_DIR / "small.csv").write_text("0.001\n0.5\n2\n")
(SPECIAL_DIR / "zeros.csv").write_text("0\n0\n")
SPECIAL_FILES = ["/dev/zero", "/dev/null", "/", "/proc/self/status", "/no/such/file"]
SPECIAL_FILES += [str(SPECIAL_DIR / n) for n in ("fifo", "huge.csv", "values.csv", "zeros.csv")]
CSV_FILES = SPECIAL_FILES + [str(SPECIAL_DIR / "small.csv")] * 4

#: numbers a parameter of a distribution may take: tiny, huge, edges, undefined
EXTREME = [0, 1e-300, 1e-9, 0.01, 0.5, 1, 1.5, 2, 10, 10.5, 1e9, 1e300, math.nan, math.inf,
           -math.inf, -1]  # fmt: skip
#: sizes near the caps (16 MiB a message, 2^53 B a file) and ordinary ones
SIZES = ["1 B", "2 B", "42 B", "1472 B", "30 kB", "16 MiB", "16777217 B", "1 GB", "0 B",
         9007199254740992, 2**53 + 1, 2**64, "1e15 B"]  # fmt: skip
TIMES = ["0 s", "1 ns", "100 ns", "1 us", "1 ms", "60 ms", "1 s", "17 s", "1e9 s", "-1 s"]


def either(*options):
    return st.sampled_from(options).flatmap(lambda x: x)


@st.composite
def size_distribution(draw):
    kind = draw(st.sampled_from(["fixed", "exponential", "pareto", "log-normal", "empirical"]))
    size = st.sampled_from(SIZES)
    number = st.sampled_from(EXTREME)
    d = {"distribution": kind}
    if kind == "fixed":
        d["value"] = draw(size)
    elif kind == "exponential":
        d["mean"] = draw(size)
    elif kind == "pareto":
        d["shape"] = draw(number)
        d[draw(st.sampled_from(["mean", "scale"]))] = draw(size)
    elif kind == "log-normal":
        d["mean"], d["sigma"] = draw(size), draw(number)
    else:
        d["csv"] = draw(st.sampled_from(CSV_FILES))
    return d


@st.composite
def time_distribution(draw):
    kind = draw(st.sampled_from(["fixed", "exponential", "empirical"]))
    if kind == "empirical":
        return {"distribution": kind, "csv": draw(st.sampled_from(CSV_FILES))}
    return {"distribution": kind, "value" if kind == "fixed" else "mean": draw(
        st.sampled_from(TIMES))}  # fmt: skip


@st.composite
def deep(draw):
    """An example scenario with one value replaced by a deeply nested one."""
    s = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    every = [p for p in paths(s)]
    path = draw(st.sampled_from(every))
    get_parent(s, path)[path[-1]] = Nested(
        draw(st.sampled_from([30, 33, 100, 999, 5000])), draw(st.booleans())
    )
    return s


@st.composite
def game(draw):
    """A game flow with drawn sizes and intervals near the caps."""
    flow = {"name": "g", "direction": draw(st.sampled_from(["uplink", "downlink"])),
            "stations": "sta", "server": "srv", "traffic": "game",
            "packet_size": draw(st.sampled_from([1, 40, 1472, 2260, 2261])),
            "game": {"size": draw(size_distribution()),
                     "interval": draw(time_distribution())}}  # fmt: skip
    s = {"duration": draw(st.sampled_from(["1 s", "2 s"])), "stations": [{"name": "sta"}],
         "servers": [{"name": "srv"}], "flows": [flow]}  # fmt: skip
    if draw(st.booleans()):
        s["output"] = {"packets": True}
    return s


@st.composite
def files(draw):
    """The on/off workload with drawn file sizes and think times at extremes."""
    f = {"size": draw(size_distribution()), "pad_last_segment": draw(st.booleans()),
         "think_first": draw(st.booleans())}  # fmt: skip
    if draw(st.booleans()):
        f["think"] = draw(time_distribution())
    if draw(st.booleans()):
        f["count"] = draw(st.sampled_from([1, 3, 0, 2**64]))
    return {"duration": draw(st.sampled_from(["2 s", "5 s"])), "stations": [{"name": "sta"}],
            "servers": [{"name": "web"}],
            "flows": [{"name": "get", "protocol": "tcp", "direction": "downlink",
                       "stations": "sta", "server": "web", "files": f}]}  # fmt: skip


@st.composite
def special(draw):
    """A trace or a CSV read from a special file."""
    path = draw(st.sampled_from(SPECIAL_FILES))
    flow = {
        "name": "v",
        "direction": "downlink",
        "stations": "sta",
        "traffic": "trace",
        "trace": {"file": path, "format": draw(st.sampled_from(["frames", "ns2"]))},
    }
    return {"duration": "1 s", "stations": [{"name": "sta"}], "flows": [flow]}  # fmt: skip


@st.composite
def near_caps(draw):
    """CBR and Poisson rates, packet sizes, queues and PHY timings at their limits."""
    s = {"duration": "1 s", "stations": [{"name": "sta", "count": draw(st.sampled_from([1, 3]))}],
         "flows": [{"name": "f", "direction": draw(st.sampled_from(["uplink", "downlink"])),
                    "stations": "sta", "traffic": draw(st.sampled_from(["cbr", "poisson"])),
                    "rate": draw(st.sampled_from(["10 Gb/s", "10000000001 b/s", "9 Gb/s",
                                                  "1 Gb/s", "11 Mb/s", "1 b/s"])),
                    "packet_size": draw(st.sampled_from([1, 2, 1222, 2260, 2261]))}]}  # fmt: skip
    if draw(st.booleans()):
        s["mac"] = {"queue": draw(st.sampled_from([1, 1_000_000, 1_000_001]))}
    if draw(st.booleans()):
        key = draw(st.sampled_from(["slot", "sifs", "difs", "plcp", "propagation_delay"]))
        s["phy"] = {"standard": "802.11b", key: draw(st.sampled_from(
            ["1 ms", "1.000001 ms", "10 us", "10.001 us", "1 s", "0 s"]))}  # fmt: skip
    return s


#: The AP options a scenario may set on one AP and not on another.
PER_AP = {
    "delay_injection": [{}, {"delay_factor": 1.5}],
    "rwnd_clamp": [True],
    "ack_queue": [1, 10],
    "qos": [True],
    "queue": [1, 1000],
    "beacon_interval": ["102.4 ms", "1 ms"],
}


@st.composite
def per_ap(draw):
    """Two BSSs (TCP and UDP flows), each AP option on some APs only, with a warm-up."""
    s = copy.deepcopy(TWO_BSS)
    for ap in s["aps"]:
        for key in draw(st.lists(st.sampled_from(sorted(PER_AP)), max_size=3, unique=True)):
            ap[key] = draw(st.sampled_from(PER_AP[key]))
    s["warmup"] = draw(st.sampled_from(["0 s", "0.5 s", "1.5 s"]))
    return s


TWO_BSS = tomllib.loads((ROOT / "scenarios" / "two-bss.toml").read_text())
TWO_BSS["duration"] = "2 s"
TWO_BSS["servers"] = [{"name": "srv", "via": "router"}]
TWO_BSS["flows"].append({"name": "tcp", "protocol": "tcp", "direction": "downlink",
                         "stations": "a", "server": "srv"})  # fmt: skip


@st.composite
def warm_up(draw):
    """Many saturated stations with a warm-up that ends in the middle of exchanges."""
    return {"duration": "1 s", "warmup": draw(st.sampled_from(["0.5 s", "0.9 s", "0.999 s"])),
            "stations": [{"name": "sta", "count": draw(st.sampled_from([50, 200]))}],
            "flows": [{"name": "up", "direction": "uplink", "stations": "sta"}]}  # fmt: skip


@fuzz(150)
@given(scenario=either(deep(), game(), files(), special(), near_caps(), per_ap(), warm_up()))
def test_issue_28_operators_give_sane_results_or_a_scenario_error(runner, scenario):
    check(runner.run(scenario), scenario, slow_ok=True)
