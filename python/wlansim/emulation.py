"""Emulation (`wlansim emulate`): the scenario's emulated station and server groups become
real Linux hosts, one network namespace per node with one TUN device, and their traffic
(the groups' commands: iperf3, ping, the bundled `wlansim.bulk`) crosses the simulated
cell in real time (the Rust core's real-time loop, `crates/wlansim-core/src/emulation`).

This module owns the host side: namespaces named with a per-run prefix, the devices'
addresses, routes and sysctls, the applications, and tearing everything down on every way
out (normal end, error, SIGINT, SIGTERM; `cleanup()` for runs that were killed). No
packet is handled in Python.

Needs root, `/dev/net/tun` and `ip` (iproute2); `unavailable()` says what is missing.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wlansim.errors import ScenarioError, WlansimError
from wlansim.results import Results
from wlansim.scenario import Overrides, ScenarioLike, apply_overrides, call_core, load

NETNS_DIR = Path("/run/netns")
#: Every run's namespaces start with ``wls<pid>x<4 hex>-`` (the pid of the process that
#: made them): `cleanup` finds leftovers by it and spares runs still alive.
PREFIX_RE = re.compile(r"^(wls(\d+)x[0-9a-f]{4}-)")
#: The first port placeholder `{port}` gives (iperf3's).
BASE_PORT = 5201
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.-]*)\}")


class EmulationError(WlansimError):
    """The host cannot emulate, or an emulated run failed."""


def unavailable() -> str | None:
    """Why this machine cannot emulate (None: it can)."""
    if sys.platform != "linux":
        return "emulation needs Linux (network namespaces and TUN devices)"
    if os.geteuid() != 0:
        return "emulation needs root (network namespaces and TUN devices)"
    if not os.path.exists("/dev/net/tun"):
        return "emulation needs /dev/net/tun"
    if shutil.which("ip") is None:
        return "emulation needs iproute2's `ip`"
    return None


def _ip(*args: str, stdin: str | None = None, check: bool = True) -> str:
    r = subprocess.run(["ip", *args], input=stdin, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise EmulationError(f"`ip {' '.join(args)}` failed: {r.stderr.strip()}")
    return r.stdout


def _namespaces() -> list[str]:
    out = _ip("-j", "netns", "list", check=False).strip()
    return [n["name"] for n in json.loads(out)] if out else []


def _alive(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"wlansim" in cmdline or b"pytest" in cmdline


def _group_running(pgid: int) -> bool:
    """Whether a process of group `pgid` is still running (zombies, which only wait for
    their parent, do not count)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def _remove_namespace(ns: str) -> None:
    """Kill what runs in `ns`, then delete it."""
    pids = _ip("netns", "pids", ns, check=False).split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    for _ in range(50):
        r = subprocess.run(["ip", "netns", "del", ns], capture_output=True, text=True)
        if r.returncode == 0 or ns not in _namespaces():
            return
        time.sleep(0.02)
    raise EmulationError(f"cannot delete network namespace {ns}: {r.stderr.strip()}")


def cleanup(force: bool = False) -> list[str]:
    """Remove the namespaces (and what runs in them) of emulation runs whose process is
    gone (all of them with `force`); the names removed."""
    removed = []
    for ns in _namespaces():
        m = PREFIX_RE.match(ns)
        if m is None or (not force and _alive(int(m.group(2)))):
            continue
        _remove_namespace(ns)
        removed.append(ns)
    return removed


def leftovers(prefix: str) -> list[str]:
    """What exists with a run's prefix: namespaces (their devices and processes live in
    them)."""
    return [ns for ns in _namespaces() if ns.startswith(prefix)]


