"""`wlansim trace ...`: synthetic video frame-size traces.

wlansim trace generate --preset starwars4|lecture-room [--frames N] [--seed S] --out FILE
wlansim trace stats FILE [--frame-rate 25] [--json]
"""

from __future__ import annotations

from wlansim.errors import ScenarioError

from .flags import add_seed
from .output import json_dumps

PRESET_NAMES = ("starwars4", "lecture-room")
DEFAULT_FRAMES = 3000
MAX_FRAMES = 10_000_000


def register(subparsers) -> None:
    """Add the ``trace`` sub-command and its ``generate`` and ``stats`` sub-commands."""
    parser = subparsers.add_parser("trace", help="generate or measure a video frame-size trace")
    which = parser.add_subparsers(dest="trace", required=True, metavar="ACTION")
    gen = which.add_parser(
        "generate",
        help="write a synthetic trace matching a published video trace's statistics",
        description="Draw a synthetic video frame-size trace (verbose frames format: "
        "number time_ms type size_bytes) whose mean and peak bit rate match the published "
        "statistics of a TKN/ASU trace: starwars4 (MPEG-4 Star Wars IV, high quality) or "
        "lecture-room (H.263 Lecture Room Cam, VBR, stuffed).",
    )
    gen.add_argument("--preset", required=True, choices=PRESET_NAMES)
    gen.add_argument(
        "--frames",
        type=int,
        default=DEFAULT_FRAMES,
        help="number of frames (default: %(default)s, 120 s at 25 frames/s)",
    )
    add_seed(gen, "random seed (default: the shipped trace's)")
    gen.add_argument("--out", required=True, metavar="FILE", help="trace file to write")
    gen.set_defaults(func=run_generate)
    st = which.add_parser(
        "stats",
        help="statistics of a frames trace (synthetic or the library's verbose trace)",
        description="Frames, duration, mean and largest frame, mean and peak bit rate "
        "(largest frame over one frame time) and CoV of frame sizes of a verbose trace.",
    )
    st.add_argument("file", metavar="FILE", help="trace: number time_ms type size_bytes")
    st.add_argument(
        "--frame-rate",
        type=float,
        default=25.0,
        help="frames/s, for the peak bit rate and the last frame's time (default: %(default)s)",
    )
    st.add_argument("--json", action="store_true", help="print one JSON document")
    st.set_defaults(func=run_stats)


#: The name the task brief gave this function; the package's modules call it `register`.
add_parser = register


def run_generate(args) -> int:
    """Generate a preset's trace and write it with its ``#`` header."""
    from pathlib import Path

    from wlansim import traces

    spec, shipped_seed, _ = traces.PRESETS[args.preset]
    seed = shipped_seed if args.seed is None else args.seed
    if not 1 <= args.frames <= MAX_FRAMES:
        raise ScenarioError(f"--frames: {args.frames} must be in 1..{MAX_FRAMES}")
    if seed < 0:
        raise ScenarioError(f"--seed: {seed} must be >= 0")
    try:
        rows = traces.generate(spec, args.frames, seed)
    except ValueError as exc:
        raise ScenarioError(f"trace generate: {exc}") from exc
    out = Path(args.out)
    if out.parent != Path():
        out.parent.mkdir(parents=True, exist_ok=True)
    traces.write_frames(out, rows, traces.header(spec, args.preset, seed, rows))
    got = traces.stats(rows, spec.frame_rate)
    print(
        f"wrote {out}: {got['frames']} frames, mean {got['mean_bit_rate']:.0f} b/s, "
        f"peak {got['peak_bit_rate']:.0f} b/s, CoV {got['cov']:.2f} (seed {seed})"
    )
    return 0


def run_stats(args) -> int:
    """Print the statistics of a frames trace, as a table or JSON."""
    from wlansim import traces

    try:
        rows = traces.read_frames(args.file)
        got = traces.stats(rows, args.frame_rate)
    except ValueError as exc:
        raise ScenarioError(f"trace stats: {exc}") from exc
    if args.json:
        print(json_dumps({"file": str(args.file), "frame_rate": args.frame_rate, **got}, indent=2))
        return 0
    types = ", ".join(f"{kind} {n}" for kind, n in got["frame_types"].items())
    table = [
        ("frames", f"{got['frames']}  ({types})"),
        ("duration", f"{got['duration_s']:.3f} s"),
        ("mean frame", f"{got['mean_frame_bytes']:.2f} B"),
        ("min frame", f"{got['min_frame_bytes']} B"),
        ("max frame", f"{got['max_frame_bytes']} B"),
        ("mean bit rate", f"{got['mean_bit_rate']:.0f} b/s"),
        ("peak bit rate", f"{got['peak_bit_rate']:.0f} b/s"),
        ("peak/mean", f"{got['peak_to_mean']:.2f}"),
        ("CoV of frame size", f"{got['cov']:.3f}"),
    ]
    print(f"{args.file} at {args.frame_rate:g} frames/s")
    for name, value in table:
        print(f"  {name:<18} {value}")
    return 0
