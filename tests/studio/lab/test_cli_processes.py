"""``processor-studio lab --processes P``: the command with its cases in worker processes (real subprocesses)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from lab.corpus import bundled_corpora
from tests.studio.lab.test_cli import lab, lab_running_until


def big_corpus(path: Path, count: int) -> Path:
    """The starter corpora cycled to ``count`` cases, each with an id of its own."""
    lines = [json.loads(line) for corpus in bundled_corpora() for line in corpus.read_text("utf-8").splitlines()]
    with path.open("w", encoding="utf-8") as file:
        for n in range(count):
            case = dict(lines[n % len(lines)], id=f"{lines[n % len(lines)]['id']}#{n}")
            file.write(json.dumps(case, ensure_ascii=False) + "\n")
    return path


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listing:
        return [int(child) for child in listing.read().split()]


def ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_processes_and_in_process_give_one_report_and_shards_still_split_the_cases(tmp_path: Path) -> None:
    corpus = next(path for path in bundled_corpora() if path.stem == "obfuscation")
    here = lab("sample", "--corpus", corpus, "--processes", "1", "--json", tmp_path / "one.json")
    assert here.returncode == 0, here.stderr
    for index in (1, 2):
        out = lab(
            "sample",
            "--corpus",
            corpus,
            "--processes",
            "2",
            "--shard",
            f"{index}/2",
            "--json",
            tmp_path / f"s{index}.json",
        )
        assert out.returncode == 0, out.stderr
    merged = lab("merge", tmp_path / "merged.json", tmp_path / "s1.json", tmp_path / "s2.json")
    assert merged.returncode == 0, merged.stderr
    one = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    two = json.loads((tmp_path / "merged.json").read_text(encoding="utf-8"))

    def verdicts(report: dict) -> dict:  # type: ignore[type-arg]
        return {case["id"]: (case["outcome"], case["tripped"], case["reason"]) for case in report["cases"]}

    assert verdicts(two) == verdicts(one) and len(one["cases"]) > 10


def test_bad_process_counts_exit_2_and_help_says_what_processes_means() -> None:
    corpus = bundled_corpora()[0]
    out = lab("sample", "--corpus", corpus, "--processes", "0")
    assert out.returncode == 2 and "--processes must be at least 1, got 0" in out.stderr
    helped = lab("--help")
    assert helped.returncode == 0 and "--processes P" in helped.stdout and "worker processes" in helped.stdout


def test_a_parent_killed_with_sigkill_leaves_no_worker_and_its_run_resumes(tmp_path: Path) -> None:
    corpus = big_corpus(tmp_path / "big.jsonl", 1500)
    results = tmp_path / "results.jsonl"
    args = ["sample", "--corpus", str(corpus), "--processes", "2", "--results", str(results)]
    process = lab_running_until(args, results, 40, within=120)
    try:
        assert process.poll() is None, "the run must still be going when it is killed"
        workers = children(process.pid)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    assert len(workers) >= 2, workers  # the two workers (and multiprocessing's resource tracker, if any)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(ended(pid) for pid in workers):
        time.sleep(0.05)
    assert all(ended(pid) for pid in workers), "a worker outlived its killed parent"
    finished = {
        json.loads(line)["id"] for line in results.read_text(encoding="utf-8").splitlines()[1:] if line.endswith("}")
    }
    assert 39 <= len(finished) < 1500
    out = lab(*args, "--json", tmp_path / "r.json", timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"resuming, {len(finished)} of 1500 cases already done" in out.stderr
    ids = [json.loads(line)["id"] for line in results.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    assert len(ids) == len(set(ids)) == 1500, "every case ran exactly once across the two runs"
