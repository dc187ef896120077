"""The YATS peer (issue 37, atmtcp.validation.yats): goyal1998's run translated into a Luayats script, checked
on its numbers without YATS; the carried-over rows of the table; and, when a YATS build is named by
$ATMTCP_YATS, a 0.05 s YATS run."""
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from atmtcp import model as m
from atmtcp.papers.goyal1998.scenario import goyal_run
from atmtcp.validation import compare, yats
from atmtcp.validation.experiments import points_of


@pytest.mark.parametrize("policy, tcp", [("ubr", "reno"), ("epd", "vanilla")])
def test_goyal_lan_as_a_yats_script(policy, tcp):
    run = goyal_run("lan", 5, 1000, policy, tcp, 3, False, duration_s=2.0)
    spec = yats.from_n_source(run)
    slot = 53 * 8 / m.OC3_BPS
    assert spec.slot_s == pytest.approx(slot) and spec.slots == round(2.0 / slot) and spec.seed == 3
    assert spec.access_slots == spec.egress_slots == (2,) * 5 and spec.trunk_slots == 2   # 5 us = 1.83 slots
    assert (spec.buffer_cells, spec.policy) == (1000, {"ubr": "tail", "epd": "epd"}[policy])
    assert spec.epd_threshold == (800 if policy == "epd" else None)   # goyal1998 4.1: 1000 - 200
    assert (spec.mss, spec.mtu, spec.llc_bytes, spec.rcv_wnd, spec.initial_ssthresh) == (512, 552, 8, 65535, 65535)
    assert yats.cells_per_segment(spec) == 12
    assert spec.fast_retransmit == (tcp == "reno") and not spec.timestamps
    assert (spec.tick_s, spec.rto_min_s) == (0.1, 0.2)
    assert any("tick" in u for u in spec.unmatched) and any("host processing" in u for u in spec.unmatched)
    assert any("EOM" in u for u in spec.unmatched) == (policy == "epd")

    text = yats.script(spec, "/opt/yats/share/luayats")
    table = text[text.index("P = {"):text.index("\n}\n")]
    values = dict(re.findall(r"^\s+(\w+) = (.*?),?$", table, re.M))
    assert values["n"] == "5" and values["seed"] == "4" and values["slots"] == str(spec.slots)
    assert values["buffer"] == "1000" and values["policy"] == f'"{spec.policy}"'
    assert values["epd_threshold"] == ("800" if policy == "epd" else "nil")
    assert values["fretr"] == ("true" if tcp == "reno" else "false") and values["ts"] == "false"
    assert values["access"] == "{2, 2, 2, 2, 2}" and values["tick"] == "0.1" and values["rtomin"] == "0.2"
    assert 'YHOME = "/opt/yats/share/luayats"' in text
    assert "yats.muxEPD" in text and "thresh = P.epd_threshold" in text and "buff = P.buffer - 1" in text


def test_what_yats_cannot_express_is_refused_by_name():
    run = goyal_run("lan", 5, 1000, "ubr", "reno", 0, False)
    with pytest.raises(ValueError, match="flavor 'sack'"):
        yats.from_n_source(goyal_run("lan", 5, 1000, "ubr", "sack", 0, False))
    with pytest.raises(ValueError, match="delayed_ack"):
        tcp = replace(run.connections[0].tcp, delayed_ack=True)
        yats.from_n_source(replace(run, connections=tuple(replace(c, tcp=tcp) for c in run.connections)))
    with pytest.raises(ValueError, match="bottleneck port"):
        yats.from_n_source(goyal_run("lan", 5, 1000, "selective_drop", "reno", 0, False))
    with pytest.raises(ValueError, match="t = 0"):
        yats.from_n_source(goyal_run("lan", 5, 1000, "ubr", "reno", 0, False, start_jitter_s=0.01))


def test_the_yats_scenario_runs_both_sides_on_ten_seeds_and_its_rows_name_yats(tmp_path):
    points = points_of("goyal_yats")(False)
    assert {p["side"] for p in points} == {"atmtcp", "YATS"}
    assert {p["seed"] for p in points if p["side"] == "YATS"} == set(range(10))
    old = pd.DataFrame({"scenario": ["goyal_yats", "goyal_ubr", "gone"], "cell": ["a", "b", "c"], "metric": ["m"] * 3})
    old.to_csv(tmp_path / "old.csv", index=False)
    kept = compare.carried_rows(tmp_path / "old.csv", {"goyal_ubr": None})
    assert list(kept.scenario) == ["goyal_yats"]        # a result replaces its rows; unknown scenarios go
    assert compare.carried_rows(tmp_path / "missing.csv", {}).empty


def test_skip_reason_names_the_prefix(monkeypatch, tmp_path):
    monkeypatch.delenv(yats.PREFIX_ENV, raising=False)
    assert "no prefix" in yats.skip_reason() and yats.binary() is None
    monkeypatch.setenv(yats.PREFIX_ENV, str(tmp_path))
    assert f"{tmp_path}/bin/luayats-bin not found" in yats.skip_reason()


def test_a_short_yats_run():
    if yats.binary() is None:
        pytest.skip(yats.skip_reason())
    run = goyal_run("lan", 2, 1000, "epd", "reno", 0, False, duration_s=0.05)
    out = yats.run(yats.from_n_source(run))
    payload = m.OC3_BPS * 0.05 / 8 * 48 / 53 * 512 / (12 * 48)   # every cell of the link carrying segments
    assert out["simulated_s"] == pytest.approx(0.05, abs=1e-5)
    assert out["goodput_bytes"].sum() <= payload
    # slow start sends 1 + 2 + ... + 32 segments before two windows of 32 (768 cells) can reach EPD's 800 cells
    assert np.all(out["goodput_bytes"] >= 63 * 512)
    assert np.all(out["segments"] * 512 >= out["goodput_bytes"]) and out["dropped_cells"] >= 0
