"""The fork server of the API fuzz (tests/test_fuzz_api.py): a small process that imports
wlansim once, runs one scenario to load what a first run loads, then reads cases as JSON
lines on stdin and runs each in a child process forked from itself, so that a crash, an
abort or a hang ends that case only and a case costs a fork (about 2 ms), not an
interpreter start. It writes one JSON line per case on stdout: the verdict
(``outcome``, ``message``) and the CPU seconds of the case's process (``cpu_s``).

A case's process has at most ADDRESS_SPACE of address space. Its time limits count its
own CPU seconds, so that a busy machine does not turn a large run into a stuck one: past
the time limit it gets Ctrl-C (SIGINT) and is "slow" if it then stops within the
interrupt limit, "stuck" if not; a process asleep for the asleep limit (blocked on
something: `wlansim.run` waits for nothing but a file) gets the same and is "blocked" if
it then stops. The fork server is kept small (no test session in it) because a fork
costs in proportion to the memory of the process forked.
"""

from __future__ import annotations

import faulthandler
import json
import os
import resource
import select
import shutil
import signal
import struct
import sys
import tempfile
import time
from pathlib import Path

import wlansim
from wlansim.errors import ScenarioError, SimulationError

#: The address space of a case's process (the issue's tester ran each case with 4 GiB).
ADDRESS_SPACE = 4 << 30
#: How often the case's CPU time and state are read while it runs (s).
POLL_S = 0.05


#: The most MPDUs one A-MPDU carries: the largest Block Ack window (802.11-2020 10.25.6).
MAX_MPDUS_PER_AMPDU = 64
#: The fastest data rate of any PHY here: VHT MCS 9, 160 MHz, 4 streams, short GI (b/s).
MAX_DATA_RATE_BPS = 3466.7e6


def mac_nonsense(who: str, m: dict) -> list[str]:
    """What a table of MAC counters (a node's, an AC's, a BSS's) says that cannot be:
    every exchange (a medium access, or one sent inside a TXOP without contending) ends
    once (a success, a collision or another failure), ADDBA and BlockAckReq frames go
    in exchanges, and an A-MPDU carries at most 64 MPDUs."""
    bad = []
    exchanges = m["attempts"] + m["burst_exchanges"]
    if m["successes"] + m["collisions"] > exchanges:
        bad.append(f"{who}: {m['successes']} successes and {m['collisions']} collisions "
                   f"of {exchanges} exchanges")  # fmt: skip
    if m["addba_sent"] + m["bars_sent"] > exchanges:
        bad.append(f"{who}: {m['addba_sent']} ADDBA and {m['bars_sent']} BlockAckReq "
                   f"frames of {exchanges} exchanges")  # fmt: skip
    if m["mpdus_sent"] > MAX_MPDUS_PER_AMPDU * exchanges:
        bad.append(f"{who}: {m['mpdus_sent']} MPDUs in {exchanges} exchanges")
    return bad


def nonsense(r: dict) -> list[str]:
    """What a run reported that cannot be (empty when its results make sense)."""
    bad = []
    for n in r["nodes"]:
        if n["collisions"] > n["attempts"]:
            bad.append(f"{n['name']}: {n['collisions']} collisions of {n['attempts']} attempts")
        bad += mac_nonsense(n["name"], n)
        rate = n.get("mean_data_rate_bps")
        if rate is not None and not 0 < rate <= MAX_DATA_RATE_BPS:
            bad.append(f"{n['name']}: mean data rate {rate} b/s")
    for a in r["access_categories"]:
        bad += mac_nonsense(f"{a['node']} {a['ac']}", a)
    for b in r["bss"]:
        bad += mac_nonsense(f"BSS {b['ap']}", b)
    for f in r["flows"]:
        if f["protocol"] == "udp":
            early = f["delivered_packets"] - f["delivered_from_warmup"]
            if early > f["offered_packets"]:
                bad.append(f"{f['name']}: {early} of {f['offered_packets']} offered delivered")
        if not 0 <= f["throughput_bps"] <= 2e10:
            bad.append(f"{f['name']}: throughput {f['throughput_bps']} b/s")
    for s in r["sessions"]:
        if s["delay_s"] <= 0 or s["bytes"] * 8 / s["delay_s"] > 2e10:
            bad.append(f"session of {s['bytes']} B in {s['delay_s']} s")
    p = r["metrics"].get("collision_probability")
    if p is not None and p == p and not 0 <= p <= 1:
        bad.append(f"collision probability {p}")
    return bad


