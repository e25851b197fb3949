"""The M/M/1/K queue: Poisson arrivals, exponential service, one server, at most K
customers in the system (including the one in service); arrivals finding K are lost.

With offered load rho = lambda / mu, the stationary distribution is truncated geometric
(Kleinrock, Queueing Systems vol. 1, sec. 3.6; pilosof2003 eq. 1):

    p_k = (1 - rho) rho^k / (1 - rho^(K+1))   (rho != 1),   p_k = 1 / (K + 1)   (rho = 1),

for k = 0..K. By PASTA the blocking probability is p_K, and the mean occupancy is
rho/(1-rho) - (K+1) rho^(K+1) / (1 - rho^(K+1)) (rho != 1) or K/2 (rho = 1).

The functions normalise rho^k numerically, which gives both cases without cancellation
near rho = 1 and without overflow for large rho or K.
"""

from __future__ import annotations

import numpy as np

from . import _checks


def occupancy_distribution(rho: float, K: int) -> np.ndarray:
    """Stationary probabilities ``[p_0, ..., p_K]`` of the number in an M/M/1/K system with
    offered load ``rho`` (>= 0, dimensionless) and capacity ``K`` (>= 1 customers)."""
    rho = _checks.real("rho", rho, minimum=0.0)
    K = _checks.integer("K", K, minimum=1)
    k = np.arange(K + 1, dtype=float)
    if rho == 0.0:
        return (k == 0).astype(float)
    # Scale by rho^-K when rho > 1 so the largest term is 1.
    log_weights = k * np.log(rho) - (K * np.log(rho) if rho > 1.0 else 0.0)
    weights = np.exp(log_weights)
    return weights / weights.sum()


def blocking_probability(rho: float, K: int) -> float:
    """Probability p_K that an arrival finds the M/M/1/K system full and is lost."""
    return float(occupancy_distribution(rho, K)[-1])


def mean_occupancy(rho: float, K: int) -> float:
    """Mean number of customers in the M/M/1/K system (in queue plus in service)."""
    distribution = occupancy_distribution(rho, K)
    return float(np.dot(np.arange(distribution.size), distribution))
