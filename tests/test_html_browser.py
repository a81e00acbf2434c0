"""The HTML report in a real browser: Debian's chromium, driven by Playwright (no Playwright browser download).

Needs ``pip install playwright`` and ``apt-get install chromium`` (``/usr/bin/chromium``); skipped otherwise.
Set ``CITEPROOF_SCREENSHOTS=DIR`` to keep screenshots of the rendered report.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof.model import ClaimStatus
from citeproof.reporters.common import STATUS_LABEL
from citeproof.reporters.html import HtmlReporter

from .conftest import EXAMPLE

CHROMIUM = Path(os.environ.get("CITEPROOF_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PAYLOAD = "<script>window.__pwned=1</script>"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@dataclass
class Seen:
    """What the page did besides rendering: script errors and the URLs it requested."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
def page(browser: Any, seen: Seen) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda exc: seen.errors.append(str(exc)))
    page.on("request", lambda request: seen.requests.append(request.url))
    yield page
    context.close()


def open_report(page: Any, tmp_path: Path, html: str, name: str = "report.html") -> None:
    target = tmp_path / name
    target.write_text(html, encoding="utf-8")
    page.goto(target.as_uri())


def screenshot(page: Any, name: str) -> None:
    folder = os.environ.get("CITEPROOF_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_example_report_in_chromium(page: Any, seen: Seen, tmp_path: Path) -> None:
    findings = EXAMPLE / "findings.md"
    report = citeproof.validate(findings, EXAMPLE / "bundle")
    open_report(page, tmp_path, HtmlReporter(findings_text=findings.read_text(encoding="utf-8")).page(report))
    screenshot(page, "example")

    assert page.locator("#verdict").inner_text() == "BLOCKED"
    assert "66.7%" in page.locator("header.summary").inner_text()
    for claim in report.claims:
        card = page.locator(f"#claim-{claim.id}")
        assert card.count() == 1
        assert card.get_attribute("data-status") == claim.status.value
        assert STATUS_LABEL[claim.status] in card.locator("summary .badge").inner_text()
        assert page.locator(f'a.mark[data-claim="{claim.id}"]').first.is_visible()

    card = page.locator("#claim-c5")
    excerpt = card.locator("pre.excerpt")
    assert not excerpt.is_visible()
    card.locator("summary").click()
    assert excerpt.is_visible()
    assert "200 OK @ 2026-01-15T10:30:49.306Z" in excerpt.inner_text()

    # keyboard: Enter on a focused card opens it
    c7 = page.locator("#claim-c7")
    c7.locator("summary").focus()
    page.keyboard.press("Enter")
    assert c7.evaluate("d => d.open") is True
    assert "demisto.log:349" in c7.locator(".suggest").inner_text()

    # following a claim in the findings opens its card; contradictions link to their claims
    page.locator('a.mark[data-claim="c15"]').first.click()
    assert page.locator("#claim-c15").evaluate("d => d.open") is True
    page.locator('#contra-1 a[href="#claim-c1"]').click()
    assert page.locator("#claim-c1").evaluate("d => d.open") is True
    assert page.locator("svg.timeline a.row").count() == 8

    # the CSS-only filter hides verified claims
    page.locator("#only-failing").check()
    assert not page.locator("#claim-c1").is_visible() and page.locator("#claim-c5").is_visible()
    assert seen.errors == []
    assert all(url.startswith("file://") for url in seen.requests), seen.requests


def test_script_in_evidence_is_shown_not_run(page: Any, seen: Seen, tmp_path: Path, make_bundle: Callable[..., Path]) -> None:
    bundle = make_bundle({"app.log": (
        "2026-01-15 10:00:00 INFO service started\n"
        f"2026-01-15 10:00:05 ERROR rejected payload {PAYLOAD} from client\n"
        '2026-01-15 10:00:09 WARN retry <img src=x onerror="window.__pwned=2">\n'
    )})
    text = (f"# Incident\n\n- The service rejected the payload '{PAYLOAD}' at 10:00:05 UTC (`app.log:2`).\n"
            "- The retry was logged as a WARN (`app.log:3`).\n")
    findings = tmp_path / "findings.md"
    findings.write_text(text, encoding="utf-8")
    report = citeproof.validate(findings, bundle)
    open_report(page, tmp_path, HtmlReporter(findings_text=text).page(report))
    screenshot(page, "hostile")

    assert page.evaluate("typeof window.__pwned") == "undefined"
    card = page.locator("#claim-c1")
    card.locator("summary").click()
    assert PAYLOAD in card.locator("pre.excerpt").inner_text()
    assert PAYLOAD in card.locator("summary .text").inner_text()
    assert PAYLOAD in page.locator("#L3").inner_text()
    page.locator("#claim-c2 summary").click()
    assert '<img src=x onerror="window.__pwned=2">' in page.locator("#claim-c2 pre.excerpt").inner_text()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("img").count() == 0
    assert report.claims[0].status is ClaimStatus.VERIFIED
    assert seen.errors == []


def test_static_parts_work_without_javascript(browser: Any, tmp_path: Path) -> None:
    report = citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle")
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        open_report(page, tmp_path, HtmlReporter().page(report))
        assert page.locator("#verdict").inner_text() == "BLOCKED"
        assert page.locator("[data-all]").first.is_hidden()  # buttons that need the script stay hidden
        card = page.locator("#claim-c8")
        card.locator("summary").click()
        assert "315: 2026-01-15 10:30:24.185 WARN" in card.locator("pre.excerpt").inner_text()
        assert page.locator("svg.timeline").is_visible()
    finally:
        context.close()
