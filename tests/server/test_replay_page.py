"""The replay viewer (/t/{id}/replay, /replay/{upload id}, /replay) in headless Chromium at
desktop and phone size: a finished table reached from its final screen and an uploaded record,
both editions, stepped through with the keyboard and the buttons from every seat's point of
view and the spectator's; at every step what the page shows is compared with the server's
replay document for that point of view (itself checked against the engine in test_replays.py);
the evaluation graph and each mistake's better choice once analysed; bad uploads.
Screenshots go to build/screenshots/."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.editions import to_record
from sushigo.engine.rules import Rules

# The helpers of the table's browser tests (importing them skips this module where Chromium,
# Playwright or httpx is missing).
from .test_browser import api_create, finish_elsewhere, invites, join, shot, to_fixed, watch_errors

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shown(page: Page) -> dict[str, Any]:
    """What the page shows of the current step."""
    return page.evaluate("""() => {
      const q = (s) => document.querySelector(`[data-testid="${s}"]`);
      const all = (s, root) => Array.from((root || document).querySelectorAll(`[data-testid="${s}"]`));
      const moment = q("moment");
      return {
        info: q("step-info").textContent,
        kind: moment.getAttribute("data-kind"),
        round: Number(moment.getAttribute("data-round")),
        turn: moment.getAttribute("data-turn"),
        hand: all("card", moment.querySelector('[data-testid="replay-hand"]') || document.createElement("div"))
          .map((c) => c.getAttribute("data-card")),
        chosenCards: all("card", moment).filter((c) => c.getAttribute("data-chosen") === "true")
          .map((c) => c.getAttribute("data-card")),
        chosen: q("chosen") ? q("chosen").textContent : null,
        decision: q("decision-info") ? q("decision-info").textContent : null,
        lines: all("log-line").map((l) => l.textContent),
        scores: all("seat").map((s) => [Number(s.getAttribute("data-seat")),
                                        s.querySelector('[data-testid="seat-score"]').textContent]),
        collections: all("seat").map((s) => [Number(s.getAttribute("data-seat")),
          all("group", s.querySelector('[data-testid="collection"]') || document.createElement("div"))"""
    """.map((g) => [g.getAttribute("data-card"), Number(g.getAttribute("data-count")),
                                      g.querySelector(".stack") ? 2 : 1])]),
        roundEnd: q("round-end").hidden ? null : Number(q("round-end").getAttribute("data-round")),
        scrubber: [Number(q("scrubber").value), Number(q("scrubber").max)],
        pov: q("pov").value,
        hash: location.hash,
      };
    }""")


def check_step(page: Page, doc: dict[str, Any], n: int) -> dict[str, Any]:
    """The page shows step ``n`` of ``doc``, as the document says."""
    step = doc["steps"][n]
    got = shown(page)
    seat = doc["seat"]
    where = (doc["seat"], n, step["kind"], got)
    assert got["kind"] == step["kind"] and got["round"] == step["round"], where
    assert got["turn"] == ("" if step["turn"] is None else str(step["turn"])), where
    assert got["scrubber"] == [n, len(doc["steps"]) - 1] and f"step {n + 1} of {len(doc['steps'])}" in got["info"]
    assert got["pov"] == ("" if seat is None else str(seat))
    assert got["hash"] == f"#pov={'spectator' if seat is None else seat}&step={n}"
    view = step["view"]
    if seat is None or step["kind"] in ("round_end", "end"):
        assert got["hand"] == [], where  # a spectator never sees a hand
    else:
        assert got["hand"] == view["hand"], where
    if step["chosen"] is None:
        assert got["chosen"] is None, where
    else:
        assert got["chosen"] == f"{doc['names'][seat]} chose {step['chosen']['words']}.", where
        if step["kind"] == "pick" and "+" not in step["chosen"]["text"] and ">" not in step["chosen"]["text"]:
            assert got["chosenCards"] == [step["chosen"]["text"]], where
    if view.get("decision") and step["kind"] not in ("pick", "round_end", "end"):
        assert got["decision"] and got["decision"].startswith(doc["names"][view["decision"]["seat"]] + "'s "), where
    assert len(got["lines"]) == step["lines"], where
    totals = view["result"]["totals"]
    assert sorted(got["scores"]) == [[i, f"Score {totals[i]}"] for i in range(doc["players"])], where
    if step["kind"] in ("round_end", "end"):
        assert got["roundEnd"] == step["round"], where
    else:
        assert got["roundEnd"] is None, where
        for i, groups in got["collections"]:
            # every card of the view's collection is drawn (a nigiri on its wasabi: two cards, one group)
            assert sum(count * cards for _, count, cards in groups) == len(view["collections"][i]), where
    return got


def replay_doc(base: str, api: str, seat: int | None) -> dict[str, Any]:
    r = httpx.get(base + api + ("" if seat is None else f"?seat={seat}"), timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("edition, viewport", [("base", DESKTOP), ("party", PHONE)],
                         ids=["base-desktop", "party-phone"])
def test_replay_a_finished_table_from_every_seat(live_server: str, browser: Browser, edition: str,
                                                 viewport: dict[str, int]) -> None:
    """From a table's final screen to its replay: every step, with the keyboard (and the
    buttons), from each seat and the spectator, shows what the server's document says."""
    body: dict[str, Any] = {"edition": edition, "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "seed": 9}
    if edition == "party":
        body["menu"] = "Master Menu"
    created = api_create(live_server, **body)
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        join(page, invites(live_server, created)[0], "Ann")
        finish_elsewhere(page, live_server, created, seed=4)
        link = page.locator('[data-testid="replay-link"]')
        assert link.get_attribute("href") == f"/t/{created['id']}/replay#pov=0"
        link.click()
        page.wait_for_selector('[data-testid="moment"]:not([hidden])')
        api = f"/api/tables/{created['id']}/replay"
        doc = replay_doc(live_server, api, 0)
        assert doc["names"][0] == "Ann"
        kinds: dict[str, int] = {}
        for n in range(len(doc["steps"])):  # every step from the keyboard
            if n:
                page.keyboard.press("ArrowRight")
            got = check_step(page, doc, n)
            kind = doc["steps"][n]["kind"]
            if kind not in kinds:
                kinds[kind] = n
                shot(page, f"replay-{edition}-{viewport['width']}-{kind}")
        assert {"pick", "round_end", "end"} <= set(kinds)
        assert got["lines"] and "Winner" in (page.locator('[data-testid="moment"]').text_content() or "")
        assert page.locator('[data-testid="next"]').is_disabled()
        page.keyboard.press("Home")
        check_step(page, doc, 0)
        assert page.locator('[data-testid="prev"]').is_disabled()
        page.keyboard.press("End")
        check_step(page, doc, len(doc["steps"]) - 1)
        # the other points of view, by the select, keeping the moment; the first round's
        # steps by the buttons (the later rounds are drawn by the same code from seat 0)
        at = len(doc["steps"]) - 1
        for seat in (None, 1, 2):
            page.select_option('[data-testid="pov"]', "" if seat is None else str(seat))
            other = replay_doc(live_server, api, seat)
            page.wait_for_function(f"() => location.hash.startsWith('#pov={'spectator' if seat is None else seat}&')")
            check_step(page, other, at)
            page.click('[data-testid="first"]')
            first_round = [s["kind"] for s in other["steps"]].index("round_end") + 1
            for at in range(first_round):
                if at:
                    page.click('[data-testid="next"]')
                check_step(page, other, at)
            if seat is None:
                shot(page, f"replay-{edition}-{viewport['width']}-spectator")
        # the address names a moment: a reload shows it again
        page.click('[data-testid="prev"]')
        page.reload()
        page.wait_for_selector('[data-testid="moment"]:not([hidden])')
        check_step(page, replay_doc(live_server, api, 2), at - 1)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("rules, viewport", [(Rules(4), PHONE), (Rules.party(2, "Dinner for Two"), DESKTOP)],
                         ids=["base-phone", "party-desktop"])
def test_upload_a_record_replay_and_analyse_it(live_server: str, browser: Browser, rules: Rules,
                                              viewport: dict[str, int]) -> None:
    """An uploaded record's replay, analysed for one seat: the graph's points and the mistakes
    lead to their steps, each showing the values and the better choice."""
    game = play_game([make_bot("random", s) for s in range(rules.players)], rules=rules, seed=21)
    names = ["Ann", "Bo", "Cy", "Di"][:rules.players]
    record = json.dumps(to_record(game, meta={"names": names}))
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/")
        page.click('[data-testid="replay-upload-link"]')
        page.wait_for_selector('[data-testid="upload"]:not([hidden])')
        page.fill('[data-testid="upload-text"]', '{"players": 3, "rounds": []}')
        page.click('[data-testid="upload-submit"]')
        err = page.locator('[data-testid="upload-error"]')
        page.wait_for_function("() => document.querySelector('[data-testid=\"upload-error\"]').textContent")
        assert ((err.text_content() or "").startswith("That is not a game record")
                and "\n" not in (err.text_content() or ""))
        shot(page, f"replay-upload-error-{viewport['width']}")
        if rules.is_party:  # by the file input
            page.set_input_files('[data-testid="upload-file"]', files=[
                {"name": "game.json", "mimeType": "application/json", "buffer": record.encode()}])
            page.wait_for_function("(n) => document.querySelector('[data-testid=\"upload-text\"]').value.length === n",
                                   arg=len(record))
        else:
            page.fill('[data-testid="upload-text"]', record)
        page.click('[data-testid="upload-submit"]')
        page.wait_for_url("**/replay/*")
        page.wait_for_selector('[data-testid="moment"]:not([hidden])')
        rid = page.url.split("/replay/")[1].split("#")[0]
        page.select_option('[data-testid="pov"]', "1")
        page.wait_for_selector('[data-testid="analyse"]')
        page.click('[data-testid="analyse"]')
        page.wait_for_selector('[data-testid="analysis-summary"]', timeout=120_000)
        doc = replay_doc(live_server, f"/api/replays/{rid}", 1)
        job = httpx.get(f"{live_server}/api/replays/{rid}/analysis?seat=1", timeout=10).json()
        decisions = job["analysis"]["seats"][0]["decisions"]
        at = {(s["round"], s["turn"], s["index"]): s["n"] for s in doc["steps"] if s["chosen"]}
        assert page.locator('[data-testid="eval-point"]').count() == len(decisions)
        labelled = [d for d in decisions if d["label"]]
        assert labelled, "a random player makes mistakes"
        buttons = page.locator('[data-testid="mistake"]')
        assert buttons.count() == len(labelled)
        for k, d in enumerate(labelled):  # each mistake leads to its step, with the values and the better choice
            page.locator('[data-testid="mistake"]').nth(k).click()
            n = at[(d["round"], d["turn"], d["index"])]
            check_step(page, doc, n)
            better = page.locator('[data-testid="better"]').text_content() or ""
            assert d["best_words"] in better and to_fixed(d["loss"], 1) in better, (better, d)
            rows = page.locator('[data-testid="step-value"]')
            assert rows.count() == len(d["values"])
            assert rows.first.get_attribute("data-action") == d["best"]
            played = page.locator('[data-testid="step-value"][data-played="true"]')
            assert played.get_attribute("data-action") == d["played"]
            if k == 0:
                shot(page, f"replay-analysed-{rules.edition}-{viewport['width']}")
        mistakes = [at[(d["round"], d["turn"], d["index"])] for d in labelled]
        page.keyboard.press("Home")
        page.keyboard.press("]")  # the next mistake after the first step
        check_step(page, doc, next(n for n in mistakes if n > 0))
        page.keyboard.press("End")
        page.keyboard.press("[")  # the last mistake
        check_step(page, doc, mistakes[-1])
        point = page.locator('[data-testid="eval-point"]').nth(len(decisions) // 2)
        point.click()
        d = decisions[len(decisions) // 2]
        check_step(page, doc, at[(d["round"], d["turn"], d["index"])])
        assert page.locator('[data-testid="eval-point"][data-current="true"]').count() == 1
        assert page.locator('[data-testid="step-analysis"]').count() == 1
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_replay_viewer_has_no_serious_accessibility_violation(live_server: str, browser: Browser,
                                                                  viewport: dict[str, int]) -> None:
    """axe-core finds no serious or critical violation on the upload form, a step with the
    analysed decision, a Party decision after the reveal and a round's end."""
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_sync.Axe()
    game = play_game([make_bot("greedy", s) for s in range(3)], rules=Rules.party(3, "Master Menu"), seed=3)
    up = httpx.post(f"{live_server}/api/replays", content=json.dumps(to_record(game)), timeout=30).json()
    rid = up["id"]
    assert httpx.post(f"{live_server}/api/replays/{rid}/analysis", json={"seat": 0}, timeout=30).status_code == 202
    doc = replay_doc(live_server, f"/api/replays/{rid}", 0)
    later = next(s["n"] for s in doc["steps"] if s["kind"] not in ("pick", "round_end", "end"))
    round_end = next(s["n"] for s in doc["steps"] if s["kind"] == "round_end")
    found: dict[str, list[str]] = {}
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()

        def scan(where: str) -> None:
            violations = axe.run(page).response["violations"]
            found[where] = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in violations
                            if v["impact"] in ("serious", "critical")]

        page.goto(live_server + "/replay")
        page.wait_for_selector('[data-testid="upload"]:not([hidden])')
        scan("upload form")
        page.goto(f"{live_server}/replay/{rid}#pov=0&step=1")
        page.wait_for_selector('[data-testid="analysis-summary"]', timeout=120_000)
        page.wait_for_selector('[data-testid="step-analysis"]')
        scan("analysed step")
        page.goto(f"{live_server}/replay/{rid}#pov=0&step={later}")
        page.reload()
        page.wait_for_selector(f'[data-testid="moment"][data-kind="{doc["steps"][later]["kind"]}"]')
        scan("decision after the reveal")
        page.goto(f"{live_server}/replay/{rid}#pov=spectator&step={round_end}")
        page.reload()
        page.wait_for_selector('[data-testid="round-end"]:not([hidden])')
        scan("round end")
        assert found == {where: [] for where in ("upload form", "analysed step", "decision after the reveal",
                                                 "round end")}
    finally:
        ctx.close()
