"""Synthetic video frame-size traces, for when the public traces are not at hand.

The TU Berlin TKN / ASU video trace library publishes, per encoded video, a verbose
"frames" trace (frame number, time in ms, frame type, frame size in bytes) and a page of
statistics. This module draws a trace of the same form whose mean and peak bit rate match
such published statistics, writes and reads the text format, and measures a trace.

Frame sizes are drawn log-normal per frame type (I, P, B) with a coefficient of variation
(CoV) per type, a ratio of mean sizes between types and an optional per-GoP activity
factor; see :func:`generate` for how the mean and the peak are then hit exactly.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import numpy as np

#: One frame: (number from 0, time in ms, type letter, size in bytes).
Frame = tuple[int, float, str, int]
FRAME_TYPES = "IPB"
#: Type letter of a skipped (zero-size) slot in a "stuffed" trace.
SKIP_TYPE = "S"
COLUMNS = "number time_ms type size_bytes"


@dataclass
class TraceSpec:
    """What to generate: frame rate, GoP pattern, target rates and per-type sizes.

    ``size_ratio`` gives the mean frame size of each type relative to the others (only
    ratios matter) and ``cov`` the CoV of each type's log-normal sizes. ``gop_cov`` is the
    CoV of a log-normal activity factor (mean 1) shared by the frames of one GoP, which
    gives GoP sizes a realistic spread. ``skip_share`` is the share of zero-size "skipped"
    slots of a stuffed trace (type ``S``; the GoP pattern counts coded frames only).
    """

    frame_rate: float
    gop: str
    mean_bit_rate: float
    peak_bit_rate: float
    size_ratio: Mapping[str, float]
    cov: Mapping[str, float]
    min_size: int = 1
    skip_share: float = 0.0
    gop_cov: float = 0.0
    name: str = "synthetic"
    #: Where the targets come from (written into a generated trace's header).
    source: str = ""

    def __post_init__(self) -> None:
        self.validate()

    @property
    def mean_frame_bytes(self) -> float:
        """Target mean size of a frame slot (skipped slots included), bytes."""
        return self.mean_bit_rate / 8.0 / self.frame_rate

    @property
    def max_frame_bytes(self) -> int:
        """Target size of the largest frame, bytes: peak_bit_rate over one frame time."""
        return round(self.peak_bit_rate / 8.0 / self.frame_rate)

    def validate(self) -> None:
        """Raise ValueError naming the field, its value and what is allowed."""
        _positive("frame_rate", self.frame_rate, "frames/s")
        _positive("mean_bit_rate", self.mean_bit_rate, "b/s")
        _positive("peak_bit_rate", self.peak_bit_rate, "b/s")
        if self.peak_bit_rate < self.mean_bit_rate:
            raise ValueError(
                f"peak_bit_rate: {self.peak_bit_rate!r} b/s is below mean_bit_rate "
                f"{self.mean_bit_rate!r} b/s; it must be >= mean_bit_rate"
            )
        if not isinstance(self.gop, str) or not self.gop:
            raise ValueError(
                f"gop: {self.gop!r} must be a non-empty string of frame types I, P, B "
                "(e.g. 'IBBPBBPBBPBB')"
            )
        bad = sorted(set(self.gop) - set(FRAME_TYPES))
        if bad:
            raise ValueError(
                f"gop: {self.gop!r} has frame type(s) {', '.join(bad)}; allowed are I, P, B"
            )
        for letter in sorted(set(self.gop)):
            ratio = self.size_ratio.get(letter)
            if ratio is None or not (math.isfinite(ratio) and ratio > 0):
                raise ValueError(
                    f"size_ratio[{letter!r}]: {ratio!r} must be a number > 0 for every "
                    f"frame type in gop {self.gop!r}"
                )
            cov = self.cov.get(letter)
            if cov is None or not (math.isfinite(cov) and cov >= 0):
                raise ValueError(
                    f"cov[{letter!r}]: {cov!r} must be a number >= 0 for every frame type "
                    f"in gop {self.gop!r}"
                )
        if not isinstance(self.min_size, int) or self.min_size < 1:
            raise ValueError(f"min_size: {self.min_size!r} must be a whole number of bytes >= 1")
        if not (0.0 <= self.skip_share < 1.0):
            raise ValueError(f"skip_share: {self.skip_share!r} must be in [0, 1)")
        if not (math.isfinite(self.gop_cov) and self.gop_cov >= 0):
            raise ValueError(f"gop_cov: {self.gop_cov!r} must be a number >= 0")
        if self.max_frame_bytes < self.min_size:
            raise ValueError(
                f"peak_bit_rate: {self.peak_bit_rate!r} b/s gives a largest frame of "
                f"{self.max_frame_bytes} B, below min_size {self.min_size} B; it must be at "
                f"least {self.min_size * 8 * self.frame_rate:g} b/s"
            )
        coded_mean = self.mean_frame_bytes / (1.0 - self.skip_share)
        if coded_mean < self.min_size:
            raise ValueError(
                f"mean_bit_rate: {self.mean_bit_rate!r} b/s gives a mean coded frame of "
                f"{coded_mean:.1f} B, below min_size {self.min_size} B; it must be at least "
                f"{self.min_size * 8 * self.frame_rate * (1 - self.skip_share):g} b/s"
            )


def _positive(name: str, value: float, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: {value!r} must be a number > 0 ({unit})")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name}: {value!r} must be a finite number > 0 ({unit})")


# MPEG-4 "Star Wars IV", high quality (F. Fitzek, M. Reisslein, TKN TU Berlin; ASU trace
# library frame statistics page, trace.eas.asu.edu/TRACE/pics/FrameStat/statc725.html):
# 25 frames/s, GoP IBBPBBPBBPBB, 89 998 frames, mean frame 1.4e3 B, var 8.2e5, CoV 0.66,
# min 26 B, max 9 370 B, mean bit rate 2.8e5 b/s, peak 1.9e6 b/s, peak/mean 6.81; GoPs:
# mean 1.7e4 B, CoV 0.38. The page rounds rates to two digits; the exact max frame and the
# three-digit ratio pin them down: peak = 9 370 B x 8 x 25 = 1.874e6 b/s and mean =
# peak / 6.81 = 2.752e5 b/s (1 376 B a frame; sqrt(8.2e5) / 0.66 = 1 372 B agrees).
# The I:P:B size ratio and per-type CoVs are this generator's choice (not published),
# chosen so the overall CoV and GoP CoV come out near 0.66 and 0.38.
STAR_WARS_IV_MPEG4_HIGH = TraceSpec(
    name="MPEG-4 Star Wars IV, high quality (TKN/ASU), synthetic",
    frame_rate=25.0,
    gop="IBBPBBPBBPBB",
    mean_bit_rate=9370 * 8 * 25 / 6.81,
    peak_bit_rate=9370 * 8 * 25,
    size_ratio={"I": 3.0, "P": 1.6, "B": 1.0},
    cov={"I": 0.2, "P": 0.3, "B": 0.3},
    min_size=26,
    gop_cov=0.37,
    source="Published (trace.eas.asu.edu/TRACE/pics/FrameStat/statc725.html): 25 frames/s, "
    "GoP IBBPBBPBBPBB, mean frame 1.4e3 B, CoV 0.66, min 26 B, max 9370 B, mean bit rate "
    "2.8e5 b/s, peak 1.9e6 b/s, peak/mean 6.81, GoP CoV 0.38. Targets here: the exact max "
    "frame and peak/mean (mean = 9370 B x 200 b/s / 6.81).",
)

# H.263 "Lecture Room Cam", VBR, unspecified target bit rate (F. Fitzek, TKN TU Berlin;
# ASU trace library, trace.eas.asu.edu/TRACE/pics/FrameStat/stat9368.html): stuffed to
# 25 frames/s, 90 084 slots of which 45 459 coded (the rest 0 B, so skip_share = 0.4954);
# stuffed: mean 311.65 B, CoV 1.30, min 0, max 5 760 B (peak/mean frame 18.48); coded
# frames: mean 617.59 B, CoV 0.60, min 240 B; mean bit rate 6.2e4 b/s (= 311.65 B x 8 x 25
# = 62 330 b/s). The page's "Rates" column gives a peak bit rate of 9.5e5 b/s (peak/mean
# 15), which is not the largest frame over one frame time (5 760 B x 8 x 25 = 1.152e6 b/s)
# but a rate measured on another basis; this module defines the peak as the largest frame
# over one frame time, so the preset keeps the published largest frame, 5 760 B.
# GoP: H.263 has I and P frames only; the choice here is one I frame every 60 coded frames
# (about 5 s at the ~12 coded frames/s of this trace): "I" + 59 "P".
LECTURE_ROOM_CAM_H263_VBR = TraceSpec(
    name="H.263 Lecture Room Cam, VBR (TKN/ASU), stuffed, synthetic",
    frame_rate=25.0,
    gop="I" + "P" * 59,
    mean_bit_rate=311.65 * 8 * 25,
    peak_bit_rate=5760 * 8 * 25,
    size_ratio={"I": 4.0, "P": 1.0},
    cov={"I": 0.2, "P": 0.38},
    min_size=240,
    skip_share=1 - 45459 / 90084,
    gop_cov=0.25,
    source="Published (trace.eas.asu.edu/TRACE/pics/FrameStat/stat9368.html): stuffed to "
    "25 frames/s, 45459 of 90084 slots coded, mean frame 311.65 B, CoV 1.30, max 5760 B, "
    "coded frames mean 617.59 B, CoV 0.60, min 240 B; mean bit rate 6.2e4 b/s; the page's "
    "peak bit rate 9.5e5 b/s (peak/mean 15) is on another basis than the largest frame over "
    "one frame time (5760 B x 200 = 1.152e6 b/s), which is the target here. Slots of type S "
    "are skipped (0 B).",
)

#: CLI preset name -> (spec, seed of the shipped trace, shipped file name)
PRESETS: dict[str, tuple[TraceSpec, int, str]] = {
    "starwars4": (STAR_WARS_IV_MPEG4_HIGH, 4, "starwars4-mpeg4-high-synthetic.txt"),
    "lecture-room": (LECTURE_ROOM_CAM_H263_VBR, 263, "lecture-room-h263-vbr-synthetic.txt"),
}


def generate(spec: TraceSpec, frames: int, seed: int) -> list[Frame]:
    """Draw ``frames`` frames of ``spec``: (number, time ms, type, size bytes).

    Method: coded frames take the GoP pattern's types in turn (a random ``skip_share`` of
    the slots after the first is skipped: size 0, type ``S``); each frame's size is a
    log-normal draw with its type's mean ratio and CoV, times its GoP's activity factor.
    Then the largest draw is set to exactly ``peak_bit_rate / frame_rate`` (in bytes) and
    all other frames are scaled by one common factor, found by bisection, so the total is
    exactly ``frames x mean_bit_rate / frame_rate`` (a scaled size is clipped to
    [min_size, largest frame]); sizes are rounded to whole bytes keeping the total. So the
    mean bit rate is exact to the byte and the peak to half a byte, while the shape (CoV,
    type ratios) is the drawn one. Deterministic for a seed (numpy ``default_rng``).
    Coded frames are >= ``min_size`` >= 1 byte.
    """
    spec.validate()
    if isinstance(frames, bool) or not isinstance(frames, (int, np.integer)) or frames < 1:
        raise ValueError(f"frames: {frames!r} must be a whole number >= 1")
    rng = np.random.default_rng(seed)
    coded = np.ones(frames, dtype=bool)
    skips = round(spec.skip_share * (frames - 1))
    if skips:
        coded[1 + rng.choice(frames - 1, size=skips, replace=False)] = False
    n_coded = int(coded.sum())
    gop_len = len(spec.gop)
    letters = np.array(list(spec.gop))[np.arange(n_coded) % gop_len]
    ratio = np.array([spec.size_ratio[t] for t in letters], dtype=float)
    cov = np.array([spec.cov[t] for t in letters], dtype=float)
    sigma = np.sqrt(np.log1p(cov**2))
    raw = ratio * np.exp(sigma * rng.standard_normal(n_coded) - sigma**2 / 2)
    if spec.gop_cov > 0:
        s = math.sqrt(math.log1p(spec.gop_cov**2))
        activity = np.exp(s * rng.standard_normal(-(-n_coded // gop_len)) - s * s / 2)
        raw *= activity[np.arange(n_coded) // gop_len]
    sizes = _fit(raw, spec, frames)
    out_sizes = np.zeros(frames, dtype=np.int64)
    out_sizes[coded] = sizes
    out_types = np.full(frames, SKIP_TYPE)
    out_types[coded] = letters
    step = 1000.0 / spec.frame_rate
    return [(i, i * step, str(out_types[i]), int(out_sizes[i])) for i in range(frames)]


def _fit(raw: np.ndarray, spec: TraceSpec, frames: int) -> np.ndarray:
    """Whole-byte sizes: the largest ``raw`` becomes the peak, the rest one scaled sum."""
    n, total = len(raw), round(frames * spec.mean_frame_bytes)
    peak, low = spec.max_frame_bytes, spec.min_size
    rest = total - peak
    if n == 1 and rest != 0 or n > 1 and not (n - 1) * low <= rest <= (n - 1) * peak:
        need = math.ceil(peak / spec.mean_frame_bytes)
        raise ValueError(
            f"frames: {frames} ({n} coded) cannot have a mean of {spec.mean_frame_bytes:.2f} "
            f"B a slot and a largest frame of {peak} B with every frame in [{low}, {peak}] "
            f"B; ask for more frames (at least about {need})"
        )
    top = int(np.argmax(raw))
    others = np.delete(raw, top)
    sizes = np.empty(n, dtype=np.int64)
    sizes[top] = peak
    if n == 1:
        return sizes
    lo, hi = low / others.max(), peak / others.min()
    for _ in range(200):  # bisection on the common factor, geometric midpoint
        mid = math.sqrt(lo * hi)
        if np.clip(mid * others, low, peak).sum() < rest:
            lo = mid
        else:
            hi = mid
        if hi / lo - 1 < 1e-13:
            break
    scaled = np.clip(hi * others, low, peak)
    whole = np.floor(scaled).astype(np.int64)
    short = rest - int(whole.sum())
    order = np.argsort(-(scaled - whole), kind="stable")  # largest remainders first
    order = order[whole[order] < peak]
    whole[order[:short]] += 1
    if int(whole.sum()) != rest:  # cannot happen for a converged bisection
        raise ArithmeticError(f"trace sizes sum to {whole.sum()}, not {rest}")
    sizes[np.arange(n) != top] = whole
    return sizes


PathLike = Union[str, Path]


def write_frames(path: PathLike, rows: Sequence[Frame], header_comment: str = "") -> None:
    """Write ``rows`` in the verbose "frames" text format: ``#`` comment lines (the
    header, then the column names), then ``number time_ms type size_bytes`` per frame."""
    lines = [f"# {line}".rstrip() for line in header_comment.splitlines()]
    lines.append(f"# {COLUMNS}")
    lines.extend(f"{n} {t:.3f} {kind} {size}" for n, t, kind, size in rows)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_frames(path: PathLike) -> list[Frame]:
    """Read a verbose frames trace: skip blank and ``#`` lines and a column-name line
    before the first frame, take the first four columns (number, time ms, type, size
    bytes) and ignore any further ones, as the simulator's trace source does."""
    rows: list[Frame] = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split()
            if not rows and not _is_number(parts[0]):
                continue  # a header such as "Frame  Time[ms]  Type  Size[byte]"
            try:
                number, time_ms, kind, size = int(parts[0]), float(parts[1]), parts[2], parts[3]
                size_value = float(size)
            except (IndexError, ValueError):
                raise ValueError(
                    f"{path}:{lineno}: {text[:60]!r} is not 'number time_ms type size_bytes' "
                    "(comment lines must start with '#')"
                ) from None
            if not (size_value >= 0 and size_value.is_integer()):
                raise ValueError(
                    f"{path}:{lineno}: frame size {size!r} must be a whole number of bytes >= 0"
                )
            rows.append((number, time_ms, kind, int(size_value)))
    return rows


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def stats(rows: Sequence[Frame], frame_rate: float) -> dict:
    """Statistics of a trace, as the trace library reports them.

    ``duration_s`` spans the first to the last frame time plus one frame time (for a
    stuffed or constant-rate trace, frames / frame_rate); ``mean_bit_rate`` is all bits
    over that; ``peak_bit_rate`` is the largest frame x 8 x frame_rate; ``cov`` is the
    population standard deviation of frame sizes over their mean.
    """
    _positive("frame_rate", frame_rate, "frames/s")
    if not rows:
        raise ValueError("rows: the trace has no frames")
    sizes = np.array([r[3] for r in rows], dtype=float)
    times = np.array([r[1] for r in rows], dtype=float)
    duration = (times.max() - times.min()) / 1000.0 + 1.0 / frame_rate
    mean = float(sizes.mean())
    counts: dict[str, int] = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    return {
        "frames": len(rows),
        "duration_s": float(duration),
        "mean_frame_bytes": mean,
        "min_frame_bytes": int(sizes.min()),
        "max_frame_bytes": int(sizes.max()),
        "mean_bit_rate": float(sizes.sum() * 8.0 / duration),
        "peak_bit_rate": float(sizes.max() * 8.0 * frame_rate),
        "peak_to_mean": float(sizes.max() / mean) if mean > 0 else math.inf,
        "cov": float(sizes.std() / mean) if mean > 0 else 0.0,
        "frame_types": dict(sorted(counts.items())),
    }


