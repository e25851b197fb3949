"""A small progress bar on stderr: done/total, failures, rate and ETA.

On a terminal the line is redrawn in place (at most 10 times a second); when stderr is
not a terminal (CI logs, pipes) a plain line is printed at most every 10 s and at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _fmt_duration(s: float) -> str:
    if s != s or s == float("inf"):
        return "?"
    s = int(round(s))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


class Progress:
    """``Progress(total, done=already_done)``; call :meth:`update` per finished run and
    :meth:`close` at the end. ``enabled=False`` makes every method a no-op."""

    def __init__(
        self,
        total: int,
        *,
        done: int = 0,
        label: str = "runs",
        stream: TextIO | None = None,
        enabled: bool = True,
        width: int = 28,
    ):
        self.total = total
        self.start_done = done
        self.done = done
        self.failed = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.width = width
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.monotonic()
        self._last = 0.0
        self._printed_done = -1
        if enabled:
            self._draw(force=True)

    def update(self, n: int = 1, *, failed: int = 0) -> None:
        self.done += n
        self.failed += failed
        if self.enabled:
            self._draw()

    def text(self) -> str:
        elapsed = time.monotonic() - self.t0
        new = self.done - self.start_done
        left = self.total - self.done
        rate = new / elapsed if elapsed > 0 else 0.0
        eta = left / rate if rate > 0 else float("nan")
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        fails = f", {self.failed} failed" if self.failed else ""
        return (
            f"[{bar}] {self.done}/{self.total} {self.label}{fails}"
            f" | {rate:.1f}/s | elapsed {_fmt_duration(elapsed)} ETA {_fmt_duration(eta)}"
        )

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        period = 0.1 if self.tty else 10.0
        if not force and now - self._last < period and self.done < self.total:
            return
        self._last = now
        if self.tty:
            self.stream.write("\r\x1b[K" + self.text())
        else:
            self.stream.write(self.text() + "\n")
            self._printed_done = self.done
        self.stream.flush()

    def close(self) -> None:
        if not self.enabled:
            return
        self.enabled = False
        if self.tty:
            self.stream.write("\r\x1b[K" + self.text() + "\n")
        elif self.done != self._printed_done:
            self.stream.write(self.text() + "\n")
        self.stream.flush()
