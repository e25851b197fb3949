# The two commands of the README: `make demo` and `make test`. Both work on a fresh machine:
# they create a local virtual environment, install the Python requirements declared in
# pyproject.toml, build the Rust extension in release mode with maturin, then run.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEPS := $(VENV)/.deps-installed
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(VENV))/bin:$(PATH)

.PHONY: demo test build wheel docs lint rust-test py-test bench clean tshark ns2 ns3 \
	emulation-tools chromium

demo: build
	$(PY) -m wlansim validate bianchi --out out/demo

test: build wheel lint rust-test docs tshark ns2 ns3 emulation-tools chromium py-test

$(DEPS): pyproject.toml scripts/pydeps.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "tomli>=2; python_version < '3.11'"
	$(PY) scripts/pydeps.py dev cluster docs > $(VENV)/requirements.txt
	$(PY) -m pip install --quiet -r $(VENV)/requirements.txt
	touch $@

# maturin's own --quiet leaves pip's report of every requirement: keep its output for errors
build: $(DEPS)
	@echo "$(VENV)/bin/maturin develop --release --quiet"
	@$(VENV)/bin/maturin develop --release --quiet > $(VENV)/maturin.log 2>&1 \
		|| { cat $(VENV)/maturin.log; exit 1; }

# The wheel (abi3: one for every CPython >= 3.9) from the release build `build` made: the
# same cargo profile and features, so maturin reuses its artifacts (tests/test_packaging.py
# installs the wheel into a fresh virtual environment). --strip: the library without its
# debug sections (5.9 -> 1.8 MB of wheel; the checkout's own build keeps them for
# profiles), which relinks the extension alone (about 30 s).
WHEELS := target/wheels
wheel: build
	@rm -f $(WHEELS)/wlansim-*.whl
	@echo "$(VENV)/bin/maturin build --release --strip --quiet --out $(WHEELS)"
	@$(VENV)/bin/maturin build --release --strip --quiet --out $(WHEELS) > $(VENV)/maturin-wheel.log 2>&1 \
		|| { cat $(VENV)/maturin-wheel.log; exit 1; }

# The documentation site (MkDocs + Material, mkdocs.yml) into out/site, warnings as errors;
# the API reference reads the package's docstrings (mkdocstrings), so it needs the build.
docs: build
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

lint: $(DEPS)
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --release -- -D warnings
	$(VENV)/bin/ruff check python tests scripts benches
	$(VENV)/bin/ruff format --check python tests scripts benches

rust-test:
	cargo test --release -p wlansim-core

# The capture tests read wlansim's pcap files with tshark: installed from the distribution's
# packages when missing (as root, or with sudo); if that is impossible the tests say why
# they skip.
tshark:
	@command -v tshark >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tshark >/dev/null; } \
		|| echo "tshark could not be installed: the capture tests will be skipped"

# ns-2.35 (Debian package `ns2`), to compare wlansim's `profile = "ns2"` with the
# simulator of the seed studies; installed like tshark.
ns2:
	@command -v ns >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ns2 >/dev/null; } \
		|| echo "ns-2 could not be installed: the ns-2 comparison tests will be skipped"

# ns-3.37 (Debian's libns3-dev, with libgsl-dev, which its pkg-config files need, g++ and
# pkg-config), to compare wlansim with ns-3 (`wlansim validate ns3`); installed like
# tshark. Its test compiles the cell once (measured: 12.9 s of CPU; cached by the source's
# hash, docs/validation-ns3.md) and runs `validate ns3 --quick` (measured: 31.8 s of CPU).
ns3:
	@{ command -v g++ >/dev/null && pkg-config --exists ns3-wifi 2>/dev/null; } || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ pkg-config \
			libns3-dev libgsl-dev >/dev/null; } \
		|| echo "ns-3 could not be installed: the ns-3 comparison test will be skipped"

# The emulation's tests run `ping` in network namespaces (as root); iperf3 is what the
# README's emulation examples run. Installed like tshark; without them those tests skip.
emulation-tools:
	@{ command -v ping >/dev/null && command -v iperf3 >/dev/null; } || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iputils-ping iperf3 >/dev/null; } \
		|| echo "ping/iperf3 could not be installed: the emulation's ping tests will be skipped"

# Headless Chromium (Debian package `chromium`) loads the built site in
# tests/test_docs_site.py; installed like tshark, and the test skips where it cannot be.
chromium:
	@{ command -v chromium >/dev/null || command -v chromium-browser >/dev/null; } || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
		|| echo "chromium could not be installed: the browser check of the docs will be skipped"

py-test: build
	$(PY) -m pytest -q

bench: build
	$(PY) -m wlansim bench

clean:
	rm -rf $(VENV) target out
