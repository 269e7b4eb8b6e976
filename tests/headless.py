"""Headless Chromium for the tests that open the HTML reports (installed by .ci/run: chromium and
chromium-driver from Debian). Selenium Manager is kept offline: nothing is downloaded."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = "/usr/bin/chromedriver"

needs_chromium = pytest.mark.skipif(
    not (CHROMIUM and Path(CHROMEDRIVER).exists()),
    reason="Chromium is not installed: apt-get install -y chromium chromium-driver",
)


@contextmanager
def chromium(profile: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A headless Chromium WebDriver with its browser log on, closed when the block ends."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must not download anything
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER, log_output=subprocess.DEVNULL), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
