"""The documentation site (issue 39, items 1 and 2): the README is a front door of at most
300 lines; every page of docs/ is in the site's navigation; the built site, loaded in a
real browser (headless Chromium), shows its index and a reference page."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "out" / "site"


def test_the_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 300
    for heading in (
        "## The five studies",
        "## Install",
        "## The two commands",
        "## A first scenario",
        "## Documentation",
    ):
        assert heading in text, heading  # fmt: skip
    for name in ("pilosof2003", "miorandi2004", "ng2005", "fotiadis2005", "janevski2009"):
        assert f"`{name}`" in text
    # every page it links to exists
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_every_page_is_in_the_navigation():
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())

    def pages(nav):
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from pages(value)
            else:
                yield value

    listed = set(pages(config["nav"]))
    docs = ROOT / "docs"
    written = {
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.md")
        if p.parts[len(docs.parts)] not in ("reference", "reproductions")
    }
    assert written <= listed, written - listed
    assert {p for p in listed if not (docs / p).is_file()} == set()


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium here (`make test` installs the Debian package `chromium`)")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site `make docs` built (out/site), or one built here when there is none."""
    if (SITE / "index.html").is_file():
        return SITE
    mkdocs = Path(sys.executable).parent / "mkdocs"
    if not mkdocs.exists():
        pytest.skip("no built site and no mkdocs (`make docs` builds it)")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([str(mkdocs), "build", "--strict", "--quiet", "-d", str(out)],
                   cwd=ROOT, env=env, check=True, timeout=600)  # fmt: skip
    return out


def browse(page: Path, tmp_path: Path) -> tuple[str, Path]:
    """The DOM headless Chromium builds for `page` (scripts run), and a screenshot."""
    shot = tmp_path / f"{page.parent.name or 'index'}.png"
    common = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,900"]  # fmt: skip
    url = page.as_uri()
    dom = subprocess.run([*common, "--dump-dom", url], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    subprocess.run([*common, f"--screenshot={shot}", url], capture_output=True, timeout=120)
    return dom.stdout, shot


def assert_painted(png: Path) -> None:
    """A screenshot that shows something: a PNG whose pixels are not all one colour."""
    import matplotlib.image

    img = matplotlib.image.imread(png)
    assert img.shape[0] >= 800 and img.shape[1] >= 1200
    assert img.reshape(-1, img.shape[-1]).std(axis=0).max() > 0.05


def test_chromium_shows_the_index(site, tmp_path):
    dom, shot = browse(site / "index.html", tmp_path)
    assert "<title>wlansim</title>" in dom
    # the Material theme's navigation, rendered: every section of the site
    for entry in ("Tutorial", "User guide", "How-to", "Reference", "Evidence"):
        assert f">{entry}<" in dom or f"> {entry} <" in dom or entry in dom, entry
    assert "Start here" in dom and 'href="tutorial/' in dom
    assert_painted(shot)


def test_chromium_shows_the_scenario_reference_with_its_defaults(site, tmp_path):
    dom, shot = browse(site / "scenario" / "index.html", tmp_path)
    assert "Scenario reference" in dom
    row = re.search(r"<tr>\s*<td><code>tcp\.mss</code></td>.*?</tr>", dom, re.S)
    assert row, "the tcp.mss row"
    assert "1460 B" in row.group(0) and "1000 B" in row.group(0)
    assert_painted(shot)
