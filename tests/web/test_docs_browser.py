"""The API docs render in a browser with no internet: every request the pages make goes
to the service itself (anything else is refused here, so a CDN asset would fail)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Route

from tests.web.conftest import Browser, ServerProcess


async def _offline(browser: Browser, server: ServerProcess) -> list[str]:
    """Refuse every request that does not go to the server; return what was refused."""
    own = urlsplit(server.base_url).netloc
    refused: list[str] = []

    async def only_the_service(route: Route) -> None:
        if urlsplit(route.request.url).netloc == own:
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort()

    await browser.page.route("**/*", only_the_service)
    return refused


async def test_swagger_ui_renders_offline(browser: Browser, server: ServerProcess) -> None:
    refused = await _offline(browser, server)
    page = browser.page
    await page.goto(f"{server.base_url}/docs")
    await page.locator(".swagger-ui .info .title").filter(has_text="Arbiter").wait_for()
    await page.locator(".opblock").first.wait_for()
    operations = await page.locator(".opblock").count()
    assert operations > 40, operations
    assert await page.locator("a[href='/asyncapi.json']").count() == 1
    assert refused == []
    browser.check()


async def test_redoc_renders_offline(browser: Browser, server: ServerProcess) -> None:
    refused = await _offline(browser, server)
    page = browser.page
    await page.goto(f"{server.base_url}/redoc")
    await page.get_by_role("heading", name="Arbiter").first.wait_for()
    await page.locator("h2").filter(has_text="Create").first.wait_for()
    assert await page.locator("h2").count() > 40
    assert refused == []
    # ReDoc's footer links its maker's logo from the web: the page policy blocks that
    # image (nothing is loaded from elsewhere); anything else is an error.
    logo = [e for e in browser.errors if "img-src" in e and "redoc.ly" in e]
    assert [e for e in browser.errors if e not in logo] == []
