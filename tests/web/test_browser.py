"""The UI in a real browser (Debian chromium via Playwright) against a live uvicorn server."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Dialog, Page, sync_playwright
from tests.helpers.sample_store import REPO, fill_store

from prdigest.config import Settings
from prdigest.store import Store
from prdigest.web import create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'ui.db'}")
    fill_store(store)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(store, Settings()), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    store.close()


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Browser]:

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Watched:
    """A page plus what it did that it must not: open dialogs, throw errors."""

    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    result = Watched(context.new_page())
    result.page.on("dialog", result.on_dialog)
    result.page.on("pageerror", lambda error: result.errors.append(str(error)))
    yield result
    context.close()


def test_read_feed_filter_report_switch_lineage_search(watched: Watched, base_url: str) -> None:
    p = watched.page
    p.goto(f"{base_url}/repos")
    p.click(f"text={REPO}")
    assert p.locator("ol.feed > li").count() == 5

    # Filter by a risk tag through the plain GET form.
    p.click("details.filters summary")
    p.select_option("select[name=risk]", "missing-regression-test")
    p.wait_for_url("**risk=missing-regression-test**")
    titles = p.locator("ol.feed a.item-title").all_inner_texts()
    assert titles == ["Restore CUDA detection with a ROCm guard", "Add the CUDA detection helper"]

    # Open a report, switch language and length.
    p.click("text=Add the CUDA detection helper")
    assert p.locator("h1.report-title").inner_text() == "Add the CUDA detection helper"
    assert p.locator(".badge.verdict-read-in-depth").count() == 1
    p.click("nav.langs >> text=English")
    assert "lang=en" in p.url
    assert p.locator(".badge").first.inner_text() == "Read in depth"
    p.click("nav.switch >> text=Brief report")
    assert "length=brief" in p.url
    assert "lang=en" in p.url

    # Follow the lineage: #1 was reverted by #2.
    p.click("section.lineage >> text=#2")
    assert p.locator("h1.report-title").inner_text() == "Revert the CUDA detection helper"

    # Search from the header.
    p.fill("form.search input[name=q]", "风险")
    p.press("form.search input[name=q]", "Enter")
    p.wait_for_url("**/search?**")
    assert p.locator("ol.results a.item-title").all_inner_texts() == ["修复依赖约束：放宽 numpy 上限"]
    assert p.locator("ol.results mark").count() >= 1
    assert watched.dialogs == []
    assert watched.errors == []


def test_xss_payloads_stay_inert(watched: Watched, base_url: str) -> None:
    p = watched.page
    for url in (
        f"{base_url}/repos/{REPO}",
        f"{base_url}/repos/{REPO}/pulls/4",
        f"{base_url}/search?q=click",
        f"{base_url}/repos/{REPO}/pulls/4/lineage",
    ):
        p.goto(url)
        p.wait_for_load_state("load")
        assert p.evaluate("typeof window.__xss") == "undefined", url
        assert p.locator("script:not([src='/static/app.js'])").count() == 0, url
        for anchor in p.locator("a").all():
            href = (anchor.get_attribute("href") or "").strip().lower()
            assert not href.startswith("javascript:"), (url, href)
    # Clicking the would-be javascript: link text does nothing either.
    p.goto(f"{base_url}/repos/{REPO}/pulls/4")
    assert "<script>window.__xss = 1</script>" in p.locator("h1.report-title").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / "web-xss-report.png"), full_page=True)
    assert watched.dialogs == []
    assert p.evaluate("typeof window.__xss") == "undefined"


def test_pages_work_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        p = context.new_page()
        p.goto(f"{base_url}/repos/{REPO}?lang=en")
        p.click("details.filters summary")
        p.select_option("select[name=verdict]", "quick-read")
        p.click("form.filter-form button[type=submit]")
        p.wait_for_url("**verdict=quick-read**")
        assert p.locator("ol.feed a.item-title").all_inner_texts() == [
            "修复依赖约束：放宽 numpy 上限",
            "Revert the CUDA detection helper",
        ]
    finally:
        context.close()


def test_create_a_watch_from_the_form_and_read_it(watched: Watched, base_url: str) -> None:
    """A real browser's POST (its own Origin and the page's CSRF cookie and field) creates the
    watch; its page then lists the PRs it holds, with why."""
    p = watched.page
    p.goto(f"{base_url}/watch?lang=en")
    p.fill("input[name=name]", "everything")
    p.fill("input[name=repository]", REPO)
    p.fill("textarea[name=paths]", "**")
    p.click("form.watch-form button[type=submit]")
    p.wait_for_url("**/watch/everything?lang=en")
    assert p.locator("h1").inner_text().startswith("Watch everything")
    assert p.locator("ol.feed > li").count() == 5
    assert p.locator("ol.feed p.why").first.inner_text().startswith("Why it is here: touches ")
    p.goto(f"{base_url}/watch?lang=en")
    assert p.locator("ul.repos a.repo-name").all_inner_texts() == ["everything"]
    assert watched.errors == []
    assert watched.dialogs == []
