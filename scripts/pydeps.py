"""Print the Python requirements declared in pyproject.toml, one per line.

The Makefile installs these into the project's virtual environment before maturin builds
the extension, so the dependency list lives in one place (pyproject.toml).
Usage: python scripts/pydeps.py [EXTRA ...]
"""

import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11: the Makefile installs tomli first
    import tomli as tomllib

project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
requirements = list(project["dependencies"])
for extra in sys.argv[1:]:
    requirements += project["optional-dependencies"][extra]
print("\n".join(requirements))
