"""A small bulk sender and receiver for emulated hosts (`wlansim emulate`), for machines
without iperf3: `python -m wlansim.bulk MODE ...`, each printing one JSON report
(`{"bps": ...}`, the receiver's goodput) on exit.

- `tcp-recv PORT [--seconds S] [--warmup W]`: accept one connection, count what arrives
  from W seconds after it opened until it closes, S seconds pass, or SIGTERM;
  `tcp-send HOST PORT --seconds S [--cc NAME]`: connect and write for S seconds;
- `udp-recv PORT [--seconds S] [--warmup W]`: count datagrams from W seconds after the
  first one, for S seconds or until SIGTERM;
  `udp-send HOST PORT --seconds S --size B [--rate R]`: send B-byte payloads (as fast as
  the socket takes them without `--rate`, in b/s with it).
"""

from __future__ import annotations

import argparse
import json
import math
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
    """Accept one connection and count what arrives from `warmup` seconds after it opened,
    until it closes, `seconds` pass, or SIGTERM."""
    signal.signal(signal.SIGTERM, _stop)
    total, start = 0, None
    try:
        with socket.create_server(("0.0.0.0", port)) as server:
            conn, _ = server.accept()
            opened = time.monotonic()
            buf = bytearray(1 << 16)
            with conn:
                while True:
                    n = conn.recv_into(buf)
                    if n == 0:
                        break
                    now = time.monotonic()
                    if now - opened < warmup:
                        continue
                    if start is None:
                        start = now
                    total += n
                    if seconds is not None and now - start >= seconds:
                        break
    except (_Stop, ConnectionResetError):
        pass
    elapsed = max(time.monotonic() - start, 1e-9) if start is not None else math.nan
    _report(mode="tcp-recv", bytes=total, seconds=elapsed, bps=total * 8 / elapsed)


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
    """Count datagrams from `warmup` seconds after the first one, for `seconds` or until
    SIGTERM."""
    signal.signal(signal.SIGTERM, _stop)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", port))
    buf = bytearray(1 << 16)
    total = packets = 0
    start = None
    try:
        sock.recv_into(buf)
        first = time.monotonic()
        while True:
            n = sock.recv_into(buf)
            now = time.monotonic()
            if now - first < warmup:
                continue
            if start is None:
                start = now
            total += n
            packets += 1
            if seconds is not None and now - start >= seconds:
                break
    except _Stop:
        pass
    elapsed = max(time.monotonic() - start, 1e-9) if start is not None else math.nan
    _report(mode="udp-recv", bytes=total, packets=packets, seconds=elapsed, bps=total * 8 / elapsed)


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
