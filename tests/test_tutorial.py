"""Every command of the tutorial (docs/tutorial.md) runs, in order, in a fresh directory:
the files it asks to save (a ``<!-- file: NAME -->`` line before a block) are written,
each line of a ``sh`` block is run as a shell command and must succeed, and each
``python`` block is run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"(?:<!-- file: (?P<file>\S+) -->\n)?```(?P<lang>\w+)\n(?P<body>.*?)```", re.S)


def steps() -> list[tuple[str, str, str | None]]:
    """(language, body, file name) of each fenced block, in order."""
    text = TUTORIAL.read_text()
    return [(m["lang"], m["body"], m["file"]) for m in BLOCK.finditer(text)]


def test_the_tutorial_has_every_step_of_the_issue():
    commands = " ".join(body for lang, body, _ in steps() if lang == "sh")
    for step in (
        "wlansim run",
        "wlansim sweep",
        "--reps",
        "wlansim results",
        "wlansim plot",
        "--pcap",
        "tshark",
        "wlansim reproduce",
    ):
        assert step in commands, step  # fmt: skip
    assert any(name for _, _, name in steps())  # the reader's own scenario file


def test_every_command_of_the_tutorial_runs(tmp_path):
    # `wlansim` is this interpreter's, run from a fresh directory outside the checkout
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "wlansim"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m wlansim "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    work = tmp_path / "work"
    work.mkdir()
    ran = 0
    for lang, body, name in steps():
        if name is not None:
            (work / name).write_text(body)
        elif lang == "sh":
            for line in body.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if line.startswith("tshark") and shutil.which("tshark") is None:
                    continue  # `make test` installs tshark; elsewhere this line cannot run
                out = subprocess.run(
                    ["bash", "-c", line], cwd=work, env=env, capture_output=True, text=True,
                    timeout=600,
                )  # fmt: skip
                assert out.returncode == 0, (line, out.stdout[-2000:], out.stderr[-2000:])
                ran += 1
        elif lang == "python":
            out = subprocess.run(
                [sys.executable, "-c", body], cwd=work, env=env, capture_output=True, text=True,
                timeout=600,
            )  # fmt: skip
            assert out.returncode == 0, (body, out.stderr[-2000:])
            ran += 1
    assert ran >= 15
    # what the steps promise to leave behind
    assert (work / "cell.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (work / "out" / "pilosof" / "report.md").is_file()
    assert (work / "out" / "pcap" / "ap.pcap").is_file()


def test_blocks_are_of_kinds_the_test_runs_or_writes():
    assert {lang for lang, _, name in steps() if name is None} <= {"sh", "python"}
