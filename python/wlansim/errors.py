"""Exceptions raised by wlansim. The CLI prints their message and exits non-zero."""


class WlansimError(Exception):
    """Base class of every error wlansim raises on purpose."""


class ScenarioError(WlansimError, ValueError):
    """A scenario value is missing, unknown, of the wrong type or out of range.

    The message names the key path, the value and what is allowed.
    """


class SimulationError(WlansimError, RuntimeError):
    """The simulator stopped: an internal invariant (e.g. packet accounting) failed."""
