"""A seat is its player's, in the browser: the page keeps the secret its invite's
claim gave (in the address and the browser), a second browser with the same
invite is told the seat is taken, the creator's page makes a new invite that
the table sees, and a seeded table says so in the lobby and on the table."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("httpx")

from playwright.sync_api import Browser

from .test_browser import api_create, invites, join, lobby_tag_shown, watch_errors

pytestmark = pytest.mark.e2e

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def _hash_token(url: str) -> str:
    return url.split("#seat=")[1]


def test_a_claimed_seat_stays_with_its_browser_and_the_creator_can_hand_it_on(live_server: str,
                                                                             browser: Browser) -> None:
    created = api_create(live_server, players=3, seats=["human", "human", "bot:greedy"], seed=5)
    invite_ana, invite_bo = invites(live_server, created)
    ana_ctx, bo_ctx, other_ctx = (browser.new_context(**PHONE) for _ in range(3))
    try:
        # the lobby says the deal is seeded
        lobby = other_ctx.new_page()
        assert lobby_tag_shown(lobby, live_server, created["id"], "seeded-tag")
        lobby.close()

        ana = ana_ctx.new_page()
        errors = watch_errors(ana)
        join(ana, invite_ana, "Ana")
        # the claim's secret replaced the invite in the address and in the browser
        ana.wait_for_function(f"() => !location.hash.includes({_hash_token(invite_ana)!r})")
        secret = _hash_token(ana.url)
        held = ana.evaluate(f"async () => (await import('/static/held.js')).seats.get({created['id']!r}).token")
        assert held == secret
        assert ana.locator('[data-testid="seeded-tag"]').is_visible()

        # a second browser with Ana's invite: taken, and it shows no hand
        thief = other_ctx.new_page()
        thief.goto(invite_ana)
        thief.wait_for_selector('[data-testid="error"]:has-text("This seat has been taken")')
        assert thief.locator('[data-testid="hand"] [data-card]').count() == 0
        thief.close()

        bo = bo_ctx.new_page()
        join(bo, invite_bo, "Bo")
        bo.wait_for_selector('[data-testid="hand"] [data-card]')
        ana.reload()  # Ana's page opens her seat again with the secret it kept
        ana.wait_for_selector('[data-testid="hand"] [data-card]')

        # Bo lost his secret: the creator's page (here Ana's browser holds the creator token) makes a new invite
        ana.evaluate(f"async () => (await import('/static/held.js')).seats.remember({created['id']!r},"
                     f" {{creator: {created['creator']!r}}})")
        ana.click('[data-testid="reinvite-open"]')
        ana.click('[data-testid="reinvite-seat"][data-seat="1"]')
        new_invite = ana.locator('[data-testid="reinvite-url"]')
        new_invite.wait_for()
        url = new_invite.input_value()
        assert url.startswith(live_server + f"/t/{created['id']}#seat=") and url != invite_bo
        # Bo's page says a new invite is out for his seat
        bo.wait_for_selector('[data-testid="reinvited"][data-seat="1"]:has-text("new invite for your seat")')
        # Bo, on another device, opens it: that device has the seat; the old page is told
        bo_again = other_ctx.new_page()
        bo_again.goto(url)
        bo_again.wait_for_selector('[data-testid="hand"] [data-card]')
        bo.wait_for_selector('[data-testid="error"]:has-text("This seat has been taken")')
        assert errors == []
    finally:
        for c in (ana_ctx, bo_ctx, other_ctx):
            c.close()
