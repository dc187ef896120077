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


# --- cheon's parking lot (atmtcp.validation.yats_parking_lot) ------------------------------------------------
@pytest.mark.parametrize("case, policy, payload", [("symmetric", "rcd", 500), ("asymmetric", "epd", 1500)])
def test_cheon_parking_lot_as_a_yats_script(case, policy, payload):
    from atmtcp.papers.cheon.scenario import BUFFER_CELLS, IP_SERVICE_PPS, cheon_run, thresholds
    from atmtcp.validation.yats_parking_lot import from_parking_lot
    run = cheon_run(case, policy, payload, 3)
    spec = from_parking_lot(run)
    slot = 53 * 8 / m.OC3_BPS
    ms = round(1e-3 / slot)                                             # 1 ms = 366.8 slots
    far = round((2e-3 if case == "symmetric" else 3e-3) / slot)
    assert spec.groups == (5, 5) and spec.n == 10 and spec.seed == 3
    assert spec.slots == round(run.duration_s / slot) and spec.warmup_slots == round(0.5 / slot)
    assert spec.access_slots == (ms,) * 5 + (far,) * 5
    assert spec.trunk_slots == ((ms, ms) if case == "symmetric" else (round(47e-3 / slot), ms))
    assert spec.sink_slots == (ms,) * 10
    assert spec.start_slots == tuple(max(1, round(c.start_s / slot)) for c in run.connections)
    assert max(spec.start_slots) <= round(0.01 / slot) and len(set(spec.start_slots)) == 10   # the seed's jitter
    assert spec.buffer_cells == BUFFER_CELLS and spec.policy == {"rcd": "tail", "epd": "epd"}[policy]
    assert spec.epd_threshold == (thresholds(case, payload)["epd"] if policy == "epd" else None)
    assert spec.send_proc_s == pytest.approx(1 / IP_SERVICE_PPS[payload])
    # cheon's 14 bytes of AAL5 overhead: YATS' 8-byte trailer + 6 bytes of header, the same cells per packet
    assert (spec.mss, spec.mtu, spec.llc_bytes, spec.rcv_wnd) == (payload, payload + 40, 6, 65535)
    from atmtcp.kernel.aal5 import packet_cells
    assert packet_cells(spec.mtu, spec.llc_bytes + yats.YATS_TRAILER_BYTES) == {500: 12, 1500: 33}[payload]
    assert spec.fast_retransmit and not spec.timestamps and spec.tick_s == 1e-4
    assert spec.rto_min_s == pytest.approx(0.05 if case == "symmetric" else 0.15)
    assert spec.ack_delay_s == pytest.approx(0.0125 if case == "symmetric" else 0.0375)
    assert any("delayed ACKs" in u for u in spec.unmatched)
    assert any("capture" in u for u in spec.unmatched) == (policy == "epd")
    assert not any("ssthresh rule" in u or "ends recovery" in u for u in spec.unmatched)   # 4.4BSD's, as YATS

    text = spec.script("/opt/yats/share/luayats")
    table = text[text.index("P = {"):text.index("\n}\n")]
    values = dict(re.findall(r"^\s+(\w+) = (.*?),?$", table, re.M))
    assert values["groups"] == "{5, 5}" and values["seed"] == "4" and values["buffer"] == str(BUFFER_CELLS)
    assert values["warm"] == str(spec.warmup_slots) and values["policy"] == f'"{spec.policy}"'
    assert "yats.muxEPD" in text and "thresh = P.epd_threshold" in text and "proctim = P.send_proc" in text


def test_what_the_parking_lot_translation_refuses_is_named():
    from atmtcp.papers.cheon.scenario import cheon_run
    from atmtcp.validation.yats_parking_lot import from_parking_lot
    for policy in ("ppd", "espd"):
        with pytest.raises(ValueError, match="no PPD, no ESPD"):
            from_parking_lot(cheon_run("symmetric", policy, 500, 0))
    run = cheon_run("symmetric", "rcd", 500, 0)
    with pytest.raises(ValueError, match="numbered by the switch"):
        from_parking_lot(replace(run, connections=run.connections[::-1]))
    with pytest.raises(ValueError, match="does not enter one switch"):
        from_parking_lot(replace(run, connections=(m.Connection("D1", "S1", run.connections[0].tcp),)))


def test_the_cheon_scenario_runs_tables_1_to_4_rcd_and_epd_on_ten_seeds():
    points = points_of("cheon_yats")(False)
    assert {(p["table"], p["policy"]) for p in points} == {(f"table{t}", p) for t in (1, 2, 3, 4)
                                                           for p in ("rcd", "epd")}
    assert {p["seed"] for p in points if p["side"] == "YATS"} == set(range(10))
    assert compare.cheon_paper("table2", "epd", "long", "effective_throughput") == 9699
    assert compare.cheon_paper("table1", "rcd", "", "fairness_index") == 0.973


def test_a_short_yats_run_of_the_parking_lot():
    if yats.binary() is None:
        pytest.skip(yats.skip_reason())
    from atmtcp.papers.cheon.scenario import cheon_run
    from atmtcp.validation.yats_parking_lot import from_parking_lot
    run = cheon_run("symmetric", "epd", 500, 0, duration_s=0.6)
    out = yats.run(from_parking_lot(run))
    most = m.OC3_BPS / 424 / 12 * 0.1 * 500          # every cell of the bottleneck carrying packets for 0.1 s
    assert out["simulated_s"] == pytest.approx(0.6, abs=1e-5)
    assert 0 < out["goodput_bytes"].sum() <= most and np.all(out["goodput_bytes"] > 0)
