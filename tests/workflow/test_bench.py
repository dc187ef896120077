"""``atmtcp bench``: the history it keeps and the whole-process timing (a benchmark, not a test
of speed: these check that the numbers are measured and recorded, not how large they are)."""
import json
import sys

from atmtcp import bench
from atmtcp.cli import main


def test_record_sitting_appends_one_json_line_with_commit_and_machine(tmp_path):
    path = tmp_path / "history.jsonl"
    bench.record_sitting([{"scenario": "a", "wall_s": 0.5}], path)
    bench.record_sitting([{"scenario": "a", "wall_s": 0.4}], path, kind="process")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["rows"][0]["wall_s"] for line in lines] == [0.5, 0.4]
    assert [line["kind"] for line in lines] == ["kernel", "process"]
    assert lines[0]["commit"] and lines[0]["machine"]["cores"] >= 1 and "numba" in lines[0]["machine"]
    assert lines[0]["machine"]["kernel"] in ("aot", "jit") and "kernel" not in lines[1]["machine"]


def test_time_process_measures_cpu_and_memory_of_the_child():
    """A child that spins for about 0.2 s of CPU and holds 50 MB is measured as such."""
    spin = "import time; x = bytearray(50 * 2**20); t = time.process_time()\nwhile time.process_time() - t < 0.2: pass"
    row = bench.time_process([sys.executable, "-c", spin])
    assert row["cpu_s"] >= 0.2 and row["wall_s"] >= row["cpu_s"] * 0.5
    assert row["max_rss_mb"] >= 50


def test_compare_processes_alternates_and_reports_ratios():
    order = []
    fast = [sys.executable, "-c", "pass"]
    rows = bench.compare_processes({"first": fast, "second": fast}, repeat=3, printer=order.append)
    assert [r["command"] for r in rows] == ["first", "second"] and rows[0]["repeat"] == 3
    assert order[0].startswith("whole process, median of 3") and len(order) == 5


def test_bench_process_with_a_peer_records_a_process_sitting(tmp_path, capsys):
    history = tmp_path / "h.jsonl"
    code = main(["bench", "--process", "--repeat", "1", "--peer", "true", "--history", str(history)])
    assert code == 0
    entry = json.loads(history.read_text())
    assert entry["kind"] == "process" and [r["command"].split()[0] for r in entry["rows"]] == ["atmtcp", "true"]
    assert "wall / first" in capsys.readouterr().out


def test_bench_process_times_both_kernels_alternately(tmp_path):
    history = tmp_path / "h.jsonl"
    assert main(["bench", "--process", "--repeat", "1", "--kernel", "aot", "jit", "--history", str(history)]) == 0
    rows = json.loads(history.read_text())["rows"]
    assert [r["command"].rsplit(" ", 1)[-1] for r in rows] == ["(aot)", "(jit)"]
    assert "ATMTCP_NO_AOT=1" in rows[1]["argv"] and "ATMTCP_NO_AOT" not in rows[0]["argv"]


def test_bench_records_only_when_asked(tmp_path, monkeypatch, capsys):
    """A sitting is printed, not written into the tracked benchmarks/history.jsonl, unless --record (or
    --history FILE) asks for it: running the README's example leaves a clone clean (issue 26)."""
    tracked = tmp_path / "history.jsonl"
    monkeypatch.setattr(bench, "HISTORY", tracked)
    assert main(["bench", "--process", "--repeat", "1", "--kernel", "aot", "--peer", "true"]) == 0
    assert not tracked.exists() and "appended" not in capsys.readouterr().out
    assert main(["bench", "--process", "--repeat", "1", "--kernel", "aot", "--peer", "true", "--record"]) == 0
    assert len(tracked.read_text().splitlines()) == 1


def test_bench_compile_times_a_cold_compile_and_records_a_compile_sitting(tmp_path, monkeypatch, capsys):
    """``--compile`` times ``ATMTCP_NO_CACHE=1 atmtcp warm --no-aot`` (issue 39, goal 2) as a whole process and
    records a "compile" sitting. The compile itself takes minutes, so a short command stands in for it here."""
    command = bench.cold_compile_command()
    assert command[:2] == ["env", "ATMTCP_NO_CACHE=1"] and command[-2:] == ["warm", "--no-aot"]
    monkeypatch.setattr(bench, "cold_compile_command", lambda: [sys.executable, "-c", "pass"])
    history = tmp_path / "h.jsonl"
    assert main(["bench", "--compile", "--history", str(history)]) == 0
    entry = json.loads(history.read_text())
    assert entry["kind"] == "compile" and entry["rows"][0]["command"].startswith("cold compile")
    assert entry["rows"][0]["cpu_s"] >= 0 and entry["rows"][0]["max_rss_mb"] > 0
    assert main(["bench", "--compile", "--process"]) == 2
    assert "--compile" in capsys.readouterr().err
