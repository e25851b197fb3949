"""The studies: one module per paper (``wlansim reproduce NAME``), each declaring its
claims and open parameters as data (:mod:`wlansim.evidence.study` runs them); the five
reproductions and ``pilosof2003_11ac``, an extension (pilosof2003's statements asked of an
802.11ac cell with A-MPDU).

A study's module is imported when it is used (it needs pandas and matplotlib).
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType
    from typing import Any

#: the studies, by the name the command line takes (the extension last)
NAMES = (
    "fotiadis2005",
    "janevski2009",
    "miorandi2004",
    "ng2005",
    "pilosof2003",
    "pilosof2003_11ac",
)
#: where a study stores its campaigns, under its output directory
CAMPAIGNS_DIR = "campaigns"
#: `wlansim reproduce --profile`: the rules a study's scenarios run under
PROFILES = ("standard", "ns2")


def study(name: str) -> ModuleType:
    """The module of study ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise KeyError(f"unknown study {name!r}; known: {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}")


def __getattr__(name: str) -> Any:
    if name in NAMES:
        return study(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
