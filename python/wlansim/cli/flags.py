"""The command line's vocabulary, one rule each: every duration, rate, size and power
flag reads its value with the scenario's unit parser (:mod:`wlansim.units`: ``"10 s"``,
``"1 Mb/s"``, ``"1500 B"``, ``"-82 dBm"`` or ``"1e-10 W"``); replications are ``--reps N``
and the base seed ``--seed S`` in every command; a flag that takes a list takes a comma
list (and may be repeated). `tests/test_cli_vocabulary.py` walks every parser to check it,
and `docs/cli.md` lists every flag with the unit handling this module gives it."""

from __future__ import annotations

import argparse

from wlansim import units
from wlansim.errors import ScenarioError


class Quantity:
    """An argparse ``type``: a value of one kind of quantity, in the unit
    :data:`wlansim.units.KINDS` gives it (a size in bytes, a power in watts)."""

    def __init__(self, kind: str):
        if kind not in units.KINDS:
            raise ValueError(f"unknown kind of quantity {kind!r}")
        self.kind = kind
        self.__name__ = kind  # argparse names the type in its errors

    def __call__(self, text: str) -> float:
        try:
            return units.parse(self.kind, text)
        except ScenarioError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    def __repr__(self) -> str:
        return f"Quantity({self.kind!r})"


DURATION = Quantity("duration")
RATE = Quantity("rate")
SIZE = Quantity("size")
POWER = Quantity("power")


def comma_list(values: list[str] | None) -> list[str] | None:
    """The items of a repeatable flag whose every occurrence may be a comma list
    (``--metric a,b --metric c`` → ``[a, b, c]``); None when the flag was not given."""
    if values is None:
        return None
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def add_reps(parser: argparse.ArgumentParser, help: str, default: int | None = 1) -> None:
    """``--reps N``: the replications of every command that runs several (one name)."""
    parser.add_argument("--reps", type=int, default=default, metavar="N", help=help)


def add_seed(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed S``: the (base) seed of every command that draws random numbers."""
    parser.add_argument("--seed", type=int, default=None, metavar="S", help=help)
