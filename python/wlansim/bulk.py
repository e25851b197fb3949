"""A small bulk sender and receiver for emulated hosts (`wlansim emulate`), for machines
without iperf3: `python -m wlansim.bulk MODE ...`, each printing one JSON report
(`{"bps": ...}`, the receiver's goodput) on exit.

- `tcp-recv PORT [--seconds S] [--warmup W]`: accept one connection and count what
  arrives in the window from W seconds after the receiver started until the connection
  closes, S seconds of the window pass, or SIGTERM;
  `tcp-send HOST PORT --seconds S [--cc NAME]`: connect and write for S seconds;
- `udp-recv PORT [--seconds S] [--warmup W]`: count datagrams in the same window;
  `udp-send HOST PORT --seconds S --size B [--rate R]`: send B-byte payloads (as fast as
  the socket takes them without `--rate`, in b/s with it).

The receivers' window is fixed (as a simulation's measurement window is): a connection
that opens late, or never, counts as a low rate, or 0 b/s, over the whole window.
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import time


def _report(**fields) -> None:
    print(json.dumps(fields), flush=True)


class _Stop(Exception):
    pass


def _stop(signum, frame) -> None:
    raise _Stop


def tcp_recv(port: int, seconds: float | None, warmup: float) -> None:
    """Accept one connection and count what arrives in the window (see the module)."""
    signal.signal(signal.SIGTERM, _stop)
    window = _Window(warmup, seconds)
    try:
        with socket.create_server(("0.0.0.0", port)) as server:
            conn, _ = server.accept()
            buf = bytearray(1 << 16)
            with conn:
                while (n := conn.recv_into(buf)) and window.count(n):
                    pass
    except (_Stop, ConnectionResetError):
        pass
    _report(mode="tcp-recv", **window.report())


class _Window:
    """The receivers' measurement window: from `warmup` seconds after the receiver started,
    for `seconds` (None: until it stops)."""

    def __init__(self, warmup: float, seconds: float | None):
        self.opens = time.monotonic() + warmup
        self.seconds = seconds
        self.bytes = self.packets = 0

    def count(self, n: int) -> bool:
        """Count `n` bytes received now; whether the window is still open."""
        now = time.monotonic()
        if now >= self.opens:
            self.bytes += n
            self.packets += 1
        return self.seconds is None or now - self.opens < self.seconds

    def report(self) -> dict:
        elapsed = time.monotonic() - self.opens
        if self.seconds is not None:
            elapsed = min(elapsed, self.seconds)
        if elapsed <= 0:  # stopped before the window opened
            return {"bytes": 0, "seconds": None, "bps": None}
        return {"bytes": self.bytes, "seconds": elapsed, "bps": self.bytes * 8 / elapsed}


def tcp_send(host: str, port: int, seconds: float, cc: str | None) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if cc:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    # the receiver may not listen yet (its host starts it at the same time)
    start = time.monotonic()
    while True:
        try:
            sock.connect((host, port))
            break
        except ConnectionRefusedError:
            if time.monotonic() - start > seconds:
                raise
            time.sleep(0.1)
            sock.close()
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if cc:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    chunk = bytes(1 << 16)
    start, total = time.monotonic(), 0
    while time.monotonic() - start < seconds:
        total += sock.send(chunk)
    sock.close()
    _report(mode="tcp-send", bytes=total, seconds=time.monotonic() - start)


def udp_recv(port: int, seconds: float | None, warmup: float) -> None:
    """Count datagrams in the window (see the module)."""
    signal.signal(signal.SIGTERM, _stop)
    window = _Window(warmup, seconds)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", port))
    buf = bytearray(1 << 16)
    try:
        while window.count(sock.recv_into(buf)):
            pass
    except _Stop:
        pass
    r = window.report()
    _report(mode="udp-recv", packets=window.packets, **r)


def udp_send(host: str, port: int, seconds: float, size: int, rate: float | None) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = bytes(size)
    start, sent = time.monotonic(), 0
    interval = size * 8 / rate if rate else 0.0
    while (now := time.monotonic()) - start < seconds:
        try:
            sock.sendto(payload, (host, port))
            sent += 1
        except OSError:  # ENOBUFS: the device's ring is full
            time.sleep(0.0005)
        if interval:
            time.sleep(max(0.0, start + sent * interval - now))
    _report(mode="udp-send", packets=sent, seconds=time.monotonic() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m wlansim.bulk", description=__doc__)
    sub = p.add_subparsers(dest="mode", required=True)
    for proto in ("tcp", "udp"):
        r = sub.add_parser(f"{proto}-recv")
        r.add_argument("port", type=int)
        r.add_argument("--seconds", type=float, default=None)
        r.add_argument("--warmup", type=float, default=0.0)
        s = sub.add_parser(f"{proto}-send")
        s.add_argument("host")
        s.add_argument("port", type=int)
        s.add_argument("--seconds", type=float, required=True)
        if proto == "tcp":
            s.add_argument("--cc", default=None)
        else:
            s.add_argument("--size", type=int, default=1472)
            s.add_argument("--rate", type=float, default=None)
    a = p.parse_args(argv)
    if a.mode == "tcp-recv":
        tcp_recv(a.port, a.seconds, a.warmup)
    elif a.mode == "tcp-send":
        tcp_send(a.host, a.port, a.seconds, a.cc)
    elif a.mode == "udp-recv":
        udp_recv(a.port, a.seconds, a.warmup)
    else:
        udp_send(a.host, a.port, a.seconds, a.size, a.rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
