"""Writing, running and reading ns-2.35 scripts: the simulator of four of the five
studies, run beside wlansim."""
