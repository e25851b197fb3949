"""wlansim: fast, validated simulation and modelling of TCP/UDP over IEEE 802.11 WLANs.

    >>> import wlansim
    >>> r = wlansim.run("scenarios/saturated-11b.toml", seed=1)
    >>> r.flows[["name", "throughput_bps"]]

`wlansim.models` holds the analytical models (Bianchi, miorandi2004, Padhye, M/M/1/K,
pilosof2003, Jain's index); it does not need the compiled core.
"""

from wlansim.api import run
from wlansim.errors import ScenarioError, SimulationError, WlansimError
from wlansim.results import Results

__version__ = "0.1.0"
__all__ = ["run", "Results", "ScenarioError", "SimulationError", "WlansimError", "__version__"]
