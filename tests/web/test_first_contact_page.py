"""Issue 22 item 10, the memory page: memory types in the page's language, a correction box that
shows the whole sentence, Forget and Delete told apart, and dates on the cards. Real headless
Chromium against the real service, like ``test_memory_page``."""

from __future__ import annotations

import os
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec

from neuromem import Memory

from .test_memory_page import (  # noqa: F401  (fixtures used by name; `browser` comes from tests/web/conftest.py)
    U,
    memory_item,
    open_page,
    populate,
    service_url,
    trait_item,
    wait,
)

LONG = (
    "My manager asked me to prepare the quarterly retention dashboard for the leadership offsite in Lisbon "
    "next month, with churn by cohort and the results of the new pricing experiment."
)


def test_types_in_chinese_whole_sentence_correction_forget_vs_delete_and_dates(
    memory: Memory,
    service_url: tuple[str, str],  # noqa: F811  (the fixture imported above)
    browser: WebDriver,
    tmp_path: Path,
) -> None:
    populate(memory)
    memory.add(LONG, user_id=U)
    page_url, token = service_url
    open_page(browser, page_url, token)

    # dates: a trait shows since when it is seen, a memory when it happened (the event time)
    jogging = trait_item(browser, "jogging")
    assert "seen since 3 Mar 2025" in jogging.text and "last seen" in jogging.text
    episode = wait(browser).until(lambda d: memory_item(d, "jogging again before breakfast"))
    assert "happened 5 Mar 2025" in episode.text and episode.find_element(By.TAG_NAME, "time").get_attribute(
        "datetime"
    )
    added = memory_item(browser, "dentist")
    assert added is not None and "added " in added.text

    # Forget and Delete: told apart in words and in looks
    hint = browser.find_element(By.ID, "actions-hint")
    assert hint.is_displayed() and "cannot be undone" in hint.text and "keeps it in its history" in hint.text
    forget = added.find_element(By.CSS_SELECTOR, "button.forget")
    delete = added.find_element(By.CSS_SELECTOR, "button.delete")
    assert "cannot be undone" in (forget.get_attribute("title") or "")
    assert "history keeps it" in (delete.get_attribute("title") or "")
    assert forget.value_of_css_property("background-color") != delete.value_of_css_property(
        "background-color"
    )
    delete.click()
    assert "Its history keeps it" in added.find_element(By.CSS_SELECTOR, ".confirm").text
    added.find_element(By.CSS_SELECTOR, ".confirm button:not(.danger)").click()  # cancel

    # the correction box shows the whole sentence
    long_item = wait(browser).until(lambda d: memory_item(d, "quarterly retention dashboard"))
    long_item.find_element(By.CSS_SELECTOR, "button.correct").click()
    box = wait(browser).until(lambda d: long_item.find_element(By.CSS_SELECTOR, ".correct-input"))
    assert box.get_attribute("value") == LONG
    fits = browser.execute_script(
        "const b = arguments[0]; return [b.scrollWidth <= b.clientWidth + 1, b.scrollHeight <= b.clientHeight + 1];",
        box,
    )
    assert fits == [True, True], "the correction box cuts the sentence off"
    shot = Path(os.environ.get("NEUROMEM_UI_SCREENSHOT", tmp_path / "memory-page.png"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
    assert browser.save_screenshot(str(shot.with_name(shot.stem + "-correct.png")))

    # Chinese: the memory types and the trait subtype are Chinese too
    browser.find_element(By.ID, "lang").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "neuromem 对你的了解"))
    wait(browser).until(lambda d: "行为" in trait_item(d, "jogging").text)
    # the list re-renders after the switch: read it whole once it is in Chinese (a stale row is read again)
    metas = wait(browser).until(lambda d: chinese_metas(d) or False)
    assert any("经历" in m for m in metas) and any("事实" in m for m in metas), metas
    assert not any(word in m for m in metas for word in ("fact", "episodic", "document")), metas
    assert any("发生于 2025年3月5日" in m for m in metas), metas
    assert "彻底遗忘" in browser.find_element(By.ID, "actions-hint").text
    assert browser.save_screenshot(str(shot))


def chinese_metas(driver: WebDriver) -> list[str]:
    """The memory rows' meta lines, once the list is shown in Chinese (empty until then)."""
    texts = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#memories li.memory > .meta")]
    return texts if texts and any("事实" in t for t in texts) else []
