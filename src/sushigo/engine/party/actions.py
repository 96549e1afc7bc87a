"""The integer action encoding of Sushi Go Party!.

Every decision a seat makes in Party, the simultaneous pick and every choice
made while specials resolve, is one integer in ``range(PARTY_NUM_ACTIONS)``:

================  =========================================  =====================
action id         meaning                                    text form
================  =========================================  =====================
``0 .. 45``       the card with that id: pick it, play it    ``salmon``
                  with chopsticks, ask for it with a spoon,
                  choose it from a Menu draw
``46 .. 91``      a special order copying card id ``a-46``   ``special_order>salmon``
``92``            a special order copying a face-down card   ``special_order>face_down``
``93 .. 95``      a special order copying egg / salmon /     ``special_order>egg+wasabi``
                  squid, placed on an empty wasabi
``96``            pass: don't use this chopsticks or spoon,  ``pass``
                  flip no more cards
``97 .. 160``     flip collection position ``a-97`` face     ``flip:3``
                  down (takeout box)
================  =========================================  =====================

A special order names what it copies when it is played (it is placed face
down, pointing at that card), so the copy is part of the action.  A bare
``special_order`` (id 38) is only legal when there is nothing to copy.

>>> encode_copy(PartyCard.SALMON)
53
>>> party_action_name(53), party_action_name(94), party_action_name(99)
('special_order>salmon', 'special_order>salmon+wasabi', 'flip:2')
>>> parse_party_action("special_order>squid+wasabi")
95
"""

from __future__ import annotations

from typing import Final

from sushigo.engine.errors import InvalidActionError
from sushigo.engine.messages import told
from sushigo.engine.party.cards import FACE_DOWN, NUM_PARTY_IDS, PartyCard, parse_party_card

# Written as literals so that compiled code (scripts/compile_engine.py) folds them in;
# the assertion below keeps them tied to the card ids.
COPY_BASE: Final = 46
"""Actions COPY_BASE + id: a special order copying the card id (NUM_PARTY_IDS ids)."""
COPY_FACE_DOWN: Final = 92
COPY_ON_WASABI: Final = 93
"""93..95: a special order copying egg, salmon or squid nigiri onto a free wasabi."""
PASS: Final = 96
FLIP_BASE: Final = 97
MAX_FLIP: Final = 64
"""Collection positions a takeout box can address (far above any real collection)."""
PARTY_NUM_ACTIONS: Final = 161
assert (COPY_BASE, COPY_FACE_DOWN, COPY_ON_WASABI, PASS, FLIP_BASE, PARTY_NUM_ACTIONS) == (
    NUM_PARTY_IDS, 2 * NUM_PARTY_IDS, 2 * NUM_PARTY_IDS + 1, 2 * NUM_PARTY_IDS + 4, 2 * NUM_PARTY_IDS + 5,
    2 * NUM_PARTY_IDS + 5 + MAX_FLIP)

_NIGIRI: Final = (int(PartyCard.EGG), int(PartyCard.SALMON), int(PartyCard.SQUID))
_SO: Final = int(PartyCard.SPECIAL_ORDER)


def encode_copy(target: int, *, on_wasabi: bool = False) -> int:
    """The action of a special order copying ``target`` (a card id or
    :data:`~sushigo.engine.party.cards.FACE_DOWN`), optionally placed on wasabi."""
    if on_wasabi:
        if target not in _NIGIRI:
            raise told(InvalidActionError, "only a copied nigiri can go on a wasabi")
        return COPY_ON_WASABI + _NIGIRI.index(target)
    if target == FACE_DOWN:
        return COPY_FACE_DOWN
    if not 0 <= target < NUM_PARTY_IDS or target == 10:
        raise told(InvalidActionError, "{card} is not a Party card id", card=target)
    return COPY_BASE + target


def copy_target(action: int) -> tuple[int, bool] | None:
    """``(copied card id, on wasabi)`` for a special-order action, else ``None``."""
    if COPY_BASE <= action < COPY_FACE_DOWN:
        return action - COPY_BASE, False
    if action == COPY_FACE_DOWN:
        return FACE_DOWN, False
    if COPY_ON_WASABI <= action < PASS:
        return _NIGIRI[action - COPY_ON_WASABI], True
    return None


def played_card(action: int) -> int | None:
    """The physical card an action plays (the special order for copies), else ``None``."""
    if 0 <= action < NUM_PARTY_IDS:
        return action
    if COPY_BASE <= action < PASS:
        return _SO
    return None


def flip_position(action: int) -> int | None:
    """The collection position a flip action turns face down, else ``None``."""
    if FLIP_BASE <= action < PARTY_NUM_ACTIONS:
        return action - FLIP_BASE
    return None


def party_action_name(action: int) -> str:
    """The text form of a Party action (see the module table)."""
    if not 0 <= action < PARTY_NUM_ACTIONS or action == 10:
        raise told(InvalidActionError, "action {action} is not a Party action", action=action)
    if action < NUM_PARTY_IDS:
        return PartyCard(action).name_in_records
    target = copy_target(action)
    if target is not None:
        card, on_wasabi = target
        if card == 10:
            raise told(InvalidActionError, "action {action} is not a Party action", action=action)
        name = "face_down" if card == FACE_DOWN else PartyCard(card).name_in_records
        return f"special_order>{name}" + ("+wasabi" if on_wasabi else "")
    if action == PASS:
        return "pass"
    return f"flip:{action - FLIP_BASE}"


def parse_party_action(text: str) -> int:
    """Parse the text form of :func:`party_action_name`."""
    if not isinstance(text, str):
        raise told(InvalidActionError, "expected an action, got {type}", type=type(text).__name__)
    t = text.strip().lower().replace(" ", "")
    if t == "pass":
        return PASS
    if t.startswith("flip:"):
        try:
            pos = int(t[5:])
        except ValueError:
            raise told(InvalidActionError, "bad flip {text}", text=repr(text)) from None
        if not 0 <= pos < MAX_FLIP:
            raise told(InvalidActionError, "no collection position {position}", position=pos)
        return FLIP_BASE + pos
    if t.startswith("special_order>"):
        target = t[len("special_order>"):]
        on_wasabi = target.endswith("+wasabi")
        if on_wasabi:
            target = target[: -len("+wasabi")]
        card = FACE_DOWN if target == "face_down" else int(parse_party_card(target))
        return encode_copy(card, on_wasabi=on_wasabi)
    return int(parse_party_card(t))
