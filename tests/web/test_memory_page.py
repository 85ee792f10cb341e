"""The memory page in a real headless Chromium, served by the service (``memctl serve``'s app) at
/ui with an API key: a trait's evidence down to the original words, correcting it, forgetting a
memory and seeing it gone, keyboard access, both languages, the prompt preview, and a
screenshot. The page's API is also checked without the service (a router over a bare Memory)."""

from __future__ import annotations

import datetime as dt
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from neuromem import Memory
from neuromem.service.web import build_router
from tests.reflect.helpers import say

U = "alice"
T0 = dt.datetime(2025, 3, 3, 9, 0, tzinfo=dt.UTC)


class LocalService:
    """What ``build_router`` needs from the service when no API keys are involved."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory


def populate(memory: Memory) -> None:
    """An emerging trait with a confidence (jogging) and a trend whose evidence came from conversations (cello)."""
    for day, text in enumerate(
        [
            "I went jogging in the park this morning",
            "Another jogging session along the river today",
            "jogging again before breakfast, felt great",
        ]
    ):
        say(memory, U, T0 + dt.timedelta(days=day), [text], session=f"s{day}")
    memory.reflect(user_id=U, now=T0 + dt.timedelta(days=2.5))
    cello = [
        "I practised the cello for an hour",
        "I practised the cello again after dinner",
        "I practised the cello with my teacher",
    ]
    for day, text in enumerate(cello):
        memory.ingest(
            [{"role": "user", "content": text, "timestamp": (T0 + dt.timedelta(days=3 + day)).isoformat()}],
            user_id=U,
            session_id=f"cello-{day}",
        )
    memory.reflect(user_id=U, now=T0 + dt.timedelta(days=5.5))
    memory.add("My dentist appointment is on Friday", user_id=U)
    memory.add("我住在杭州", user_id=U)


@pytest.fixture
def service_url(memory: Memory) -> Iterator[tuple[str, str]]:
    """The real service app (which mounts ``neuromem.service.web`` at /ui) and a write key for it."""
    from neuromem.service.api.keys import KeyStore
    from neuromem.service.api.serve import ServiceServer

    token = KeyStore(memory.runtime.db).create("default", "write", name="page test")[1]
    settings = memory.settings.with_updates(service={"graceful_shutdown_s": 0, "mcp_http": False})
    with ServiceServer(memory, settings) as url:
        yield url + "/ui/", token


@pytest.fixture
def page_url(memory: Memory) -> Iterator[str]:
    app = FastAPI()
    app.include_router(build_router(LocalService(memory)), prefix="/ui")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws="none",
            lifespan="off",
            timeout_graceful_shutdown=0,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}/ui/"
    server.should_exit = True
    thread.join(10)


def wait(driver: WebDriver, seconds: float = 15) -> WebDriverWait:
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,))


def trait_item(driver: WebDriver, needle: str) -> WebElement:
    return wait(driver).until(
        lambda d: next(
            (li for li in d.find_elements(By.CSS_SELECTOR, "#traits li.trait") if needle in li.text), False
        )
    )


def memory_item(driver: WebDriver, needle: str) -> WebElement | None:
    return next(
        (li for li in driver.find_elements(By.CSS_SELECTOR, "#memories li.memory") if needle in li.text), None
    )


def open_page(browser: WebDriver, url: str, token: str) -> None:
    browser.get(url)
    wait(browser).until(lambda d: d.find_element(By.ID, "key").is_displayed())
    browser.find_element(By.ID, "user").send_keys(U)
    browser.find_element(By.ID, "key").send_keys(token, Keys.ENTER)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "status"), "Showing the memory of alice"))


def test_flows_keyboard_languages_and_screenshot(
    memory: Memory, service_url: tuple[str, str], browser: WebDriver, tmp_path: Path
) -> None:
    populate(memory)
    page_url, token = service_url
    browser.get(page_url)
    wait(browser).until(lambda d: d.find_element(By.ID, "key").is_displayed())
    browser.find_element(By.ID, "user").send_keys(U, Keys.ENTER)  # no key: the service refuses
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "status"), "API key"))
    assert "error" in browser.find_element(By.ID, "status").get_attribute("class")
    open_page(browser, page_url, token)

    # a trait, its stage and confidence, and its evidence down to the original words
    jogging = trait_item(browser, "jogging")
    assert "confidence" in jogging.text and "0.40" in jogging.text and "after decay" in jogging.text
    cello = trait_item(browser, "cello")
    cello.find_element(By.CSS_SELECTOR, "button.evidence").click()
    panel = wait(browser).until(lambda d: d.find_element(By.ID, "ev-" + cello.get_attribute("data-id")))
    wait(browser).until(lambda d: "I practised the cello again after dinner" in panel.text)
    quotes = [q.text for q in panel.find_elements(By.CSS_SELECTOR, ".quote")]
    assert "I practised the cello for an hour" in quotes and len(quotes) == 3

    # correct the trait from the page
    trait_item(browser, "cello").find_element(By.CSS_SELECTOR, "button.correct").click()
    field = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#traits .correct-input"))
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Plays the cello most evenings", Keys.ENTER)
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "status"), "Corrected."))
    corrected = trait_item(browser, "Plays the cello most evenings")
    assert "Plays the cello most evenings" in [t.content for t in memory.traits(user_id=U).all()]
    corrected.find_element(By.CSS_SELECTOR, "button.evidence").click()  # the evidence stays with the trait
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#traits .panel .quote")) == 3)

    # forget (or, without forgetting in this neuromem, delete) a memory and see it gone
    dentist = wait(browser).until(lambda d: memory_item(d, "dentist"))
    dentist.find_element(By.CSS_SELECTOR, "button.forget").click()
    confirm = browser.switch_to.active_element  # the confirm step takes the focus
    assert confirm.text.startswith("Yes,")
    confirm.click()
    wait(browser).until(
        lambda d: (
            memory_item(d, "dentist") is None and "dentist" not in d.find_element(By.ID, "memories").text
        )
    )
    assert all("dentist" not in m.content for m in memory.get_all(user_id=U, include_inactive=True))
    assert memory.forget_receipts(user_id=U)  # forgotten for good, with a receipt

    # keyboard only: Tab to a trait's evidence button, Enter opens it and moves the focus into it
    browser.get(page_url + "?user=" + U)  # the key stays in the tab's session storage
    wait(browser).until(ec.text_to_be_present_in_element((By.ID, "status"), "Showing the memory of alice"))
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(40):
        active = browser.switch_to.active_element
        if active.get_attribute("class") == "evidence":
            break
        active.send_keys(Keys.TAB)
    else:
        pytest.fail("no evidence button reachable with Tab")
    active.send_keys(Keys.ENTER)
    wait(browser).until(lambda d: d.switch_to.active_element.get_attribute("class") == "panel")
    assert active.get_attribute("aria-expanded") == "true"

    # the prompt block a query would get
    browser.find_element(By.ID, "pq").send_keys("where do I live?", Keys.ENTER)
    wait(browser).until(lambda d: "[User memory]" in d.find_element(By.ID, "block").text)

    # Chinese, then a screenshot looked at by a person
    browser.find_element(By.ID, "lang").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "neuromem 对你的了解"))
    wait(browser).until(lambda d: "置信度" in d.find_element(By.ID, "traits").text)
    assert browser.find_element(By.ID, "lang").text == "English"
    shot = Path(os.environ.get("NEUROMEM_UI_SCREENSHOT", tmp_path / "memory-page.png"))
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_the_api_refuses_bad_input_with_typed_errors(
    memory: Memory, page_url: str, service_url: tuple[str, str]
) -> None:
    import httpx

    served, token = service_url
    with httpx.Client(base_url=served) as client:
        assert client.get("").status_code == 200 and client.get("api/config").json()["key_required"] is True
        assert client.get("api/users/alice/traits").status_code == 401
        assert (
            client.get("api/users/alice/traits", headers={"Authorization": f"Bearer {token}"}).status_code
            == 200
        )
    with httpx.Client(base_url=page_url) as client:
        assert client.get("api/config").json()["key_required"] is False
        assert client.get("static/app.js").headers["content-type"].startswith("text/javascript")
        assert client.get("static/secret.py").status_code == 404
        missing = client.get("api/users/alice/memories/00000000-0000-0000-0000-000000000000")
        assert missing.status_code == 404 and "MemoryNotFoundError" in missing.json()["detail"]
        bad_user = client.get("api/users/" + "x" * 300 + "/traits")
        assert bad_user.status_code == 400 and "InvalidUserIdError" in bad_user.json()["detail"]
        [kept] = memory.add("I like chess", user_id=U)
        empty = client.put(f"api/users/alice/memories/{kept.memory.id}", json={"content": "  "})
        assert empty.status_code == 400 and "EmptyContentError" in empty.json()["detail"]
        assert [m.content for m in memory.get_all(user_id=U)] == ["I like chess"]
