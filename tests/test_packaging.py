"""The files of a project and the wheel (issue 39, item 3): one version number for the
crate, the package and `--version`; LICENSE, CITATION.cff, CHANGELOG.md, CONTRIBUTING.md;
and the wheel `make wheel` builds, installed into a fresh virtual environment outside
the checkout, where `wlansim --version` and `wlansim run` of a shipped scenario work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import wlansim
from wlansim import examples

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
WHEELS = ROOT / "target" / "wheels"


def cargo_version() -> str:
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]


def test_one_version_for_crate_package_cli_and_citation():
    version = cargo_version()
    assert wlansim.__version__ == version
    out = subprocess.run(
        [sys.executable, "-m", "wlansim", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"wlansim {version}"
    import yaml

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == version
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{version}]" in changelog
    # pyproject takes the version from the crate (maturin), and says so
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dynamic"] == ["version"] and "version" not in project


def test_project_files_and_metadata():
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License")
    assert (
        tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["license"] == "MIT"
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert "cluster" in project["optional-dependencies"]
    import yaml

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "MIT"
    # how to cite each of the five studies: one reference each, named by its short name
    # (an extension asks a cited paper's statements of another setup: nothing new to cite)
    from wlansim.evidence.study import NAMES, study

    cited = {r["notes"].split()[-1]: r for r in citation["references"]}
    assert set(cited) == {n for n in NAMES if getattr(study(n), "SUBJECT", "paper") == "paper"}
    for ref in cited.values():
        assert ref["title"] and ref["authors"] and ref["year"]
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    for check in ("make test", "make lint", "make docs", "ARCHITECTURE.md"):
        assert check in contributing


def test_examples_are_package_data():
    assert examples.DIR.parent == Path(wlansim.__file__).resolve().parent
    assert {"saturated-11b", "janevski2009-home", "http-onoff"} <= set(examples.names())
    # in a checkout, scenarios/ is the same directory
    assert (ROOT / "scenarios").resolve() == examples.DIR
    with pytest.raises(wlansim.ScenarioError, match="no example scenario 'nope'"):
        examples.path("nope")


def test_examples_copy_keeps_the_traces_they_read(tmp_path):
    written = examples.copy(tmp_path / "mine")
    names = {p.relative_to(tmp_path / "mine").as_posix() for p in written}
    assert "saturated-11b.toml" in names and any(n.startswith("traces/") for n in names)
    assert examples.copy(tmp_path / "mine") == []  # existing files are kept


def built_wheel() -> Path:
    version = cargo_version()
    found = sorted(WHEELS.glob(f"wlansim-{version}-*.whl"), key=lambda p: p.stat().st_mtime)
    if not found:
        pytest.skip(f"no wheel of wlansim {version} in {WHEELS}: `make wheel` builds it")
    return found[-1]


def test_the_wheel_is_abi3_and_holds_the_package_data():
    wheel = built_wheel()
    assert "-cp39-abi3-" in wheel.name, wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "wlansim/scenarios/saturated-11b.toml" in names
    assert "wlansim/scenarios/janevski2009-home.toml" in names
    assert any(n.startswith("wlansim/scenarios/traces/") for n in names)
    assert any(n.startswith("wlansim/_core") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert f"Version: {cargo_version()}" in text
    assert "License: MIT" in text and "Provides-Extra: cluster" in text


def test_the_wheel_installs_into_a_fresh_venv_and_runs_outside_the_checkout(tmp_path):
    wheel = built_wheel()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # --no-compile: the .pyc files of numpy, pandas, scipy... are written on first import
    # (measured: 63 s wall, 14 s CPU instead of 199 s, 46 s CPU under a load of 13-15)
    pip = [str(py), "-m", "pip", "install", "--quiet", "--no-compile"]
    pip += ["--disable-pip-version-check", str(wheel)]
    subprocess.run(pip, check=True, env=env, cwd=tmp_path, timeout=900)
    cli = venv / "bin" / "wlansim"

    def run(*args: str) -> str:
        out = subprocess.run(
            [str(cli), *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert run("--version").strip() == f"wlansim {cargo_version()}"
    where = subprocess.run(
        [str(py), "-c", "import wlansim; print(wlansim.__file__)"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=True,
    ).stdout  # fmt: skip
    assert str(venv) in where and str(ROOT) not in where
    result = json.loads(run("run", "--example", "saturated-11b", "--set", "duration=2 s", "--json"))
    assert result["metrics"]["throughput_bps"] > 1e6
    assert "saturated-11b" in run("examples")