def gop_cov(rows: Sequence[Frame], gop_length: int) -> float:
    """CoV of the summed sizes of consecutive blocks of ``gop_length`` frames."""
    sizes = np.array([r[3] for r in rows], dtype=float)
    blocks = sizes[: len(sizes) // gop_length * gop_length].reshape(-1, gop_length).sum(1)
    return float(blocks.std() / blocks.mean())


def _gop_text(gop: str) -> str:
    """``gop`` as written, or ``I + 59 P`` style when it is long."""
    if len(gop) <= 16:
        return gop
    runs: list[str] = []
    for letter in gop:
        if runs and runs[-1][-1] == letter:
            runs[-1] += letter
        else:
            runs.append(letter)
    return " + ".join(run if len(run) == 1 else f"{len(run)} {run[0]}" for run in runs)


def header(spec: TraceSpec, preset: str, seed: int, rows: Sequence[Frame]) -> str:
    """The ``#`` header of a generated trace: what made it, its targets and its stats."""
    got = stats(rows, spec.frame_rate)
    paragraphs = [
        f"SYNTHETIC video frame-size trace: {spec.name}. NOT the original trace: frame sizes "
        "are drawn at random to match published statistics of the TKN (TU Berlin) / ASU "
        "video trace library.",
        f"Made by wlansim.traces.generate, seed {seed} (`wlansim trace generate --preset "
        f"{preset} --frames {got['frames']} --seed {seed}`).",
        spec.source,
        f"Spec: {spec.frame_rate:g} frames/s, GoP {_gop_text(spec.gop)}, size ratio "
        f"{dict(spec.size_ratio)}, CoV {dict(spec.cov)}, GoP activity CoV {spec.gop_cov:g}, "
        f"min {spec.min_size} B, skipped share {spec.skip_share:.4f}.",
        f"Targets: mean bit rate {spec.mean_bit_rate:.0f} b/s (mean frame "
        f"{spec.mean_frame_bytes:.2f} B), peak bit rate "
        f"{spec.max_frame_bytes * 8 * spec.frame_rate:.0f} b/s (largest frame "
        f"{spec.max_frame_bytes} B).",
        f"Measured: mean bit rate {got['mean_bit_rate']:.0f} b/s (mean frame "
        f"{got['mean_frame_bytes']:.2f} B), peak bit rate {got['peak_bit_rate']:.0f} b/s "
        f"(largest frame {got['max_frame_bytes']} B), peak/mean {got['peak_to_mean']:.2f}, "
        f"CoV {got['cov']:.3f}, min frame {got['min_frame_bytes']} B, {got['frames']} "
        f"frames, {got['duration_s']:g} s.",
        "To use the real trace instead, put the library's verbose frames trace in its place "
        "(same format: number time_ms type size_bytes; '#' lines are comments, extra "
        "columns are ignored).",
    ]
    return "\n".join(line for text in paragraphs if text for line in textwrap.wrap(text, 88))