@dataclass
class Application:
    node: str
    command: str
    returncode: int | None
    output: str
    #: Its output parsed when it is JSON (iperf3 -J, wlansim.bulk).
    report: dict[str, Any] | None = None

    def rate_bps(self) -> float | None:
        """The application's own useful rate: iperf3's receiver rate (TCP) or its rate
        with losses (UDP), or wlansim.bulk's."""
        r = self.report
        if not r:
            return None
        if "bps" in r:
            return None if r["bps"] is None else float(r["bps"])
        end = r.get("end", {})
        if "sum_received" in end:
            return float(end["sum_received"]["bits_per_second"])
        if "sum" in end and "lost_percent" in end["sum"]:
            s = end["sum"]
            return float(s["bits_per_second"]) * (1 - s["lost_percent"] / 100)
        return None


@dataclass
class EmulationRun:
    """One emulated run: wlansim's tables (`results`: flows by 5-tuple, nodes, BSS), the
    real-time loop's figures (`realtime`), the applications' own reports, and each
    device's kernel counters (`devices`: `tx_dropped` counts packets the kernel dropped
    because the loop stopped reading the device while its MAC queue was full)."""

    results: Results
    realtime: dict[str, Any]
    applications: list[Application]
    devices: dict[str, dict[str, int]]
    prefix: str
    out: Path | None = None
    nodes: list[dict[str, Any]] = field(default_factory=list)

    def app_rate_bps(self) -> float:
        rates = [a.rate_bps() for a in self.applications]
        return float(sum(r for r in rates if r is not None))

    def summary(self) -> dict[str, float]:
        """Per-run figures that repetitions average."""
        m = self.results.metrics
        nodes = self.results.to_dict()["nodes"]
        attempts = sum(n["attempts"] for n in nodes)
        collisions = sum(n["collisions"] for n in nodes)
        rt = self.realtime
        nan = math.nan
        return {
            "air_throughput_bps": m.get("throughput_bps", 0.0),
            "app_rate_bps": self.app_rate_bps(),
            "jain_index": m.get("jain_index", nan),
            "collision_probability": collisions / attempts if attempts else nan,
            "ap_queue_drops": float(
                sum(n["queue_drops"] for n in nodes if n["role"] == "ap")
                if nodes and "queue_drops" in nodes[0]
                else nan
            ),
            "lateness_p50_s": rt["lateness_p50_s"] if rt["lateness_p50_s"] is not None else nan,
            "lateness_p99_s": rt["lateness_p99_s"] if rt["lateness_p99_s"] is not None else nan,
            "lateness_max_s": rt["lateness_max_s"] if rt["lateness_max_s"] is not None else nan,
            "max_lag_s": rt["max_lag_s"],
            "device_tx_dropped": float(sum(d.get("tx_dropped", 0) for d in self.devices.values())),
        }


def _expand(
    command: str,
    key: str,
    node: dict,
    by_group: dict[str, list[dict]],
    out: Path,
    cc: str | None = None,
) -> str:
    """The command of `node` with its placeholders filled (see `EmulatedGroup.command`)."""
    i = node["index"]

    def one(m: re.Match) -> str:
        name = m.group(1)
        own = {
            "ip": node["ip"],
            "node": node["name"],
            "i": str(i),
            "port": str(BASE_PORT + i),
            "out": str(out / node["name"]),
            "python": sys.executable,
            "cc": cc or "",
        }
        if name in own:
            return own[name]
        group, _, attr = name.rpartition(".")
        if group in by_group and attr in ("ip", "node"):
            members = by_group[group]
            peer = members[i % len(members)]
            return peer["ip"] if attr == "ip" else peer["name"]
        allowed = ", ".join(f"{{{k}}}" for k in own) + ", {GROUP.ip}, {GROUP.node}"
        raise ScenarioError(
            f"scenario key `{key}`: unknown placeholder {{{name}}}; allowed: {allowed} "
            f"(GROUP an emulated group: {', '.join(by_group)})"
        )

    return PLACEHOLDER.sub(one, command)


