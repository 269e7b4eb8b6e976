"""sumjudge view for real: the command serves the store with uvicorn on 127.0.0.1 and headless Chromium
labels two claims with the keyboard; the labels survive a reload and `agreement --run` counts them."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from headless import chromium, needs_chromium
from sumjudge.cli import main
from view_store import make_store

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

STARTED = re.compile(r"sumjudge view: (http://\S+/)")


@contextmanager
def served(cwd: Path, *args: str) -> Iterator[tuple[str, list[str]]]:
    """`sumjudge view ARGS` in a subprocess; yields its address and the lines it printed so far."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sumjudge.cli", "view", "--port", "0", *args], cwd=cwd,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300"},
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    try:
        while True:
            line = lines.get(timeout=60)  # a hung start fails the test instead of hanging it
            if line is None:
                raise AssertionError("sumjudge view stopped: " + "".join(seen))
            seen.append(line)
            if m := STARTED.search(line):
                yield m.group(1), seen
                return
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_view_binds_loopback_by_default_and_warns_otherwise(tmp_path):
    store, _, _ = make_store(tmp_path)
    with served(tmp_path, "--store", str(store)) as (address, lines):
        assert address.startswith("http://127.0.0.1:")
        assert not any("warning" in line for line in lines)
    with served(tmp_path, "--store", str(store), "--host", "0.0.0.0", "--read-only") as (address, lines):
        assert address.startswith("http://0.0.0.0:")
        assert any("warning: binding 0.0.0.0, not 127.0.0.1" in line for line in lines)


def test_view_without_a_store_says_so(tmp_path):
    res = CliRunner().invoke(main, ["view", "--store", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "no run store" in res.output


def test_a_port_in_use_is_one_line_naming_it_and_the_port_option(tmp_path):
    import socket

    store, _, _ = make_store(tmp_path)
    with socket.socket() as taken:  # the bundled judge server, say, on the viewer's port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "sumjudge.cli", "view", "--store", str(store), "--port", str(port)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert f"port {port} on 127.0.0.1 is in use" in line and "--port" in line and "Traceback" not in done.stderr


def test_no_doc_starts_the_judge_server_on_the_viewers_default_port():
    root = Path(__file__).resolve().parents[2]
    (port,) = [p.default for p in main.get_command(None, "view").params if p.name == "port"]
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for m in re.finditer(r"judge_server --port (\d+)", doc.read_text(encoding="utf-8")):
            assert int(m.group(1)) != port, doc.name
    import inspect

    import sumjudge.testing.serve as serve_module  # the judge server's own default is another port too

    assert f"default={port}" not in inspect.getsource(serve_module)


@needs_chromium
def test_label_two_claims_with_the_keyboard_then_measure_agreement(tmp_path, monkeypatch):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    store, a, _ = make_store(tmp_path)
    with served(tmp_path, "--store", str(store)) as (address, _), chromium(tmp_path / "profile", monkeypatch) as driver:
        # a mark or a name posts and the page comes back: an element read between the two is stale, so
        # the waits look again instead of failing (seen under load)
        wait = WebDriverWait(driver, 30, ignored_exceptions=(StaleElementReferenceException,))
        driver.get(address)
        assert "runs" in driver.title
        driver.find_element(By.LINK_TEXT, a).click()
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "run")
        driver.find_element(By.LINK_TEXT, "doc-2").click()
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "item")
        name = driver.find_element(By.ID, "reviewer")
        name.send_keys("ann", Keys.ENTER)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-reviewer") == "ann")

        ActionChains(driver).send_keys("y").perform()  # the first claim, selected on load: the judge is right
        claims = lambda: driver.find_elements(By.CSS_SELECTOR, 'li.verdict[data-target="claim"]')  # noqa: E731
        wait.until(lambda d: claims()[0].get_attribute("data-label") == "right")
        ActionChains(driver).send_keys("n").perform()  # y moved on to the second: the judge is wrong
        wait.until(lambda d: claims()[1].get_attribute("data-label") == "wrong")

        driver.refresh()
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "item")
        assert [c.get_attribute("data-label") for c in claims()] == ["right", "wrong"]
        assert [c.find_element(By.CSS_SELECTOR, ".label").text for c in claims()] == ["right", "wrong"]
        source = driver.find_element(By.CSS_SELECTOR, ".source mark.evidence")
        assert source.text == "The council approved the budget on Monday."
        old_page = driver.find_element(By.CSS_SELECTOR, "form.rate select")
        ActionChains(driver).send_keys("4").perform()  # rate the summary 4: the form posts and the page comes back
        wait.until(staleness_of(old_page))
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "form.rate select").get_attribute("value") == "4")
        problems = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert problems == []  # no CSP violation, no failed request, no script error

    res = CliRunner().invoke(main, ["agreement", "--run", a, "--store", str(store)])
    assert res.exit_code == 0, res.output
    assert "labels by ann on 1 items (2 claims, 0 answers, 1 ratings)" in res.output
    # claim 1: supported, right (a true negative); claim 2: unsupported, wrong (a false positive)
    assert re.search(r'precision of "unsupported"\s+0\.000\s+\(2 claims\)', res.output)
    assert re.search(r"Cohen's kappa, judge vs people\s+0\.000\s+\(2 claims\)", res.output)


@needs_chromium
def test_the_queue_key_follows_the_review_queue_when_a_reviewer_is_set(tmp_path, monkeypatch):
    """`]` with a reviewer set goes to the review queue's next item, not to the page's rel=next;
    without a reviewer there is no queue and it goes to the next item."""
    import http.client
    from urllib.parse import parse_qs, urlsplit

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    store, a, _ = make_store(tmp_path)
    with served(tmp_path, "--store", str(store), "--seed", "3") as (address, _), \
            chromium(tmp_path / "profile", monkeypatch) as driver:
        where = urlsplit(address)
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
        conn.request("GET", f"/run/{a}/queue?reviewer=ann")
        reply = conn.getresponse()
        assert reply.status == 303
        queued = parse_qs(urlsplit(reply.getheader("Location")).query)["id"][0]
        conn.close()
        start = "doc-1" if queued != "doc-2" else "doc-3"  # its rel=next is not the queue's next
        item_of = lambda d: parse_qs(urlsplit(d.current_url).query).get("id", [None])[0]  # noqa: E731
        wait = WebDriverWait(driver, 30)

        driver.get(f"{address}run/{a}/item?id={start}&reviewer=ann")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-reviewer") == "ann")
        nxt = driver.find_element(By.CSS_SELECTOR, "a[rel=next]").get_attribute("href")
        assert parse_qs(urlsplit(nxt).query)["id"][0] != queued
        ActionChains(driver).send_keys("]").perform()
        wait.until(lambda d: item_of(d) != start)
        assert item_of(driver) == queued

        driver.get(f"{address}run/{a}/item?id={start}")  # no reviewer: no queue, the next item
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "item")
        ActionChains(driver).send_keys("]").perform()
        wait.until(lambda d: item_of(d) != start)
        assert item_of(driver) == parse_qs(urlsplit(nxt).query)["id"][0]
