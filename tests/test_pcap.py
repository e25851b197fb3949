"""pcap captures (`[output] pcap`, `wlansim run --pcap DIR`) read by tshark and compared with
wlansim's own tables.

What is compared (scenario `capture-mixed.toml`: warm-up 0 and every flow done before the
end, so the tables count the whole run and nothing is in the air when it ends):
- per-node captures: frames but ACKs = the node's MAC `attempts`, those with the 802.11
  retry bit = `retries`, those with the radiotap bad-FCS flag = `frame_errors +
  collisions` (neither a lost nor a collided frame is received);
- per-BSS captures: the ACKs (good FCS) to a node = its `successes`;
- per-BSS captures, `tshark -z conv,udp|tcp` restricted to the frames of the last hop that
  were received (good FCS, transmitted by the AP; TCP: segments with payload): packets =
  the flow's `delivered_packets`, frame bytes = delivered packets × (radiotap 10 + 802.11
  24 + LLC/SNAP 8 + IP/transport headers) + `delivered_bytes` (tshark's conversation table
  rounds bytes to kB, so the byte sum is taken over the same frames with `-T fields`);
- the upload's last hop is a wired link: its Ethernet capture's TCP data frames =
  `delivered_packets`;
- TCP analysis over the frames that were received (good FCS): retransmissions and
  duplicate ACKs are flagged in a lossy run with TCP retransmissions (at most as many
  retransmissions as the sender counts), and absent in a lossless run (no frame errors,
  windows below the queues) where wlansim counts none.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, wlansim_cli

import wlansim

SCENARIO = ROOT / "scenarios" / "capture-mixed.toml"
TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(
    TSHARK is None,
    reason="tshark is not installed and could not be (`make tshark` installs it from the "
    "distribution's packages)",
)


def tshark(*args: str) -> str:
    out = subprocess.run([TSHARK, *args], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    # tshark's only stderr line on success is the warning about running as root
    errors = [line for line in out.stderr.splitlines() if "Running as user" not in line]
    assert not errors, errors
    return out.stdout


NOT_ACK = "wlan.fc.type_subtype != 0x001d"


def fields(path: Path, *names: str, where: str = "") -> list[list[str]]:
    args = ["-r", str(path), "-T", "fields", "-E", "separator=\t"]
    if where:
        args += ["-Y", where]
    for name in names:
        args += ["-e", name]
    return [line.split("\t") for line in tshark(*args).splitlines()]


def conversations(path: Path, proto: str, where: str) -> dict[str, int]:
    """`tshark -z conv,PROTO,FILTER`: total frames per conversation."""
    out = tshark("-r", str(path), "-q", "-z", f"conv,{proto},{where}")
    conv = {}
    for line in out.splitlines():
        if "<->" in line:
            # frames and bytes (a number and a unit) ←, →, in total; start, duration
            a, _, b, *cols = line.split()
            conv[f"{a} {b}"] = int(cols[6])
    return conv


def capture(tmp_path: Path, name: str, *overrides: str) -> tuple[wlansim.Results, Path]:
    out = tmp_path / name
    r = wlansim.run(SCENARIO, overrides=[f'output.pcap="{out}"', *overrides])
    return r, out


def node(r: wlansim.Results, name: str) -> dict:
    return next(n for n in r.to_dict()["nodes"] if n["name"] == name)


def flow(r: wlansim.Results, name: str) -> dict:
    return next(f for f in r.to_dict()["flows"] if f["name"] == name)


@needs_tshark
def test_every_capture_reads_without_errors_or_malformed_packets(tmp_path):
    _, node_dir = capture(tmp_path, "node", "output.pcap_snaplen=65535")
    _, bss_dir = capture(tmp_path, "bss", "output.pcap_per=bss", "output.pcap_snaplen=80")
    files = sorted(node_dir.glob("*.pcap")) + sorted(bss_dir.glob("*.pcap"))
    assert len(files) == 9 + 5
    for path in files:
        bad = fields(path, "frame.number", where="_ws.malformed || _ws.expert.severity >= error")
        assert bad == [], f"{path.name}: {bad[:5]}"
    # checksums: tshark verifies them when asked (full frames: the node captures)
    for path in sorted(node_dir.glob("*.pcap")):
        wrong = tshark(
            "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-o", "ip.check_checksum:TRUE", "-r", str(path), "-Y",
            "ip.checksum.status != 1 || (tcp && tcp.checksum.status != 1)"
            " || (udp && udp.checksum.status != 1)",
        )  # fmt: skip
        assert wrong == "", f"{path.name}: {wrong[:300]}"


@needs_tshark
def test_node_captures_show_attempts_retries_and_bad_fcs(tmp_path):
    r, out = capture(tmp_path, "node")
    for n in r.to_dict()["nodes"]:
        rows = fields(
            out / f"{n['name']}.pcap", "wlan.fc.retry", "radiotap.flags.badfcs", where=NOT_ACK
        )
        assert len(rows) == n["attempts"], n["name"]
        assert sum(row[0] in ("1", "True") for row in rows) == n["retries"], n["name"]
        bad = sum(row[1] in ("1", "True") for row in rows)
        assert bad == n["frame_errors"] + n["collisions"], n["name"]
    assert node(r, "a-0")["frame_errors"] > 0 and node(r, "a-0")["retries"] > 0


@needs_tshark
def test_every_success_has_its_ack_in_the_capture(tmp_path):
    r, out = capture(tmp_path, "bss", "output.pcap_per=bss")
    acks: dict[str, int] = {}
    for path in out.glob("bss-*.pcap"):
        for (ra,) in fields(path, "wlan.ra", where=f"!({NOT_ACK}) && radiotap.flags.badfcs == 0"):
            acks[ra] = acks.get(ra, 0) + 1
    nodes = r.to_dict()["nodes"]
    assert {n["mac_address"]: n["successes"] for n in nodes if n["successes"]} == acks


@needs_tshark
def test_conversations_equal_the_flow_tables(tmp_path):
    r, out = capture(tmp_path, "bss", "output.pcap_per=bss")
    ap2 = node(r, "ap2")["mac_address"]
    ip = {n["name"]: n["ip_address"] for n in r.to_dict()["nodes"]}
    received = f"radiotap.flags.badfcs == 0 && wlan.ta == {ap2}"
    header = 10 + 24 + 8

    cross = flow(r, "cross-0")
    conv = conversations(out / "bss-ap2.pcap", "udp", received)
    assert conv == {f"{ip['x-0']}:10002 {ip['y-0']}:5000": cross["delivered_packets"]}
    lengths = fields(out / "bss-ap2.pcap", "frame.len", where=f"{received} && udp")
    expected = cross["delivered_packets"] * (header + 28) + cross["delivered_bytes"]
    assert sum(int(x[0]) for x in lengths) == expected

    down = flow(r, "download-0")
    data = f"{received} && tcp.len > 0"
    conv = conversations(out / "bss-ap2.pcap", "tcp", data)
    assert list(conv.values()) == [down["delivered_packets"]]
    lengths = fields(out / "bss-ap2.pcap", "frame.len", where=data)
    expected = down["delivered_packets"] * (header + 52) + down["delivered_bytes"]
    assert sum(int(x[0]) for x in lengths) == expected

    # the upload's last hop is the server's wired link (Ethernet)
    up = flow(r, "upload-0")
    data = f"ip.src == {ip['a-0']} && tcp.len > 0"
    conv = conversations(out / "link-router-srv-0.pcap", "tcp", data)
    assert list(conv.values()) == [up["delivered_packets"]]
    lengths = fields(out / "link-router-srv-0.pcap", "frame.len", where=data)
    expected = up["delivered_packets"] * (14 + 52) + up["delivered_bytes"]
    assert sum(int(x[0]) for x in lengths) == expected


def tcp_flags(path: Path) -> tuple[int, int]:
    """Frames tshark flags as TCP retransmissions and as duplicate ACKs, among the frames
    that were received (a failed attempt and its retry carry the same segment): the
    received frames are first written to a file of their own, so that the TCP analysis
    never sees the failed ones."""
    received = path.with_suffix(".received.pcap")
    tshark("-r", str(path), "-Y", "radiotap.flags.badfcs == 0", "-w", str(received))
    out = tshark(
        "-r", str(received), "-T", "fields",
        "-e", "tcp.analysis.retransmission", "-e", "tcp.analysis.fast_retransmission",
        "-e", "tcp.analysis.duplicate_ack",
    )  # fmt: skip
    rows = [line.split("\t") for line in out.splitlines()]
    return sum(bool(r[0] or r[1]) for r in rows), sum(bool(r[2]) for r in rows)


@needs_tshark
def test_tcp_analysis_flags_follow_the_tcp_counters(tmp_path):
    r, out = capture(tmp_path, "lossy", "output.pcap_per=bss", "stations.a.fer=0.1")
    up = flow(r, "upload-0")
    assert up["retransmissions"] > 0
    retrans, dupacks = tcp_flags(out / "bss-ap1.pcap")
    assert 0 < retrans <= up["retransmissions"]
    assert dupacks > 0

    # no frame errors, and windows that no queue overflows
    r, out = capture(tmp_path, "lossless", "output.pcap_per=bss", "stations.a.fer=0", "tcp.rwnd=20")
    for name in ("upload-0", "download-0"):
        assert flow(r, name)["retransmissions"] == 0, name
    for bss in ("bss-ap1.pcap", "bss-ap2.pcap"):
        assert tcp_flags(out / bss) == (0, 0), bss


def test_captures_are_byte_identical_for_a_seed(tmp_path):
    _, a = capture(tmp_path, "a")
    _, b = capture(tmp_path, "b")
    names = sorted(p.name for p in a.glob("*.pcap"))
    assert names and names == sorted(p.name for p in b.glob("*.pcap"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_addresses_in_the_nodes_table():
    r = wlansim.run(SCENARIO)
    nodes = {n["name"]: n for n in r.to_dict()["nodes"]}
    assert nodes["ap1"]["mac_address"] == "02:00:00:00:00:01"
    assert nodes["ap1"]["ip_address"] == "10.0.0.1"
    assert len({n["ip_address"] for n in nodes.values()}) == len(nodes)


def test_cli_pcap_option_and_unwritable_directory(tmp_path):
    out = wlansim_cli("run", str(SCENARIO), "--pcap", str(tmp_path / "cli"), "--wide")
    assert out.returncode == 0, out.stderr
    assert "mac_address" in out.stdout and "02:00:00:00:00:03" in out.stdout
    assert (tmp_path / "cli" / "a-0.pcap").stat().st_size > 24
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    out = wlansim_cli("run", str(SCENARIO), "--pcap", str(blocker / "sub"))
    assert out.returncode != 0
    assert "output.pcap" in out.stderr and "cannot create directory" in out.stderr


@needs_tshark
def test_spatial_node_captures_hold_what_each_node_heard(tmp_path):
    """Two saturated stations hidden from each other with the AP between them (spatial
    medium): each station's capture holds its own frames and none of the other's; the AP's
    holds the data frames of both, good FCS on those it decoded (one per delivered packet,
    plus at most one the run ended before acknowledging) and bad FCS on the collided
    ones."""
    from wlansim.evidence.validations.hidden import hidden_scenario

    s = hidden_scenario("basic", profile="standard", duration_s=2.0, warmup_s=0.0)
    s["output"] = {"pcap": str(tmp_path)}
    r = wlansim.run(s, seed=1)
    assert r.meta["medium"] == "spatial"
    nodes = {n["name"]: n for n in r.to_dict()["nodes"]}
    ap = next(name for name, n in nodes.items() if n["role"] == "ap")
    mac = {name: n["mac_address"] for name, n in nodes.items()}

    def senders(name: str) -> list[tuple[str, bool]]:
        rows = fields(tmp_path / f"{name}.pcap", "wlan.ta", "radiotap.flags.badfcs")
        return [(ta, bad in ("1", "True")) for ta, bad in rows]

    for me, other in (("left-0", "right-0"), ("right-0", "left-0")):
        seen = senders(me)
        assert len(seen) == nodes[me]["attempts"] > 0, me
        assert {ta for ta, _ in seen} == {mac[me]}, me
        assert mac[other] not in {ta for ta, _ in seen}
    at_ap = senders(ap)
    assert nodes["left-0"]["hidden_collisions"] > 0
    for sta, fl in (("left-0", "l-0"), ("right-0", "r-0")):
        good = sum(ta == mac[sta] and not bad for ta, bad in at_ap)
        collided = sum(ta == mac[sta] and bad for ta, bad in at_ap)
        assert good - flow(r, fl)["delivered_packets"] in (0, 1), sta
        assert collided > 0, sta
