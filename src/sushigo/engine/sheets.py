"""A physical table's score sheet, explained for its scorekeeper.

The scorekeeper page of ``sushigo serve`` (``/score``) enters each seat's
collection as counts of *entries*: a card (``tempura``), a nigiri with the
wasabi it sits on (``wasabi squid``), a special order's copy
(``special_order>eel``), a face-down card (``face_down``).  This module is
the one place that says which entries a table's setup offers
(:func:`palette`), how counts of them become a score sheet's ordered
collection (each entry's ``rank``: plain cards first, then the nigiri on
their wasabi, then empty wasabi, so that every nigiri lands where the table
put it, by the sheet format's own rule), and what each figure of the
result means in words (:func:`explain_sheet`: the engine's explanations, the
same the game table shows).  The scoring itself is
:func:`sushigo.engine.editions.score_sheet`, as for ``sushigo score``.

>>> sheet = {"players": 2, "rounds": [[["wasabi", "squid", "tempura", "tempura"], ["maki3", "pudding"]]]}
>>> story = explain_sheet(sheet)
>>> story["result"]["rounds"], [f["text"] for f in story["rounds"][0]["figures"][0]]
([[14, 6]], ['2 tempura: 1 pair, 5', 'squid on wasabi 9: 9'])
>>> story["rounds"][0]["entries"][0]
{'wasabi squid': 1, 'tempura': 2}
>>> [e.key for e in palette(sheet_rules(sheet))][:4]
['egg', 'salmon', 'squid', 'wasabi egg']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sushigo.engine.base.cards import Card
from sushigo.engine.base.explain import explain_puddings, explain_round
from sushigo.engine.base.record import base_sheet_collections, base_sheet_rules, score_collections
from sushigo.engine.base.scoring import wasabi_pairs
from sushigo.engine.guide import card_words, demonstrations, dishes, how_to_play, how_to_play_said
from sushigo.engine.messages import N_, Label, Param, as_json, label, msg, render
from sushigo.engine.narration import Line, winners_line
from sushigo.engine.party.cards import cards_of_item
from sushigo.engine.party.explain import dessert_figures, explain_party_collections
from sushigo.engine.party.record import party_sheet_rules, read_party_sheet
from sushigo.engine.points import RoundStory
from sushigo.engine.records import RecordError, edition_of, expect
from sushigo.engine.rules import NUM_ROUNDS, Rules

_WORDS: Final = card_words()
_LABELS: Final[dict[str, str]] = _WORDS["labels"]
_ITEMS: Final[dict[str, str]] = _WORDS["items"]
_SLOTS: Final = frozenset({"wasabi", "special_order>wasabi", "face_down"})
"""What a nigiri can sit on: a wasabi, a special order copying one, a flipped wasabi."""
_NIGIRI: Final = ("egg", "salmon", "squid")
_GROUP_LABELS: Final = {"nigiri": N_("Nigiri and wasabi"), "maki": N_("Maki rolls"),
                        "special_order": N_("Special order copies"),
                        "takeout_box": N_("Takeout box (face-down cards)"), "chopsticks": N_("Chopsticks")}


@dataclass(frozen=True, slots=True)
class Entry:
    """One button of the scorekeeper: what the table sees in front of a seat."""

    key: str
    """Its sheet tokens joined by a space, e.g. ``'wasabi squid'``."""
    label: str
    """E.g. ``'Squid nigiri on Wasabi'`` (:attr:`said` in English)."""
    group: str
    """The menu item it belongs to (``nigiri``, ``maki``, ``special_order``...)."""
    tokens: tuple[str, ...]
    """What it adds to a collection of the score sheet, in order."""
    rank: int
    """Where its tokens go in the collection: 0 first, 2 last."""
    cards: tuple[str, ...]
    """The physical cards to draw (record names)."""
    said: Param
    """Its label as a message, for a reader in any language."""

    def to_json(self) -> dict[str, Any]:
        """The entry for the scorekeeper; ``label_msg`` and ``group_label_msg``: its label and
        its group's as messages (:func:`~sushigo.engine.messages.as_json`).

        >>> entry_of("wasabi squid").to_json()["label_msg"]["id"]
        '{nigiri} on {slot}'
        """
        group = _GROUP_LABELS.get(self.group, _LABELS.get(self.group, self.group.replace("_", " ").capitalize()))
        return {"key": self.key, "label": self.label, "label_msg": as_json(self.said), "group": self.group,
                "group_label": group, "group_label_msg": as_json(Label(group)),
                "tokens": list(self.tokens), "rank": self.rank, "cards": list(self.cards)}


def _token_said(token: str) -> Param:
    if token.startswith("special_order>"):
        target = token[len("special_order>"):].removesuffix("+wasabi")
        return msg("Special order as {card}", card=_token_said(target))
    if token in ("face_down+wasabi", "face_down"):
        return label("Face-down card")
    if token.endswith("+face_down"):
        return _token_said(token[:-len("+face_down")])
    return Label(_LABELS.get(token, token))


def _drawn(token: str) -> str:
    if token.startswith("special_order>"):
        return "special_order"
    if token.startswith("face_down"):
        return "face_down"
    return token.removesuffix("+face_down")


def _entry(tokens: Sequence[str], group: str) -> Entry:
    tokens = tuple(tokens)
    said: Param
    if len(tokens) == 2:
        slot, nigiri = tokens
        said = msg("{nigiri} on a flipped Wasabi", nigiri=_token_said(nigiri)) if slot == "face_down" else \
            msg("{nigiri} on {slot}", nigiri=_token_said(nigiri), slot=_token_said(slot))
        rank = 1
    else:
        said, rank = _token_said(tokens[0]), 2 if tokens[0] in _SLOTS else 0
        if tokens[0] == "wasabi":
            said = label("Wasabi (empty)")
        elif tokens[0] == "special_order":
            said = label("Special order (copied nothing)")
    return Entry(" ".join(tokens), render(said), group, tokens, rank, tuple(_drawn(t) for t in tokens), said)


def entry_of(key: str) -> Entry:
    """The entry a key names (for keys found in an imported sheet), its group
    from its first card.

    >>> entry_of("special_order>wasabi salmon").label
    'Salmon nigiri on Special order as Wasabi'
    """
    tokens = key.split(" ")
    last = tokens[-1]
    group = ("special_order" if last.startswith("special_order>") else "takeout_box" if last.startswith("face_down")
             else "nigiri" if len(tokens) == 2 or last == "wasabi" else
             _ITEMS.get(last, last))
    return _entry(tokens, group)


def sheet_rules(data: Any) -> Rules:
    """The rules of a score sheet's setup (players; for Party the menu and options), checked."""
    expect(data, dict, msg("score sheet"), msg("the score sheet"))
    return party_sheet_rules(data) if edition_of(data) == "party" else base_sheet_rules(data)


