"""``/docs`` of the service works offline (issue 22 item 4): Swagger UI's script and styles come
from files installed with the package (fastapi-offline), so the page renders the API's operations
in a headless Chromium on a machine with no network, and the page names no outside host."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from neuromem import Memory


@pytest.fixture
def service(memory: Memory) -> Iterator[str]:
    from neuromem.service.api.serve import ServiceServer

    settings = memory.settings.with_updates(service={"graceful_shutdown_s": 0, "mcp_http": False})
    with ServiceServer(memory, settings) as url:
        yield url


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_load_only_local_files(service: str, page: str) -> None:
    html = httpx.get(service + page).text
    sources = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: ?'([^']+)'", html)
    assert sources, html
    assert not [s for s in sources if s.startswith(("http:", "https:", "//"))], sources
    for source in sources:
        assert httpx.get(service + source).status_code == 200, source


def test_swagger_ui_renders_the_operations(service: str, browser: WebDriver) -> None:
    browser.get(service + "/docs")
    WebDriverWait(browser, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) > 10)
    paths = {
        e.text.replace("\u200b", "") for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
    }
    assert {"/v1/memories", "/v1/search", "/readyz"} <= paths, sorted(paths)
    assert "neuromem" in browser.find_element(By.CSS_SELECTOR, ".info .title").text