def decode(obj):
    """A scenario as the test sent it: NaN and infinities travel as ``{"__float__": ...}``
    and a value nested N levels deep as ``{"__nested__": [N, table]}``, built here without
    recursion (encoding it would itself recurse past Python's limit)."""
    if isinstance(obj, dict):
        if set(obj) == {"__float__"}:
            return float(obj["__float__"])
        if set(obj) == {"__nested__"}:
            depth, table = obj["__nested__"]
            value = 1
            for _ in range(depth):
                value = {"a": value} if table else [value]
            return value
        return {k: decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [decode(v) for v in obj]
    return obj


#: The placeholder of `output.pcap` (tests/test_fuzz_api.py `CASE_DIR`): a fresh
#: directory of the case's own.
CASE_DIR = "{case_dir}"
#: pcap (libpcap's format, nanosecond timestamps) and radiotap link types.
PCAP_MAGIC_NS = 0xA1B23C4D
LINKTYPE_IEEE802_11_RADIOTAP = 127


def pcap_problems(path: Path, snaplen: int) -> list[str]:
    """What is wrong with the capture `path` (empty when nothing): a header that is not
    a nanosecond pcap's, records cut short, longer than the snap length or than the
    frame, and radiotap headers (version 0) longer than their record."""
    data = path.read_bytes()
    if len(data) < 24:
        return [f"{path.name}: {len(data)} bytes, no pcap header"]
    magic, _, _, _, _, file_snaplen, linktype = struct.unpack_from("<IHHiIII", data)
    if magic != PCAP_MAGIC_NS or file_snaplen != snaplen:
        return [f"{path.name}: magic {magic:#x}, snap length {file_snaplen} (not {snaplen})"]
    at, n = 24, 0
    while at < len(data):
        if at + 16 > len(data):
            return [f"{path.name}: record {n} cut short at byte {at}"]
        _, nsec, incl, orig = struct.unpack_from("<IIII", data, at)
        at += 16
        if nsec >= 10**9 or incl > orig or incl > snaplen or at + incl > len(data):
            return [f"{path.name}: record {n}: {incl} of {orig} bytes, ns {nsec}"]
        if linktype == LINKTYPE_IEEE802_11_RADIOTAP:
            version, _, it_len = struct.unpack_from("<BBH", data, at) if incl >= 4 else (0, 0, 99)
            if version != 0 or not 8 <= it_len <= incl:
                return [f"{path.name}: record {n}: radiotap v{version} of {it_len} bytes in {incl}"]
        at += incl
        n += 1
    return []


def verdict(scenario) -> dict:
    """What `wlansim.run(scenario)` gives, as a JSON-able verdict (and, when the scenario
    writes captures to `CASE_DIR`, what is wrong with them)."""
    scenario = decode(scenario)
    output = scenario.get("output") if isinstance(scenario, dict) else None
    case_dir = None
    if isinstance(output, dict) and output.get("pcap") == CASE_DIR:
        case_dir = Path(tempfile.mkdtemp(prefix="wlansim-fuzz-pcap-"))
        output["pcap"] = str(case_dir)
    try:
        r = wlansim.run(scenario).to_dict()
        bad = nonsense(r)
        if case_dir is not None:
            snaplen = output.get("pcap_snaplen", 128)
            for path in sorted(case_dir.glob("*.pcap")):
                bad += pcap_problems(path, snaplen)
        if bad:
            return {"outcome": "nonsense", "message": "; ".join(bad[:3])}
        return {"outcome": "ok", "events": r["meta"]["events"]}
    except ScenarioError as exc:
        return {"outcome": "ScenarioError", "message": str(exc)}
    except SimulationError as exc:
        return {"outcome": "SimulationError", "message": str(exc)}
    except BaseException as exc:
        return {"outcome": type(exc).__name__, "message": str(exc)}
    finally:
        if case_dir is not None:
            shutil.rmtree(case_dir, ignore_errors=True)


# Misbehaving cases, for the tests of the fork server itself.


def _abort(_):
    os.abort()


def _spin(_):
    while True:  # Python checks for Ctrl-C between bytecodes
        pass


def _spin_ignoring_ctrl_c(_):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        pass


def _sleep(_):
    time.sleep(3600)


def _allocate_the_address_space(_):
    try:
        bytearray(ADDRESS_SPACE)
    except MemoryError:
        return {"outcome": "MemoryError"}
    return {"outcome": "ok"}


BODIES = {
    "verdict": verdict,
    "abort": _abort,
    "spin": _spin,
    "spin-ignoring-ctrl-c": _spin_ignoring_ctrl_c,
    "sleep": _sleep,
    "allocate-the-address-space": _allocate_the_address_space,
}


def _case_process(body, scenario, answer_fd: int) -> None:
    """A case's process: `body(scenario)` under the limits, its verdict written as JSON
    to `answer_fd`, and exit (never returns)."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
        faulthandler.disable()
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        data = json.dumps(body(scenario)).encode()
        while data:
            data = data[os.write(answer_fd, data) :]
        code = 0
    finally:
        os._exit(code)


def _cpu_and_state(pid: int) -> tuple[float, str]:
    """CPU seconds (user + system) a process has used, and its state letter (R running or
    waiting for a CPU, S/D asleep, Z ended), from /proc/PID/stat (proc(5))."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # after the command name: the state is field 3 of proc(5), utime and stime 14 and 15
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK"), fields[0]


def supervise(pid: int, fd: int, limits: list[float]) -> dict:
    """The verdict of the case's process `pid` (its answer read from `fd`) under `limits`
    (time, interrupt, asleep: seconds), with the CPU seconds it used."""
    time_limit, interrupt_limit, asleep_limit = limits
    answer, interrupted, why, asleep = b"", None, "", 0.0
    while True:
        ready, _, _ = select.select([fd], [], [], POLL_S)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break  # the process has ended
            answer += chunk
            continue
        cpu, state = _cpu_and_state(pid)
        asleep = asleep + POLL_S if state in "SD" else 0.0
        if interrupted is None:
            if cpu > time_limit or asleep > asleep_limit:
                why = "slow" if cpu > time_limit else "blocked"
                os.kill(pid, signal.SIGINT)
                interrupted, asleep = cpu, 0.0
        elif cpu - interrupted > interrupt_limit or asleep > asleep_limit:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            message = f"{why}, and Ctrl-C did not stop it ({cpu:.1f} s of CPU)"
            return {"outcome": "stuck", "message": message, "cpu_s": cpu}
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status))
        kind = "abort" if sig == signal.SIGABRT else "crash"
        return {"outcome": kind, "message": f"killed by {sig.name}", "cpu_s": cpu}
    out = json.loads(answer) if answer and os.WEXITSTATUS(status) == 0 else None
    if interrupted is not None and (out is None or out["outcome"] == "KeyboardInterrupt"):
        # stopped by Ctrl-C (KeyboardInterrupt, raised in the run or after it)
        message = f"stopped by Ctrl-C after {interrupted:.1f} s of CPU"
        return {"outcome": why, "message": message, "cpu_s": cpu}
    if out is None:
        out = {"outcome": "crash", "message": f"exit status {os.WEXITSTATUS(status)}"}
    return {**out, "cpu_s": cpu}


def main() -> None:
    # what a first run loads (lazy imports, tables), once, here rather than in every case
    verdict({"duration": "10 ms", "stations": [{"name": "sta"}],
             "flows": [{"name": "f", "direction": "uplink", "stations": "sta"}]})  # fmt: skip
    for line in sys.stdin:
        case = json.loads(line)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _case_process(BODIES[case["body"]], case["scenario"], write_fd)
        os.close(write_fd)
        try:
            out = supervise(pid, read_fd, case["limits"])
        finally:
            os.close(read_fd)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