def _accepted(rules: Rules, tokens: Sequence[str]) -> bool:
    """Whether the Party sheet reader takes these tokens as one collection (the one check)."""
    sheet = {"edition": "party", "players": rules.players, "menu": list(rules.menu),
             "options": rules.options(), "rounds": [[list(tokens)] + [[]] * (rules.players - 1)]}
    try:
        read_party_sheet(sheet)
    except RecordError:
        return False
    return True


def palette(rules: Rules) -> list[Entry]:
    """The entries a scorekeeper offers for a table with these rules, in board order."""
    if not rules.is_party:
        out = [_entry([n], "nigiri") for n in _NIGIRI]
        out += [_entry(["wasabi", n], "nigiri") for n in _NIGIRI] + [_entry(["wasabi"], "nigiri")]
        out += [_entry([m], "maki") for m in ("maki1", "maki2", "maki3")]
        out += [_entry([c], c) for c in ("tempura", "sashimi", "dumpling", "pudding", "chopsticks")]
        return out
    menu = rules.menu
    names = [[c.name_in_records for c in cards_of_item(item, rules.uramaki_split)] for item in menu]
    out = []
    copies: list[Entry] = []
    for item, cards in zip(menu, names):
        if item in ("menu", "takeout_box", "special_order"):
            continue  # a menu or takeout box leaves the collection as it resolves; copies come below
        out += [_entry([c], item) for c in cards]
        if item == "nigiri" and "wasabi" in menu:
            out += [_entry(["wasabi", n], "nigiri") for n in _NIGIRI]
        copies += [_entry([f"special_order>{c}"], "special_order") for c in cards]
        if item == "wasabi":
            out[-1] = _entry(["wasabi"], "wasabi")
    if "special_order" in menu:
        # played with nothing to copy, or copying one that copied nothing
        copies[:0] = [_entry(["special_order"], "special_order"),
                      _entry(["special_order>special_order"], "special_order")]
        if "wasabi" in menu:
            on = list(_NIGIRI) + [f"special_order>{n}+wasabi" for n in _NIGIRI]
            copies += [_entry([slot, n], "special_order") for slot in ("wasabi", "special_order>wasabi") for n in on
                       if slot != "wasabi" or n.startswith("special_order>")]
        if "takeout_box" in menu:
            copies.append(_entry(["special_order>face_down"], "special_order"))
        out += [e for e in copies if _accepted(rules, e.tokens)]
    if "takeout_box" in menu:
        out.append(_entry(["face_down"], "takeout_box"))
        if "wasabi" in menu:
            out.append(_entry(["wasabi", "face_down+wasabi"], "takeout_box"))
            if "special_order" in menu:
                out.append(_entry(["special_order>wasabi", "face_down+wasabi"], "takeout_box"))
            out += [_entry(["face_down", f"{n}+face_down"], "takeout_box") for n in _NIGIRI]
    return out


