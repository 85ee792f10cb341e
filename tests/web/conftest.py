"""The headless Chromium of the browser tests (Debian's ``chromium`` and ``chromium-driver``,
which ``make test`` installs through ``tools/install_chromium.sh`` where it runs as root with apt).

Where Chromium cannot be installed, only the tests that take the ``browser`` fixture skip, with a
one-line reason; under CI (``CI`` set) they fail instead, so a missing install step shows."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    if not (CHROMIUM and DRIVER) and not os.environ.get("CI"):
        pytest.skip("chromium/chromedriver not installed (make test installs them as root with apt)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or "chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1200,1700",
        "--lang=en-US",
        "--disable-gpu",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER or "chromedriver"))
    driver.implicitly_wait(0)
    yield driver
    driver.quit()
