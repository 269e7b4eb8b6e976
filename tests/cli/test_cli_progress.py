"""On a terminal, `sumjudge score` shows live progress on standard error; --quiet silences it."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys

import pytest

from sumjudge.testing.judge_server import JudgeServer

pytestmark = pytest.mark.integration

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def run_on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sumjudge.cli", *args], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    code = proc.wait(timeout=60)
    return code, ANSI.sub("", b"".join(chunks).decode(errors="replace").replace("\r", "\n"))


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_on_a_terminal(tmp_path, quiet):
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"source": f"s {i}.", "summary": f"x {i}."}) + "\n" for i in range(6)))
    with JudgeServer(latency=0.05) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "k", "COLUMNS": "160"}
        args = ["score", str(data), "--model", "openai/test-model", "--store", str(tmp_path / "r.db"), "-c", "2"]
        code, screen = run_on_a_terminal(args + (["--quiet"] if quiet else []), env)
    assert code == 0
    if quiet:
        assert screen.strip() == ""
        return
    # Done and left, rate, judge calls, tokens, errors; then the end table.
    assert re.search(r"6/6 left 0", screen), screen
    assert re.search(r"(?:[\d.]+ items/s|[\d.–]+ s/item)\s+calls 18\s+tokens [\d.]+k? \([\d.]+k?/s\)\s+errors 0", screen), screen
    for figure in ("count", "mean", "median", "p10", "mean alignment", "mean coverage", "zero scores", "errors",
                   "total tokens"):
        assert figure in screen


def test_the_pace_of_a_slow_judge_reads_as_seconds_per_item_never_zero():
    from sumjudge.cli.progress import pace

    assert pace(0, 30.0) == "– s/item"
    assert pace(3, 75.0) == "25.0 s/item"
    assert pace(30, 10.0) == "3.0 items/s"
    assert pace(1, 1.0) == "1.0 items/s"