def setup(data: Any) -> dict[str, Any]:
    """What the scorekeeper needs for a sheet's setup: the hand size, the entries
    (:func:`palette`), the uramaki race when on the menu, and the "How each dish
    scores" card (the game table's rules panel).

    >>> s = setup({"edition": "party", "players": 3, "menu": "Sushi Go!"})
    >>> s["hand_size"], s["race"], [d["item"] for d in s["dishes"]][:3]
    (10, False, ['nigiri', 'maki', 'tempura'])
    """
    rules = sheet_rules(data)
    return {"edition": rules.edition, "players": rules.players, "hand_size": rules.hand_size,
            "menu": list(rules.menu) if rules.is_party else None,
            "race": rules.is_party and "uramaki" in rules.menu,
            "entries": [e.to_json() for e in palette(rules)],
            "how_to_play": how_to_play(rules), "how_to_play_msg": [m.to_json() for m in how_to_play_said(rules)],
            "dishes": [d.to_json() for d in dishes(rules)],
            "demonstrations": [d.to_json() for d in demonstrations(rules)]}


def _entries(tokens: Sequence[str], pairs: dict[int, int]) -> dict[str, int]:
    on = {slot: i for i, slot in pairs.items()}
    keys: Counter[str] = Counter()
    for i, token in enumerate(tokens):
        if i in pairs:
            continue
        keys[f"{token} {tokens[on[i]]}" if i in on else token] += 1
    return dict(keys)


def _token(text: Any) -> str:
    return " ".join(str(text).split()).lower()


def explain_sheet(data: Any) -> dict[str, Any]:
    """Score a sheet and explain every figure: ``result`` (what ``sushigo score``
    prints), and per round each seat's ``figures`` (category, count, points,
    sentence), the roll ``races`` and the collections as counts of ``entries``;
    the ``dessert`` and how many of its cards each seat ``kept`` so far;
    with all three rounds, ``end``: the dessert ``figures`` (Party) or pudding
    ``lines`` and the ``winners`` sentence with its tiebreak (``{n}``: seat ``n``).

    Raises :class:`~sushigo.engine.records.RecordError` as ``sushigo score`` does.
    """
    expect(data, dict, msg("score sheet"), msg("the score sheet"))
    story = _explain_party(data) if edition_of(data) == "party" else _explain_base(data)
    keys = sorted({k for rnd in story["rounds"] for seat in rnd["entries"] for k in seat})
    story["labels"] = {k: entry_of(k).to_json() for k in keys}
    return story


def _round(story: RoundStory, entries: list[dict[str, int]]) -> dict[str, Any]:
    return {**story.to_json(), "entries": entries}


def _winners(line: Line) -> dict[str, Any]:
    return {"winners": line.text, "winners_msg": None if line.message is None else as_json(line.message)}


def _explain_party(data: dict[str, Any]) -> dict[str, Any]:
    sheet = read_party_sheet(data)
    result, rules = sheet.result, sheet.rules
    rounds = []
    for r, cols in enumerate(sheet.rounds):
        story = explain_party_collections(cols, result.breakdown[r], rules.menu, rules.wasabi_colour)
        texts = [[_token(t) for t in col] for col in data["rounds"][r]]
        rounds.append(_round(story, [_entries(t, {p.uid: p.on for p in col if p.on >= 0})
                                     for t, col in zip(texts, cols)]))
    end = None
    if len(sheet.rounds) == NUM_ROUNDS:
        figures = dessert_figures(sheet.desserts, rules.menu[-1], rules.two_player_pudding_penalty)
        end = {"figures": [f.to_json() for f in figures], "lines": [],
               **_winners(winners_line(3, result.totals, result.winners, "dessert cards"))}
    return {"result": result.to_json(), "rounds": rounds, "end": end, "dessert": rules.menu[-1],
            "kept": list(result.dessert_cards)}


def _explain_base(data: dict[str, Any]) -> dict[str, Any]:
    collections = base_sheet_collections(data)
    result = score_collections(collections)
    rounds = [_round(explain_round(cols), [_entries([Card(c).name_in_records for c in col], wasabi_pairs(col))
                                           for col in cols]) for cols in collections]
    end = None
    if len(collections) == NUM_ROUNDS:
        puddings = explain_puddings(result.puddings)
        end = {"figures": None, "lines": [render(puddings)], "lines_msg": [puddings.to_json()],
               **_winners(winners_line(3, result.totals, result.winners, "puddings"))}
    return {"result": result.to_json(), "rounds": rounds, "end": end, "dessert": "pudding",
            "kept": list(result.puddings)}


_WHERE: Final = re.compile(r"^(?:uramaki, )?round (\d+)(?:, seat (\d+))?")


def where_of(error: RecordError) -> dict[str, int]:
    """The round (1-3) and seat (from 0) an error's message names, those it names.

    >>> where_of(RecordError("round 2, seat 1: 11 cards, but a 4-player hand holds 8"))
    {'round': 2, 'seat': 1}
    """
    m = _WHERE.match(str(error))
    if m is None:
        return {}
    out = {"round": int(m.group(1))}
    if m.group(2) is not None:
        out["seat"] = int(m.group(2))
    return out


__all__ = ["Entry", "entry_of", "explain_sheet", "palette", "setup", "sheet_rules", "where_of"]
