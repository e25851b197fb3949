"""One CLI vocabulary (issue 39, item 4): the test walks every sub-command's parser and
checks that each duration, rate, size and power flag reads its value with the scenario's
unit parser, that replications and seeds have one name each, that the flag table in the
docs is current, and that list flags take comma lists."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from wlansim.cli import main, reference
from wlansim.cli.flags import Quantity

ROOT = Path(__file__).resolve().parents[1]

#: words in a flag's name that say which quantity it takes
KIND_WORDS = {
    "duration": ("duration", "timeout", "warmup", "interval", "delay"),
    "rate": ("rate",),
    "size": ("payload", "psdu", "size", "snaplen"),
    "power": ("power", "noise", "threshold"),
}
#: numbers whose unit is in their name, as the scenario keys they mirror
#: (`[channel.propagation] frequency_mhz`...), and a frame rate in frames/s
UNIT_IN_NAME = {"frequency_mhz", "reference_distance_m", "path_loss_exponent", "sigma_db",
                "frame_rate", "confidence"}  # fmt: skip
#: the one name of replications and of the base seed, and names that must not come back
REPS, SEED = "--reps", "--seed"
RETIRED = {"--repetitions", "--repeat", "--seeds", "--seed-base", "--replications"}


def every_flag():
    for path, parser in reference.commands():
        for action in reference.flags(parser):
            if action.option_strings:
                yield " ".join(path), action


def expected_kind(action: argparse.Action) -> str | None:
    dest = action.dest
    if dest in UNIT_IN_NAME:
        return None
    for kind, words in KIND_WORDS.items():
        if any(w in dest for w in words):
            return kind
    return None


def test_every_quantity_flag_goes_through_the_unit_parser():
    checked = set()
    for command, action in every_flag():
        kind = expected_kind(action)
        if kind is not None and action.nargs != 0:
            assert isinstance(action.type, Quantity), (command, action.option_strings)
            assert action.type.kind == kind, (command, action.option_strings)
            checked.add(f"{command} {action.option_strings[0]}")
        if action.type is float:  # a bare number: only where the name says its unit
            assert action.dest in UNIT_IN_NAME, (command, action.option_strings)
    # the walk reached every subcommand's quantity flags
    assert {
        "wlansim sweep --run-timeout",
        "wlansim model bianchi --rate",
        "wlansim model bianchi --payload",
        "wlansim model capture --power",
        "wlansim model capture --noise",
        "wlansim model shadowing --tx-power",
        "wlansim model shadowing --rx-threshold",
        "wlansim model error-rate --psdu",
    } <= checked


def test_one_name_for_replications_and_seeds():
    names = {opt for _, action in every_flag() for opt in action.option_strings}
    assert not names & RETIRED, names & RETIRED
    for command, action in every_flag():
        opts = set(action.option_strings)
        if opts & {REPS, SEED}:  # its dest may be the Python API's name (seeds, seed_base)
            assert len(opts) == 1, command
            assert action.type is int and action.metavar == ("N" if REPS in opts else "S")
    commands = {c for c, a in every_flag() if REPS in a.option_strings}
    assert {"wlansim sweep", "wlansim emulate", "wlansim bench", "wlansim validate bianchi",
            "wlansim validate ns2", "wlansim validate hidden"} <= commands  # fmt: skip
    seeded = {c for c, a in every_flag() if SEED in a.option_strings}
    assert {"wlansim reproduce", "wlansim validate bianchi"} <= seeded


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["sweep", "x.toml", "--run-timeout", "30"], ["--run-timeout", "no valid unit"]),
        (["model", "bianchi", "--stations", "5", "--rate", "11"], ["--rate", "Mb/s"]),
        (["model", "capture", "--stations", "5", "--power", "-60"], ["--power", "dBm"]),
        (["model", "error-rate", "--psdu", "big"], ["--psdu", "is not a size"]),
    ],
)
def test_a_quantity_without_its_unit_gets_the_scenario_message(argv, words, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err


def test_the_flag_table_in_the_docs_is_current_and_complete():
    committed = (ROOT / "docs" / "cli-units.md").read_text()
    assert committed == reference.units_table(), (
        "docs/cli-units.md is stale: wlansim schema --cli-units --out docs/cli-units.md"
    )
    assert (ROOT / "docs" / "cli.md").read_text() == reference.markdown(), (
        "docs/cli.md is stale: wlansim schema --cli --out docs/cli.md"
    )
    rows = [line for line in committed.splitlines() if line.startswith("| `wlansim")]
    total = sum(
        1 for _, parser in reference.commands() for a in reference.flags(parser) if a.option_strings
    )
    assert len(rows) == total
    assert re.search(r"\| `wlansim sweep` \| `--run-timeout` \| duration, in s", committed)


def test_list_flags_take_comma_lists(tmp_path, capsys):
    from test_campaign import BASE, fake_load, fake_resolve, fake_run

    from wlansim.campaign import Campaign, Space

    Campaign(
        BASE, Space.grid({"stations.sta.count": [1, 2]}), reps=2, store=tmp_path / "s",
        run_fn=fake_run, load_fn=fake_load, resolve_fn=fake_resolve, version="test",
    ).run(jobs=1, progress=False)  # fmt: skip
    capsys.readouterr()
    assert main(["results", str(tmp_path / "s"), "--metric", "throughput_bps,collision_probability",
                 "--json"]) == 0  # fmt: skip
    import json

    rows = json.loads(capsys.readouterr().out)["summary"]
    assert {r["metric"] for r in rows} == {"throughput_bps", "collision_probability"}
