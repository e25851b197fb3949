"""docs/validation-ns3.md's standing tables are what the committed pack of ns-3.37's runs
and this build's wlansim give (`python scripts/ns3_tables.py` writes them). wlansim's side
of every case (6 seeds of the single-MPDU cases, 30 of the A-MPDU ones, 40 of the TCP ones
but 300 of 802.11n k = 1 and 2, 60 of the rate ladder's): about 4 minutes of CPU; nothing
runs in ns-3 (`--from-pack`)."""

from __future__ import annotations

from pathlib import Path

from wlansim.evidence.ns3 import tables
from wlansim.evidence.validation import validate
from wlansim.evidence.validations import ns3

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_tables_are_the_packs_and_this_builds(tmp_path, monkeypatch):
    monkeypatch.setenv("WLANSIM_CACHE", str(tmp_path / "cache"))  # only the pack's runs
    result = validate("ns3", tmp_path / "out", reps=ns3.REPS, duration=ns3.DURATION_S, jobs=1,
                      from_pack=True)  # fmt: skip
    committed = tables.committed(ROOT / tables.DOC)
    assert set(committed) == set(tables.NAMES)
    made = tables.markdown(result.tables, result.verdicts)
    for name in tables.NAMES:
        assert committed[name] == made[name], f"{name}: python scripts/ns3_tables.py"


def test_the_tables_go_between_their_markers(tmp_path):
    import pandas as pd

    doc = tmp_path / "page.md"
    doc.write_text("".join(f"x\n<!-- ns3-table {n} begin -->\nold\n<!-- ns3-table {n} end -->\n"
                           for n in tables.NAMES) + "end\n")  # fmt: skip
    empty = {"udp": pd.DataFrame(), "udp-standard": pd.DataFrame(), "tcp": pd.DataFrame(),
             "rate": pd.DataFrame(),
             "build": pd.DataFrame([{"binary_key": "k"}]),
             "left-out": pd.DataFrame({"cell": ["802.11b 11 Mb/s n=1 basic"]})}  # fmt: skip
    assert tables.write(doc, empty) == list(tables.NAMES)
    assert tables.write(doc, empty) == []
    assert tables.committed(doc)["verdicts"][2] == "(no case)"
    assert tables.committed(doc)["udp"] == [
        "<!-- ns-3.37's runs: the pack's, of cell k -->", "", "(no case)", "",
        "Not in the pack yet, left out (1): 802.11b 11 Mb/s n=1 basic."]  # fmt: skip
    assert doc.read_text().endswith("end\n")
