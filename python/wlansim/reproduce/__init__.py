"""Paper reproductions: one module per study, each with ``reproduce(out, quick, jobs)``
writing CSVs, PNG figures and a Markdown report that sets the paper's values beside ours."""

from . import ng2005, pilosof2003

STUDIES = {"ng2005": ng2005, "pilosof2003": pilosof2003}

__all__ = ["STUDIES", "ng2005", "pilosof2003"]
