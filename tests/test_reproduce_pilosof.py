"""`wlansim reproduce pilosof2003 --quick`: files written and the paper's qualitative claims."""

import pandas as pd

from wlansim.cli import main


def test_quick_reproduction_writes_report_and_shows_the_regions(tmp_path, capsys):
    assert main(["reproduce", "pilosof2003", "--quick", "--out", str(tmp_path), "--jobs", "1"]) == 0
    assert "written:" in capsys.readouterr().out
    report = (tmp_path / "report.md").read_text()
    assert "| Fig 2, 6 < B ≤ 42 | 9–12 |" in report
    for name in ("fig2_ratio_vs_buffer.png", "fig8_model.png", "fig11_clamp.png", "fig7.csv"):
        assert (tmp_path / name).stat().st_size > 0
    b = pd.read_csv(tmp_path / "fig2-5.csv").set_index("B")
    assert 0.8 <= b.loc[84, "up_down_ratio"] <= 1.25
    assert (b.loc[10:40, "up_down_ratio"] >= 5).all()
    clamp = pd.read_csv(tmp_path / "fig11.csv")
    assert clamp["up_down_ratio"].between(0.8, 1.25).all()
    plain = pd.read_csv(tmp_path / "fig7.csv").set_index("n")
    assert plain.loc[4, "up_down_ratio"] >= 5
