"""The scorekeeper's routes: POST /api/score answers what ``sushigo score`` prints
(for thousands of random sheets of both editions), /api/score/setup, and the
sheets kept with an edit token (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from typer.main import get_command

from sheet_samples import random_sheet
from sushigo.cli.app import app as cli
from sushigo.engine.sheets import explain_sheet

from .conftest import ROOT, ServerProcess

RUNNER = CliRunner()
COMMAND = get_command(cli)
"""The command line as click runs it, built once (typer builds it again for every call)."""


def cli_score(sheet: Any) -> tuple[int, str, str]:
    """``sushigo score -`` on this sheet, in process: exit code, stdout, stderr."""
    r = RUNNER.invoke(COMMAND, ["score", "-"], input=json.dumps(sheet))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.slow
def test_route_and_cli_give_identical_results_on_random_sheets(lite_client: TestClient) -> None:
    rng = random.Random(17)
    editions = {"base": 0, "party": 0}
    for _ in range(2000):
        sheet = random_sheet(rng)
        editions[sheet.get("edition", "base")] += 1
        code, out, _ = cli_score(sheet)
        r = lite_client.post("/api/score", json=sheet)
        assert code == 0 and r.status_code == 200
        assert r.json() == json.loads(out)
    assert min(editions.values()) > 800


def broken(rng: random.Random) -> Any:
    """A random sheet spoiled in one of the ways a table gets wrong."""
    sheet = random_sheet(rng)
    rounds = sheet["rounds"]
    r, s = rng.randrange(len(rounds)), rng.randrange(sheet["players"])
    way = rng.randrange(5)
    if way == 0:
        rounds[r][s] = rounds[r][s] + ["tempura"] * 12  # more than a hand
    elif way == 1:
        rounds[r][s] = rounds[r][s][:1] + ["no_such_card"]
    elif way == 2:
        for col in rounds[r]:
            col[:] = ["squid"] * min(len(col) + 1, 7)  # more squid than the box holds
    elif way == 3:
        sheet["players"] = sheet["players"] + 4
    else:
        rounds[r] = rounds[r][:-1]
    return sheet


def test_route_and_cli_refuse_the_same_sheets_with_the_same_line(lite_client: TestClient) -> None:
    rng = random.Random(5)
    refused = 0
    for _ in range(400):
        sheet = broken(rng)
        code, out, err = cli_score(sheet)
        r = lite_client.post("/api/score", json=sheet)
        explained = lite_client.post("/api/score?explain=true", json=sheet)
        assert explained.status_code == r.status_code
        if code != 0:
            assert explained.json()["error"] == r.json()["error"]
        if code == 0:
            assert r.status_code == 200 and r.json() == json.loads(out)
            continue
        refused += 1
        assert r.status_code == 400
        line = r.json()["error"]
        assert "\n" not in line and err.strip().endswith(line), (err, line)
    assert refused > 300


def test_explain_adds_the_engine_s_explanations(lite_client: TestClient) -> None:
    sheet = {"players": 2, "rounds": [[["wasabi", "squid", "tempura", "tempura"], ["maki3", "pudding"]]]}
    r = lite_client.post("/api/score?explain=true", json=sheet)
    assert r.status_code == 200
    body = r.json()
    story = explain_sheet(sheet)
    assert {k: body[k] for k in story["result"]} == story["result"]
    assert body["explain"]["rounds"] == story["rounds"]
    assert body["explain"]["rounds"][0]["figures"][1][0]["text"] == "3 maki icons: the most, 6"


def test_errors_are_one_line_with_where_they_happen(lite_client: TestClient) -> None:
    r = lite_client.post("/api/score?explain=true", json={"players": 2, "rounds": [[["egg"] * 11, []]]})
    assert r.status_code == 400
    assert r.json() == {"error": "round 1, seat 0: 11 cards, but a 2-player hand holds 10",
                        "where": {"round": 1, "seat": 0}}
    r = lite_client.post("/api/score", json={"edition": "party", "players": 3, "menu": "Sushi Go!",
                                              "rounds": [[["eel"], [], []]]})
    assert r.status_code == 400 and r.json()["where"] == {"round": 1, "seat": 0}
    assert "eel" in r.json()["error"]
    for body in (b"", b"{", b"[" * 100000, b"\"x\""):
        r = lite_client.post("/api/score", content=body)
        assert r.status_code in (400, 413), body[:10]
        assert "\n" not in r.json()["error"]
    r = lite_client.post("/api/score", content=b" " * 70000)
    assert r.status_code == 413


def test_too_many_copies_is_named_at_a_round_and_seat(lite_client: TestClient) -> None:
    """The original game counts copies over all rounds, Party per round: either way
    the line and ``where`` name the seat whose cards pass what the deck holds."""
    base = {"players": 3, "rounds": [[["wasabi"] * 2, ["wasabi"] * 2, []], [[], ["wasabi"], ["wasabi"] * 2]]}
    r = lite_client.post("/api/score?explain=true", json=base)
    assert r.status_code == 400
    assert r.json() == {"error": "round 2, seat 2: 2 wasabi cards here make 7 in all rounds, but the deck holds 6",
                        "where": {"round": 2, "seat": 2}}
    party = {"edition": "party", "players": 3, "menu": "Sushi Go!",
             "rounds": [[["squid"] * 2, ["egg"], ["squid"] * 2]]}
    r = lite_client.post("/api/score?explain=true", json=party)
    assert r.status_code == 400
    assert r.json() == {"error": "round 1, seat 2: 2 squid cards here make 4 in this round, but the box holds 3",
                        "where": {"round": 1, "seat": 2}}


def test_setup_answers_the_entries_and_the_dish_card(lite_client: TestClient) -> None:
    r = lite_client.post("/api/score/setup", json={"edition": "party", "players": 4, "menu": "Master Menu"})
    assert r.status_code == 200
    body = r.json()
    assert body["hand_size"] == 9 and len(body["dishes"]) == 8
    assert all(e["tokens"] and e["label"] for e in body["entries"])
    r = lite_client.post("/api/score/setup", json={"players": 6})
    assert r.status_code == 400 and "players" in r.json()["error"]


def test_sheets_are_kept_with_an_edit_token(client: TestClient) -> None:
    sheet = {"players": 2, "rounds": [[["tempura"], []]], "meta": {"names": ["Ana", "Ben"]}}
    r = client.post("/api/sheets", json={"sheet": sheet})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["edit"] == f"/score/{made['id']}#edit={made['token']}"
    got = client.get(f"/api/sheets/{made['id']}").json()
    assert got["sheet"] == sheet and got["version"] == 1
    sheet["rounds"][0][1] = ["squid", "squid", "not yet a card"]  # a table's mistake is kept too
    r = client.put(f"/api/sheets/{made['id']}", json={"token": made["token"], "sheet": sheet})
    assert r.status_code == 200 and r.json()["version"] == 2
    assert client.get(f"/api/sheets/{made['id']}").json()["sheet"] == sheet
    r = client.put(f"/api/sheets/{made['id']}", json={"token": "wrong", "sheet": {"players": 2, "rounds": []}})
    assert r.status_code == 403
    assert client.get(f"/api/sheets/{made['id']}").json()["sheet"] == sheet  # nothing saved is lost
    assert client.get("/api/sheets/nope").status_code == 404
    assert client.put("/api/sheets/nope", json={"token": "t", "sheet": sheet}).status_code == 404
    for bad in ({"sheet": {"players": 9}}, {"sheet": []}, {"nosheet": 1},
                {"sheet": {"players": 2, "rounds": [[]] * 4}}):
        r = client.post("/api/sheets", json=bad)
        assert r.status_code == 400 and "\n" not in r.json()["error"], bad
    r = client.put(f"/api/sheets/{made['id']}", json={"sheet": sheet})
    assert r.status_code == 400


def test_a_kept_sheet_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    import httpx

    server = ServerProcess(db)
    try:
        made = httpx.post(server.url + "/api/sheets", json={"sheet": {"players": 3, "rounds": [[[], [], []]]}}).json()
        server.kill()
        server = ServerProcess(db)
        got = httpx.get(server.url + f"/api/sheets/{made['id']}").json()
        assert got["sheet"]["players"] == 3
        page = httpx.get(server.url + f"/score/{made['id']}")
        assert page.status_code == 200 and "scorekeeper.js" in page.text
    finally:
        server.stop()


@pytest.mark.slow
def test_the_real_command_and_the_real_server_agree(tmp_path: Path) -> None:
    import httpx

    rng = random.Random(99)
    sheets = [random_sheet(rng) for _ in range(6)]
    server = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        for sheet in sheets:
            out = subprocess.run([sys.executable, "-m", "sushigo", "score", "-"], input=json.dumps(sheet),
                                 capture_output=True, text=True, cwd=ROOT, check=True).stdout
            assert httpx.post(server.url + "/api/score", json=sheet).json() == json.loads(out)
    finally:
        server.stop()
