"""Paper reproductions: one module per study, each with ``reproduce(out, quick)`` writing
CSVs, PNG figures and a Markdown report that sets the paper's values beside ours."""

from . import pilosof2003

STUDIES = {"pilosof2003": pilosof2003}

__all__ = ["STUDIES", "pilosof2003"]
