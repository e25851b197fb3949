"""`wlansim reproduce pilosof2003 --quick`: files written and the paper's qualitative claims."""

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from wlansim.cli import main


def test_quick_reproduction_writes_report_and_shows_the_regions(tmp_path, capsys, monkeypatch):
    legends = {}
    savefig = Figure.savefig

    def recording_savefig(fig, path, *args, **kwargs):
        legends[Path(path).name] = [
            t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().texts
        ]
        return savefig(fig, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", recording_savefig)
    assert main(["reproduce", "pilosof2003", "--quick", "--out", str(tmp_path), "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "written:" in captured.out
    # a progress bar per campaign on stderr, and the campaigns where the help says
    assert "pilosof2003 fig2-5 runs" in captured.err
    assert (tmp_path / "campaigns" / "fig2-5" / "campaign.sqlite").is_file()
    # the dashed total line of Fig 2 (on the twin axis) has its legend entry
    assert "total goodput (right axis)" in legends["fig2_ratio_vs_buffer.png"]
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
    # Fig 2 again under profile = "ns2" (ns-2's MAC and TCP rules): the report
    # compares both with the paper's 9-12; in the quick run the ns2 profile's mean ratio
    # for 6 < B <= 42 lies inside that band and the standard's above it.
    assert "## Profiles" in report and "Profile: `standard`" in report
    ns2 = pd.read_csv(tmp_path / "fig2-other.csv").set_index("B")
    assert 0.8 <= ns2.loc[84, "up_down_ratio"] <= 1.25
    assert 9 <= ns2.loc[10:40, "up_down_ratio"].mean() <= 12


def test_profile_flag_runs_a_study_under_ns2_rules_and_says_so(tmp_path):
    """`--profile ns2` turns the study's scenarios to ns-2's rules (ns2-compat TCP becomes
    ns2) and the report names the profile."""
    from wlansim.reproduce import with_profile
    from wlansim.reproduce.pilosof2003 import scenario

    s = scenario(1, 1)
    assert with_profile(s, "standard") is s
    ns2 = with_profile(s, "ns2")
    assert ns2["profile"] == "ns2" and ns2["tcp"]["profile"] == "ns2"
    assert s["tcp"]["profile"] == "ns2-compat" and "profile" not in s
    out = tmp_path / "m"
    assert (
        main(["reproduce", "miorandi2004", "--quick", "--profile", "ns2", "--out", str(out)]) == 0
    )
    assert "Profile: `ns2`" in (out / "report.md").read_text()
