"""Property-based fuzzing of the Python API (hypothesis): generated and mutated scenario
dicts through `wlansim.run`. Every outcome is results or a `ScenarioError` naming a key;
never a Rust panic ("internal error"), another exception, a process abort or an endless
loop. Each case runs in a helper process with a time limit, so an abort or a hang is
reported as such instead of ending the test session. Bounded: a few hundred cases, well
under a minute.

Crashes found in the Rust core are listed in KNOWN_CRASHES (reproducers, now regression
tests since the core was fixed) and kept out of the generated cases, so that the fuzz looks
for new ones.
"""

from __future__ import annotations

import copy
import json
import math
import select
import subprocess
import sys

import pytest
from conftest import ROOT

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

TIME_LIMIT_S = 10.0

WORKER = r"""
import json, math, sys
import wlansim
from wlansim.errors import ScenarioError, SimulationError

def decode(obj):
    # JSON cannot carry NaN/inf in every form we send: they travel as tagged strings
    if isinstance(obj, dict):
        if set(obj) == {"__float__"}:
            return float(obj["__float__"])
        return {k: decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [decode(v) for v in obj]
    return obj

for line in sys.stdin:
    scenario = decode(json.loads(line))
    try:
        r = wlansim.run(scenario)
        out = {"outcome": "ok", "events": r.meta["events"]}
    except ScenarioError as exc:
        out = {"outcome": "ScenarioError", "message": str(exc)}
    except SimulationError as exc:
        out = {"outcome": "SimulationError", "message": str(exc)}
    except BaseException as exc:
        out = {"outcome": type(exc).__name__, "message": str(exc)}
    print(json.dumps(out), flush=True)
"""


def _encode(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return {"__float__": repr(obj)}
    if isinstance(obj, dict):
        return {k: _encode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    return obj


class Runner:
    """A helper process running scenarios one by one; restarted after a crash or a hang."""

    def __init__(self):
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=ROOT,
        )  # fmt: skip

    def run(self, scenario: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(json.dumps(_encode(scenario)) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.proc.stdout], [], [], TIME_LIMIT_S)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        hung = self.proc.poll() is None
        self.close()
        if hung:
            return {"outcome": "hang", "message": f"no answer within {TIME_LIMIT_S} s"}
        return {"outcome": "crash", "message": f"process died ({self.proc.returncode})"}

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()


@pytest.fixture(scope="module")
def runner():
    r = Runner()
    yield r
    r.close()


def check(outcome: dict, scenario: dict) -> None:
    """The property: results, or a ScenarioError that names a key."""
    where = json.dumps(_encode(scenario), sort_keys=True)
    kind, message = outcome["outcome"], outcome.get("message", "")
    assert kind in ("ok", "ScenarioError"), f"{kind}: {message}\nscenario: {where}"
    if kind == "ScenarioError":
        assert message.strip(), where
        assert "`" in message or "scenario" in message, f"{message}\nscenario: {where}"


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

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


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


def pick(valid: list, invalid: list):
    """A valid value 9 times in 10 (so that runs happen), else an invalid one."""
    return st.integers(0, 9).flatmap(
        lambda k: st.sampled_from(invalid) if k == 9 else st.sampled_from(valid)
    )


@st.composite
def generated(draw):
    n_groups = draw(st.integers(1, 2))
    names = [f"g{i}" for i in range(n_groups)]
    stations = [{"name": n, "count": draw(pick([1, 2, 3], [0, -1, 2.5, "2"]))} for n in names]
    flows = []
    for i in range(draw(st.integers(0, 3))):
        flow = {
            "name": draw(pick([f"f{i}"], ["", "a b"])),
            "direction": draw(pick(["uplink", "downlink"], ["sideways"])),
            "stations": draw(pick(names, ["missing"])),
            "traffic": draw(pick(["cbr", "poisson", "saturated"], ["bursty"])),
            "rate": draw(pick(["1 Mb/s", "100 kb/s"], ["0 Mb/s", -5, "x", math.nan])),
            "packet_size": draw(pick(["1000 B", 1472, 40], [0, "70000 B", math.inf])),
        }
        if draw(st.booleans()):
            flow["protocol"] = draw(pick(["udp", "tcp"], ["sctp"]))
        flows.append(flow)
    s = {
        "duration": draw(pick(["2 s", "1 s"], ["0 s", "-1 s", 2, "1 parsec"])),
        "seed": draw(pick([1, 0, 2**63], [-1, 2**64, 1.5, "1"])),
        "phy": {
            "standard": draw(pick(["802.11b", "802.11a", "802.11g"], ["802.11n"])),
        },
        "stations": stations,
        "flows": flows,
    }
    if draw(st.booleans()):
        s["mac"] = {"rts_threshold": draw(pick(["off", "always", 500], [-1, math.nan]))}
    if draw(st.booleans()):
        s["ap"] = {"queue": draw(pick([1, 50], [0, -3, 1e9, "many"]))}
    if draw(st.booleans()):
        s["output"] = {
            "series": draw(pick([["queue_length"], ["cwnd"], []], [["nope"], "cwnd"])),
            "series_interval": draw(pick(["0.5 s"], ["0 s", "-1 s", 0.1])),
        }
    return s


@FUZZ
@given(scenario=generated())
def test_generated_scenarios_give_results_or_a_scenario_error(runner, scenario):
    assume(not known_crash(scenario))
    check(runner.run(scenario), scenario)