def _configure(ns: str, node: dict, group: dict) -> None:
    """Bring the node's device up with its address and the default route through it,
    IPv6 off, the group's sysctls."""
    dev = node["device"]
    quickack = "" if group.get("delayed_ack", True) else " quickack 1"
    sysctls = {
        "net.ipv6.conf.all.disable_ipv6": "1",
        "net.ipv6.conf.default.disable_ipv6": "1",
        **group.get("sysctl", {}),
    }
    args = [f"{k}={v}" for k, v in sysctls.items()]
    r = subprocess.run(
        ["ip", "netns", "exec", ns, "sysctl", "-q", "-w", *args], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise EmulationError(f"sysctl in {ns} failed: {r.stderr.strip()}")
    cc = group.get("congestion_control")
    if cc:
        # Outside the initial namespace Linux lets a namespace default only to the
        # algorithms of net.ipv4.tcp_allowed_congestion_control; the others are set per
        # socket by the applications (root may), through the {cc} placeholder.
        key = "net.ipv4.tcp_congestion_control"
        r = subprocess.run(
            ["ip", "netns", "exec", ns, "sysctl", "-q", "-w", f"{key}={cc}"],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0 and "{cc}" not in (group.get("command") or ""):
            raise EmulationError(
                f'group {group["name"]}: congestion_control "{cc}" cannot be the '
                f"namespace's default ({r.stderr.strip()}; allowed there: "
                f"{Path('/proc/sys/net/ipv4/tcp_allowed_congestion_control').read_text().strip()}"
                "); pass {cc} to the application instead (iperf3 -C {cc}, "
                "wlansim.bulk --cc {cc})"
            )
    _ip(
        "-n",
        ns,
        "-batch",
        "-",
        stdin=(
            "link set lo up\n"
            f"link set {dev} mtu 1500 up\n"
            f"addr add {node['ip']}/8 dev {dev}\n"
            f"route replace default dev {dev}{quickack}\n"
        ),
    )


def _device_counters(ns: str, dev: str) -> dict[str, int]:
    out = _ip("-n", ns, "-s", "-j", "link", "show", dev, check=False).strip()
    if not out:
        return {}
    stats = json.loads(out)[0].get("stats64", {})
    tx, rx = stats.get("tx", {}), stats.get("rx", {})
    counters = {
        "tx_packets": tx.get("packets", 0),
        "tx_dropped": tx.get("dropped", 0),
        "rx_packets": rx.get("packets", 0),
        "rx_dropped": rx.get("dropped", 0),
    }
    # The queueing discipline in front of the device (does it back up?).
    r = subprocess.run(
        ["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show", "dev", dev],
        capture_output=True,
        text=True,
    )
    if r.returncode == 0 and r.stdout.strip():
        q = json.loads(r.stdout)[0]
        counters["qdisc_drops"] = q.get("drops", 0)
        counters["qdisc_backlog_packets"] = q.get("qlen", 0)
    return counters


class _Apps:
    """The groups' commands: started at their start times, stopped at the end."""

    def __init__(self, plan: list[tuple[float, bool, str, str, str]], out: Path):
        self.plan = sorted(plan, key=lambda x: x[0])
        self.out = out
        self.started: list[tuple[str, str, bool, subprocess.Popen, Path]] = []

    def start_due(self, t: float) -> None:
        while self.plan and self.plan[0][0] <= t:
            _, wait, ns, node, command = self.plan.pop(0)
            path = self.out / f"{node}.out"
            with open(path, "wb") as sink:
                p = subprocess.Popen(
                    ["ip", "netns", "exec", ns, "sh", "-c", command],
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            self.started.append((node, command, wait, p, path))

    def waited_done(self) -> bool:
        """Whether every command of a `wait` group started and exited (False when no
        group waits)."""
        waits = [p for _, _, w, p, _ in self.started if w]
        pending = any(w for _, w, *_ in self.plan)
        return bool(waits) and not pending and all(p.poll() is not None for p in waits)

    def stop(self) -> list[Application]:
        for *_, p, _ in self.started:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 2.0
        apps = []
        for node, command, _, p, path in self.started:
            # The shell dies of the signal at once; the programs it started (same process
            # group) still write their reports as they stop: wait for the whole group, or
            # its reports would be read before they are written.
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            while _group_running(p.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            if p.poll() is None or _group_running(p.pid):
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
            text = path.read_text(errors="replace")
            apps.append(Application(node, command, p.returncode, text, _report(text)))
        return apps


def emulate(
    scenario: ScenarioLike,
    *,
    overrides: Overrides = None,
    seed: int | None = None,
    out: str | os.PathLike | None = None,
    pcap: str | os.PathLike | None = None,
) -> EmulationRun:
    """Run `scenario` with its `[emulation]` groups as real hosts, in real time.

    The applications' outputs go to `out` (a temporary directory when None: the JSON
    reports are kept in the result either way); `pcap` writes captures of the simulated
    air with the real packets. Ctrl-C and SIGTERM stop the run; every namespace, device
    and process of the run is removed on every way out.
    """
    from wlansim import _core

    reason = unavailable()
    if reason:
        raise EmulationError(reason)
    data = apply_overrides(load(scenario), overrides)
    if pcap is not None:
        data.setdefault("output", {})["pcap"] = str(pcap)
    nodes = call_core(_core.emulated_nodes, data)
    groups = {g["name"]: (k, g) for k, g in enumerate(data["emulation"]["groups"])}
    by_group: dict[str, list[dict]] = {}
    for n in nodes:
        by_group.setdefault(n["group"], []).append(n)
    import tempfile

    tmp = None
    if out is None:
        tmp = tempfile.TemporaryDirectory(prefix="wlansim-emulate-")
        out_dir = Path(tmp.name)
    else:
        out_dir = Path(out)
        out_dir.mkdir(parents=True, exist_ok=True)
    prefix = f"wls{os.getpid()}x{secrets.token_hex(2)}-"
    plan = []
    for n in nodes:
        k, g = groups[n["group"]]
        if g.get("command"):
            key = f"emulation.groups[{k}].command"
            cc = g.get("congestion_control")
            command = _expand(g["command"], key, n, by_group, out_dir, cc)
            start = _seconds(g.get("start", "0 s"))
            plan.append((start, bool(g.get("wait", False)), prefix + n["name"], n["name"], command))
    apps = _Apps(plan, out_dir)
    devices: dict[str, dict[str, int]] = {}
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    created: list[str] = []
    try:
        for n in nodes:
            _ip("netns", "add", prefix + n["name"])
            created.append(prefix + n["name"])

        def ready() -> None:
            for n in nodes:
                _configure(prefix + n["name"], n, groups[n["group"]][1])

        def progress(t: float, last: bool) -> bool:
            if last:
                for n in nodes:
                    devices[n["name"]] = _device_counters(prefix + n["name"], n["device"])
                return False
            apps.start_due(t)
            return not apps.waited_done()

        answer = call_core(_core.emulate, data, str(NETNS_DIR), prefix, ready, progress, seed)
    finally:
        try:
            applications = apps.stop()
        finally:
            signal.signal(signal.SIGTERM, previous)
            for ns in created:
                _remove_namespace(ns)
            if tmp is not None:
                tmp.cleanup()
    return EmulationRun(
        results=Results(answer["results"], data),
        realtime=answer["realtime"],
        applications=applications,
        devices=devices,
        prefix=prefix,
        out=None if tmp is not None else out_dir,
        nodes=nodes,
    )


def _report(text: str) -> dict[str, Any] | None:
    """An application's JSON report: its whole output (iperf3 -J), or one object per line
    (several wlansim.bulk receivers in one namespace: their rates summed as "bps")."""
    try:
        report = json.loads(text)
        return report if isinstance(report, dict) else None
    except ValueError:
        pass
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    # a receiver stopped before its window opened reports no rate ("bps": null)
    rates = [
        x["bps"] for x in lines if isinstance(x, dict) and isinstance(x.get("bps"), (int, float))
    ]
    return {"bps": float(sum(rates)), "reports": lines} if rates else None


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def _seconds(value: Any) -> float:
    """A scenario duration ("0.5 s", "300 ms") in seconds (validated by the core)."""
    units = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}
    number, _, unit = str(value).strip().partition(" ")
    return float(number) * units[unit.strip() or "s"]
