"""Sushi Go Party! at the terminal: ``sushigo play --edition party``.

The same feel as the base game (:mod:`sushigo.terminal.base`): one human against
bots, pass-and-play for several humans (each hand, and each private choice,
stays hidden until its player says they are ready), or bots only.  It reads
lines, so piped input works, and it fits 80 columns.

A turn: every seat picks a card by its number in the hand (a special order
then asks what it copies).  After the reveal the specials resolve in card
number order and their owners decide: use chopsticks (a second card from
the hand) or a spoon (name any card on the menu; the first hand on the left
holding it gives it), take one of the cards a menu drew, or flip earlier
cards face down with a takeout box.  The screen then says what the specials
did: who gave what to a spoon, which miso soups were discarded, who scored
in the uramaki race.  Each round ends with its breakdown, the game with the
desserts and the winners (ties go to the most dessert cards).

>>> import io
>>> from rich.console import Console
>>> out = Console(file=io.StringIO(), width=80)
>>> run_party_play(players=3, humans=0, bots=["greedy", "random", "random"], seed=1,
...                menu="Master Menu", console=out)
0
>>> "Final score sheet" in out.file.getvalue()
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich import box
from rich.console import Console
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from sushigo.bots import Bot
from sushigo.bots.base import view_for
from sushigo.engine.errors import UnknownCardError
from sushigo.engine.guide import dishes
from sushigo.engine.menus import MENU_ITEMS, menu_name
from sushigo.engine.messages import N_, Label
from sushigo.engine.narration import Line
from sushigo.engine.party.actions import PASS, copy_target, flip_position, played_card
from sushigo.engine.party.cards import (
    CHOPSTICKS_IDS,
    DESSERT_IDS,
    FACE_DOWN,
    MAKI_ICONS,
    PARTY_LABELS,
    SPOON_IDS,
    URAMAKI_ICONS,
    PartyCard,
    parse_party_card,
)
from sushigo.engine.party.explain import explain_desserts, explain_party_round
from sushigo.engine.party.game import Decision, Move, PartyGame
from sushigo.engine.party.narration import PartyNarrator
from sushigo.engine.party.view import PlayedCard, party_seat_view
from sushigo.engine.rules import NUM_ROUNDS, Rules
from sushigo.engine.turns import Phase
from sushigo.i18n import _, _n, current, localized, message_of
from sushigo.i18n import say as said
from sushigo.terminal.labels import CARD_SHORT, ITEM_STYLE, style_of
from sushigo.terminal.session import (
    MAX_NAME,
    InputFn,
    Part,
    TableSession,
    card_named,
    default_console,
    each_and,
    keep,
    listing,
    not_a_card,
    prepare_table,
    revealed,
    styled,
)

C = PartyCard
DEFAULT_MENU: Final = "My First Meal"
"""The menu of ``sushigo play --edition party`` when none is given."""

ITEM_LABEL: Final[dict[str, str]] = {
    "nigiri": N_("Nigiri"), "maki": N_("Maki"), "temaki": N_("Temaki"), "uramaki": N_("Uramaki"),
    "tempura": N_("Tempura"), "sashimi": N_("Sashimi"), "dumpling": N_("Dumpling"), "eel": N_("Eel"),
    "tofu": N_("Tofu"), "onigiri": N_("Onigiri"), "edamame": N_("Edamame"), "miso_soup": N_("Miso soup"),
    "chopsticks": N_("Chopsticks"), "spoon": N_("Spoon"), "menu": N_("Menu"), "takeout_box": N_("Takeout box"),
    "soy_sauce": N_("Soy sauce"), "tea": N_("Tea"), "special_order": N_("Special order"), "wasabi": N_("Wasabi"),
    "pudding": N_("Pudding"), "green_tea_ice_cream": N_("Green tea ice cream"), "fruit": N_("Fruit"),
}
"""The menu items' names, in English (message ids: shown as ``_(ITEM_LABEL[item])``)."""

COLUMN_LABEL: Final[dict[str, str]] = {
    "nigiri": N_("Nigiri"), "maki": N_("Maki"), "temaki": N_("Temaki"), "uramaki": N_("Urmk"),
    "tempura": N_("Temp"), "sashimi": N_("Sash"), "dumpling": N_("Dump"), "eel": N_("Eel"), "tofu": N_("Tofu"),
    "onigiri": N_("Onig"), "edamame": N_("Edam"), "miso_soup": N_("Miso"), "takeout_box": N_("Box"),
    "tea": N_("Tea"), "soy_sauce": N_("Soy"),
}
"""Column headers of the round breakdown (short, so 10 columns fit 80), in English (message ids)."""

ROLL_COLUMN: Final[dict[str, str]] = {"maki": N_("Maki"), "temaki": N_("Temk"), "uramaki": N_("Urmk")}
"""The header of the roll count in the table of a turn (short)."""

NUMBERED: Final[dict[str, str]] = {
    "hand": N_("There is no card {token}: your hand is numbered 1-{count}."),
    "list": N_("There is no card {token}: the list is numbered 1-{count}."),
    "draw": N_("There is no card {token}: the draw is numbered 1-{count}."),
}
"""A number past the end of a numbered list of cards (your hand, the spoon's list, a menu's draw)."""

ABSENT: Final[dict[str, str]] = {
    "hand": N_("There is no {card} in your hand."),
    "list": N_("There is no {card} in the list."),
    "draw": N_("There is no {card} in the draw."),
}
"""A card named that is not in the numbered list."""

HELP_HEAD: Final = N_("""\
How to play: type the number of a card in your hand (or its name).  A
special order then asks which earlier card it copies.  After the reveal you
decide for your specials: chopsticks (a card number, Enter to keep them),
spoon (a card number or name from the list, Enter to keep it), menu (one of
the drawn cards), takeout box (the numbers of the cards to flip, e.g. 1 3 4,
Enter for none).  Desserts stay until the end of the game; ties for the win
go to the most dessert cards.  ? or h: this help.  q: quit (the game so far
is saved if saving is on).  SO: special order.

On this menu:""")
"""The head of the help (``?``), in English (a message id); each dish of the menu follows."""


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


_BY_KEY: Final[dict[str, PartyCard]] = {
    **{_key(label): card for card, label in CARD_SHORT.items()},
    **{_key(card.name): card for card in PartyCard},
}


def find_card(text: str) -> PartyCard:
    """The card called ``text`` on screen or in records (``'miso soup'``, ``'maki3'``).

    >>> find_card("Spoon 5"), find_card("fruit_watermelon_orange")
    (<PartyCard.SPOON5: 28>, <PartyCard.FRUIT_WATERMELON_ORANGE: 44>)
    """
    card = _BY_KEY.get(_key(text))
    if card is None:
        return parse_party_card(text)  # raises UnknownCardError
    return card


def card_text(card: int, label: str | None = None) -> Text:
    """A card's short label (in the player's language) in its menu item's colour
    (``'Face down'`` for a flipped card)."""
    if card == FACE_DOWN:
        return Text(label or _("Face down"), style="dim")
    c = PartyCard(card)
    return Text(label if label is not None else _(CARD_SHORT[c]), style=style_of(c))


def on_wasabi_text(card: Part) -> Text:
    """``'Squid on wasabi'``."""
    return styled(_("{card} on wasabi"), card=card)


def action_text(action: int, on_wasabi: bool = False) -> Text:
    """What an action plays: ``'Squid on wasabi'``, ``'Special order as Salmon'``."""
    target = copy_target(action)
    if target is None:
        text = card_text(action)
        return on_wasabi_text(text) if on_wasabi else text
    kind, wasabi = target
    label = _("a face-down card") if kind == FACE_DOWN else _(CARD_SHORT[PartyCard(kind)])
    copy = styled(_("{special} as {card}"), special=card_text(int(C.SPECIAL_ORDER)), card=card_text(kind, label))
    return on_wasabi_text(copy) if wasabi else copy


def _order(kind: int, on_wasabi: bool = False) -> tuple[int, float]:
    """Sort key of a collection group: board order of its item, then card id."""
    if kind == FACE_DOWN:
        return MENU_ITEMS.index("takeout_box"), 0.0
    return MENU_ITEMS.index(PartyCard(kind).item), kind - (0.5 if on_wasabi else 0.0)


def collection_text(played: Sequence[Any], times: str = "\u00d7") -> Text:
    """A Party collection grouped by what each card counts as.

    ``played`` holds :class:`~sushigo.engine.party.view.PlayedCard` entries.  A
    nigiri on its wasabi shows as ``Wasabi+Squid``; a special order as its
    copy with ``(SO)``; flipped cards as ``Face-down``.  Labels have no
    spaces, so a group never breaks across lines.

    >>> from sushigo.engine.party.view import PlayedCard
    >>> cards = [PlayedCard(9, 9, 1, False), PlayedCard(8, 8, 2, True), PlayedCard(21, 21, 3, False),
    ...          PlayedCard(38, 21, 4, False), PlayedCard(14, 14, 5, False), PlayedCard(13, 13, 6, False)]
    >>> collection_text(cards).plain
    'Wasabi+Squid  Uramaki(3+4)  Onigiri-rectangle  Onigiri-rectangle(SO)'
    """
    groups: dict[tuple[int, bool, bool], int] = {}
    for p in played:
        if p.kind == int(C.WASABI):
            continue
        copy = p.card == int(C.SPECIAL_ORDER) and p.kind != p.card
        key = (p.kind, copy, bool(p.on_wasabi))
        groups[key] = groups.get(key, 0) + 1
    topped = sum(n for (_, _, on), n in groups.items() if on)
    wasabi = sum(1 for p in played if p.kind == int(C.WASABI))
    empty = max(0, wasabi - topped)
    parts: list[tuple[tuple[int, float], Text]] = []
    makis = sorted(p.kind for p in played if p.kind in MAKI_ICONS)
    uramakis = sorted(p.kind for p in played if p.kind in URAMAKI_ICONS)
    wasabi_label = _(CARD_SHORT[C.WASABI]).replace(" ", "-")
    for name, kinds, icons in ((N_("Maki({icons})"), makis, MAKI_ICONS),
                               (N_("Uramaki({icons})"), uramakis, URAMAKI_ICONS)):
        if kinds:
            label = _(name).format(icons="+".join(str(icons[k]) for k in kinds))
            parts.append((_order(kinds[0]), card_text(kinds[0], label)))
    for (kind, copy, on), n in sorted(groups.items()):
        if kind in MAKI_ICONS or kind in URAMAKI_ICONS:
            continue
        label = _("Face-down") if kind == FACE_DOWN else _(CARD_SHORT[PartyCard(kind)]).replace(" ", "-")
        if on:
            label = wasabi_label + "+" + label
        if copy:
            # TRANSLATORS: after a card a special order copied (SO: special order, said in the help)
            label += _("(SO)")
        if n > 1:
            label += f"{times}{n}"
        parts.append((_order(kind, on), card_text(kind, label)))
    if empty:
        label = wasabi_label + (f"{times}{empty}" if empty > 1 else "")
        parts.append((_order(int(C.WASABI)), card_text(int(C.WASABI), label)))
    parts.sort(key=lambda part: part[0])
    if not parts:
        return Text("-", style="dim")
    return Text("  ").join(text for _sort, text in parts)


def _grid(cells: list[Text], per_row: int) -> Padding:
    grid = Table.grid(padding=(0, 2))
    for _column in range(per_row):
        grid.add_column(no_wrap=True)
    for i in range(0, len(cells), per_row):
        row = cells[i:i + per_row]
        grid.add_row(*row, *[Text("")] * (per_row - len(row)))
    return Padding(grid, (0, 0, 0, 1), expand=False)


def _numbered(labels: list[Text], per_row: int = 3) -> Padding:
    return _grid([Text.assemble((f"{i:>2} ", "bold"), t) for i, t in enumerate(labels, 1)], per_row)


class PartyTerminalGame(TableSession[PartyGame]):
    """One Party game at the terminal; build it with :func:`run_party_play`."""

    def __init__(
        self,
        game: PartyGame,
        names: list[str],
        bots: list[Bot | None],
        console: Console,
        input_fn: InputFn | None,
        save: str | None,
        meta: dict[str, Any],
    ) -> None:
        super().__init__(game, names, bots, console, input_fn, save, meta)
        self.menu = game.rules.menu
        self.menu_title = menu_name(self.menu) or _("Custom menu")
        self.round_index = 0
        """Index of the round being played (0-2)."""
        self.turn = 1
        """The turn being played."""
        self.narrator = PartyNarrator(game)
        """Tells each finished turn in the engine's words (:meth:`line_text`)."""

    # --------------------------------------------------------------- output

    def who(self, seats: Sequence[int]) -> Text:
        return each_and([self.name_text(s) for s in seats])

    # ---------------------------------------------------------------- input

    def hand_over(self, seat: int, sentence: str, **parts: Part) -> None:
        """Pass-and-play: wait until ``seat``'s player has the device (``sentence``: the
        translated template that says so, with ``{name}`` and ``parts``)."""
        if self.pass_and_play:
            self.say(Text("\n") + self.styled(sentence, name=self.name_text(seat), **parts))
            self.pause(_("{name}, press Enter when ready ", name=self.names[seat]))

    def done_private(self) -> None:
        if self.pass_and_play:
            self.hide()

    # ------------------------------------------------------------- screens

    def show_help(self) -> None:
        lines = [_(HELP_HEAD)] + ["  " + _("{name}: {rule} For example {example}.", name=said(d.title),
                                            rule=said(d.scoring), example=said(d.shown))
                                  for d in dishes(self.game.rules)]
        self.say(Padding(Text("\n".join(lines)), (1, 0, 1, 0)))

    def menu_line(self) -> Text:
        items = listing([Text(_(ITEM_LABEL[i]), style=ITEM_STYLE.get(i, "cyan")) for i in self.menu])
        return self.styled(_("{menu} {title} - {items}"), menu=Text(_("Menu:"), style="bold"), title=self.menu_title,
                           items=items)

    def show_intro(self) -> None:
        game = self.game
        self.say(Rule(Text(_("Sushi Go Party!"), style="bold red")))
        seats = listing([self.seat_text(s) for s in range(game.players)])
        self.say(self.styled(_n("{n} player: {seats}", "{n} players: {seats}", game.players, **keep("seats")),
                             seats=seats))
        self.say(self.menu_line())
        r = game.rules
        desserts = listing(list(r.desserts_per_round)).plain
        self.say(Text(_n("{n} card each per round; desserts added per round: {desserts}; seed {seed}.",
                         "{n} cards each per round; desserts added per round: {desserts}; seed {seed}.",
                         r.hand_size, desserts=desserts, seed=str(game.seed))))
        if self.humans:
            self.say(Text(_("Type the number of a card to pick it, ? for help (scoring), q to quit.")))

    def roll_count(self, cards: Sequence[Any]) -> int:
        roll = self.menu[1]
        if roll == "maki":
            return sum(MAKI_ICONS.get(p.kind, 0) for p in cards)
        if roll == "uramaki":
            return sum(URAMAKI_ICONS.get(p.kind, 0) for p in cards)
        return sum(1 for p in cards if p.kind == int(C.TEMAKI))

    def table(self, viewer: int | None) -> Table:
        """Every seat's collection this round, roll count, desserts and points."""
        game = self.game
        view = party_seat_view(game, None)
        scores = view.result.totals
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column(_("Collection this round"), ratio=1, min_width=20)
        table.add_column(_(ROLL_COLUMN[self.menu[1]]), justify="right", no_wrap=True)
        # TRANSLATORS: column headers, short: dessert cards, points
        table.add_column(_("Dess"), justify="right", no_wrap=True)
        table.add_column(_("Pts"), justify="right", no_wrap=True)
        for s in range(game.players):
            name = self.name_text(s)
            if s == viewer:
                name.stylize("reverse")
            col = view.collections[s]
            desserts = len(view.desserts[s]) + sum(1 for p in col if p.kind in DESSERT_IDS)
            table.add_row(name, collection_text(col, self.times), str(self.roll_count(col)),
                          str(desserts), str(scores[s]))
        return table

    def show_hand(self, seat: int, hand: list[int], title: str) -> None:
        self.say(Text(title, style="bold"))
        self.say(_numbered([card_text(c) for c in hand]))

    def hand_title(self, seat: int, hand: Sequence[int]) -> str:
        """``Your hand (8 cards):``, or in pass-and-play ``Ann's hand (8 cards):``."""
        if len(self.humans) == 1:
            return _n("Your hand ({n} card):", "Your hand ({n} cards):", len(hand))
        return _n("{name}'s hand ({n} card):", "{name}'s hand ({n} cards):", len(hand), name=self.names[seat])

    def show_turn(self, seat: int) -> list[int]:
        """The picking screen of ``seat``; returns its hand in the order numbered."""
        game = self.game
        self.say(Rule(_("Round {round} of {rounds} - turn {turn} of {turns}", round=game.round, rounds=NUM_ROUNDS,
                        turn=game.turn, turns=game.rules.hand_size)))
        self.say(self.table(seat))
        self.say(self.styled(_("You pass this hand {direction} to {to} and receive {giver}'s next."),
                             direction=_("left"), to=self.name_text(game.passes_to(seat)),
                             giver=self.name_text(game.receives_from(seat))))
        hand = sorted(game.hands[seat])
        self.show_hand(seat, hand, self.hand_title(seat, hand))
        ready = sorted({p.kind for p in game.collections[seat] if p.kind in CHOPSTICKS_IDS | SPOON_IDS})
        if ready and len(hand) > 1:
            names = each_and([_(CARD_SHORT[PartyCard(k)]) for k in ready]).plain
            self.say(Text(_("You have {cards}: you may use them after the reveal.", cards=names), style="cyan"))
        return hand

    # ---------------------------------------------------------- choosing

    def choose_copy(self, seat: int, actions: Sequence[int]) -> int | None:
        """Ask which card a special order copies; ``None``: the player went back."""
        if int(C.SPECIAL_ORDER) in actions:
            self.say(Text(_("Nothing to copy yet: the special order is played as it is (it scores nothing).")))
            return int(C.SPECIAL_ORDER)
        copies = sorted(a for a in actions if copy_target(a) is not None)
        if not copies:
            return None
        labels = []
        for a in copies:
            kind, wasabi = copy_target(a) or (0, False)
            label = _("Face-down card (2)") if kind == FACE_DOWN else _(CARD_SHORT[PartyCard(kind)])
            labels.append(card_text(kind, _("{card} on wasabi", card=label) if wasabi else label))
        self.say(Text(_("The special order copies a card you played earlier this round:"), style="bold"))
        self.say(_numbered(labels))
        while True:
            text = self.ask(_("Copy which card? (number, Enter to go back)> ")).strip().lower()
            if self.run_command(text):
                continue
            if not text:
                return None
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(copies):
                return copies[int(text) - 1]
            self.say(Text(_("Type a number from 1 to {count}, or Enter to go back.", count=len(copies)), style="red"))

    def parse_card_choice(self, text: str, cards: list[int], what: str) -> int:
        """The card ``text`` names in the numbered list ``cards`` (a number or a name);
        ``what``: ``"hand"``, ``"list"`` (a spoon's) or ``"draw"`` (a menu's)."""
        if text.isascii() and text.isdigit():
            pos = int(text)
            if not 1 <= pos <= len(cards):
                raise ValueError(_(NUMBERED[what]).format(token=text[:6], count=current().number(len(cards))))
            return cards[pos - 1]
        def names(c: int) -> tuple[str, str]:
            return _(CARD_SHORT[PartyCard(c)]), said(Label(PARTY_LABELS[PartyCard(c)]))

        named = card_named(text, [c for c in cards if c != FACE_DOWN], names)
        if named is not None:  # a card's whole name as the screen shows it, in the game's language
            return named
        elsewhere = card_named(text, [int(c) for c in PartyCard if c in PARTY_LABELS], names)
        if elsewhere is not None:
            raise ValueError(_(ABSENT[what]).format(card=_(CARD_SHORT[PartyCard(elsewhere)])))
        try:
            card = int(find_card(text))
        except UnknownCardError:
            held = [PartyCard(c).name_in_records for c in cards if c != FACE_DOWN]
            raise ValueError(not_a_card(text, held, [c.name_in_records for c in PartyCard])) from None
        if card not in cards:
            raise ValueError(_(ABSENT[what]).format(card=_(CARD_SHORT[PartyCard(card)])))
        return card

    def pick_from(self, seat: int, cards: list[int], prompt: str, what: str, *, may_pass: bool) -> int:
        """Ask for one card of ``cards`` (numbered as shown); a special order asks
        for its copy.  Returns the action (:data:`PASS` on Enter when allowed);
        ``what`` names the list (:meth:`parse_card_choice`)."""
        while True:
            text = self.ask(prompt).strip().lower()
            if self.run_command(text):
                continue
            if not text:
                if may_pass:
                    return PASS
                self.say(Text(_("Type the number of a card (1-{count}), or ? for help.", count=len(cards)),
                              style="red"))
                continue
            try:
                card = self.parse_card_choice(text, cards, what)
            except ValueError as e:
                self.say(Text(localized(message_of(e)), style="red"))
                continue
            legal = self.game.legal_actions(seat)
            if card == int(C.SPECIAL_ORDER):
                action = self.choose_copy(seat, legal)
                if action is None:
                    continue
                return action
            if card not in legal:
                self.say(Text(_("{card} can't be chosen now.", card=_(CARD_SHORT[PartyCard(card)])), style="red"))
                continue
            return card

    def human_pick(self, seat: int) -> None:
        game = self.game
        self.hand_over(seat, _("Pass the device to {name} to pick a card. Nobody else may look."))
        hand = self.show_turn(seat)
        action = self.pick_from(seat, hand, _("Pick a card> "), "hand", may_pass=False)
        game.commit(seat, action)
        self.done_private()

    def human_decision(self, decision: Decision) -> None:
        game = self.game
        seat = decision.seat
        special = _(CARD_SHORT[PartyCard(decision.card)])
        self.hand_over(seat, _("Pass the device to {name} for {special}. Nobody else may look."), special=special)
        self.say(Rule(_("Round {round} of {rounds} - turn {turn}: {special} after the reveal", round=game.round,
                        rounds=NUM_ROUNDS, turn=game.turn, special=special)))
        self.say(self.table(seat))
        if decision.kind != "takeout_box":  # the takeout box says it beside the cards it may flip
            self.say(Text(asked(special, decision), style="cyan"))
        if decision.kind == "chopsticks":
            hand = sorted(game.hands[seat])
            self.show_hand(seat, hand, self.hand_title(seat, hand))
            prompt = _("Use {special}? Number of a card, or Enter to keep them> ", special=special)
            game.commit(seat, self.pick_from(seat, hand, prompt, "hand", may_pass=True))
        elif decision.kind == "spoon":
            hand = sorted(game.hands[seat])
            self.show_hand(seat, hand, self.hand_title(seat, hand))
            cards = sorted({c for a in game.legal_actions(seat) if (c := played_card(a)) is not None})
            self.show_hand(seat, cards, _("Cards you can ask for:"))
            prompt = _("Use {special}? Card number or name, or Enter to keep it> ", special=special)
            game.commit(seat, self.pick_from(seat, cards, prompt, "list", may_pass=True))
        elif decision.kind == "menu":
            drawn = list(decision.drawn)
            self.show_hand(seat, drawn, _n("{special} drew {n} card (the rest go back):",
                                           "{special} drew {n} cards (the rest go back):", len(drawn),
                                           special=special))
            game.commit(seat, self.pick_from(seat, drawn, _("Play which card?> "), "draw", may_pass=False))
        else:
            self.takeout(seat, decision)
        self.done_private()

    def takeout(self, seat: int, decision: Decision) -> None:
        game = self.game
        actions = [a for a in game.legal_actions(seat) if a != PASS]
        view = party_seat_view(game, seat)
        col = view.collections[seat]
        positions = [p for a in actions if (p := flip_position(a)) is not None]
        labels = []
        for p in positions:
            entry = col[p]
            copy = entry.card == int(C.SPECIAL_ORDER) and entry.kind != entry.card
            label = _(CARD_SHORT[PartyCard(entry.kind)])
            if entry.on_wasabi:
                label = _("{card} on wasabi", card=label)
            labels.append(card_text(entry.kind, _("{card} (SO)", card=label) if copy else label))
        special = _(CARD_SHORT[PartyCard(decision.card)])
        self.say(Text(asked(special, decision), style="cyan"))
        self.say(_numbered(labels))
        while True:
            text = self.ask(_("Flip which cards? (e.g. 1 3 4, Enter for none)> ")).strip().lower()
            if self.run_command(text):
                continue
            tokens = [t for t in re.split(r"[\s,+]+", text) if t]
            try:
                chosen = []
                for t in tokens:
                    if not (t.isascii() and t.isdigit()) or not 1 <= int(t) <= len(positions):
                        raise ValueError(_("Type numbers from 1 to {count}, or Enter for none.", count=len(positions)))
                    if int(t) - 1 in chosen:
                        raise ValueError(_("Card {number} is listed twice.", number=t))
                    chosen.append(int(t) - 1)
            except ValueError as e:
                self.say(Text(localized(message_of(e)), style="red"))
                continue
            break
        for i in chosen:
            if not self._still(decision):
                break
            game.commit(seat, actions[i])
        if self._still(decision):
            game.commit(seat, PASS)

    def _still(self, decision: Decision) -> bool:
        d = self.game.decision
        return d is not None and d.seat == decision.seat and d.card == decision.card and d.kind == decision.kind

    # ---------------------------------------------------------- reports

    def show_reveal(self, moves: Sequence[Move], topped: list[bool]) -> None:
        """Every seat's pick of this turn (``topped``: seats that had an empty wasabi)."""
        game = self.game
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column()
        picks = [m for m in moves if m.via == -1]
        for m in picks:
            on = topped[m.seat] and m.action in (int(C.EGG), int(C.SALMON), int(C.SQUID))
            table.add_row(self.name_text(m.seat), action_text(m.action, on))
        self.say(Text(revealed(self.round_index + 1, self.turn, self.turn == game.rules.hand_size), style="bold"))
        self.say(Padding(table, (0, 0, 0, 1), expand=False))

    def describe_specials(self, lines: Sequence[Line]) -> list[Text]:
        """What the specials of a finished turn did, in the engine's words (the picks
        have their own table, the round's end its own report)."""
        return [self.line_text(line) for line in lines if line.kind not in ("pick", "round", "game")]

    def show_round_end(self, round_index: int) -> None:
        game = self.game
        number = round_index + 1
        cols = game.round_collections(number)
        lines = game.round_breakdowns[round_index]
        self.say(Rule(Text(_("End of round {round}: scoring", round=number), style="bold")))
        collections = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        collections.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        collections.add_column(_("Collection"), ratio=1)
        for s in range(game.players):
            face_up = {p.uid for p in cols[s] if p.kind == int(C.WASABI)}
            played = [PlayedCard(p.card, p.kind, p.turn, p.on in face_up) for p in cols[s]]
            collections.add_row(self.name_text(s), collection_text(played, self.times))
        self.say(collections)
        keys = list(lines[0]) if lines else []
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=_("Round {round} points", round=number))
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        for key in keys:
            header = _(COLUMN_LABEL[key]) if key in COLUMN_LABEL else key[:5].title()
            table.add_column(header, justify="right", no_wrap=True)
        table.add_column(_("Round"), justify="right", no_wrap=True, style="bold")
        for s in range(game.players):
            line = lines[s]
            table.add_row(self.name_text(s), *[str(line.get(k, 0)) for k in keys], str(sum(line.values())))
        self.say(table)
        self.say(self.scoring_table(explain_party_round(game, number)))
        if number < NUM_ROUNDS:
            kept = listing([self.styled(_("{name}: {value}"), name=self.name_text(s), value=len(d))
                            for s, d in enumerate(game.desserts)])
            self.say(self.styled(_("{dessert} kept for the end of the game: {counts}."),
                                 dessert=_(ITEM_LABEL[self.menu[-1]]), counts=kept))
            self.say(self.score_sheet(_("Score sheet after round {round}", round=number)))
            if self.humans:
                self.pause(_("Press Enter to start round {round} ", round=number + 1))

    def score_sheet(self, title: str) -> Table:
        result = self.game.result()
        final = self.game.is_over
        table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, title=Text(title))
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        for r in range(len(result.rounds)):
            table.add_column(_("Round {round}", round=r + 1), justify="right", no_wrap=True)
        if final:
            table.add_column(_("Desserts"), justify="right", no_wrap=True)
        table.add_column(_("Total"), justify="right", no_wrap=True)
        winners = set(result.winners) if final else set()
        for s in range(self.game.players):
            total = Text(f"{'*' if s in winners else ''}{result.totals[s]}",
                         style="bold green" if s in winners else "bold")
            row = [str(r[s]) for r in result.rounds]
            if final:
                row.append(f"{result.pudding[s]} ({result.dessert_cards[s]})")
            table.add_row(self.name_text(s), *row, total)
        return table

    def show_end(self) -> None:
        game = self.game
        result = game.result()
        dessert = dishes(game.rules)[-1]
        self.say(Rule(Text(_("Game over"), style="bold")))
        self.say(Text(_("Desserts ({name}): {rule}", name=said(dessert.title), rule=said(dessert.scoring))))
        for s, figure in enumerate(explain_desserts(game)):
            self.say(Text("  ") + self.styled(_("{name}: {value}"), name=self.name_text(s), value=said(figure.message)))
        self.say(self.score_sheet(_("Final score sheet")))
        best = max(result.totals)
        tied = [s for s, t in enumerate(result.totals) if t == best]
        if len(tied) > 1 and len(result.winners) < len(tied):
            self.say(self.styled(_n("{names} tied on {n} point; the tie goes to most dessert cards.",
                                    "{names} tied on {n} points; the tie goes to most dessert cards.", best,
                                    **keep("names")), names=self.who(tied)))
        elif len(result.winners) > 1:
            self.say(Text(_n("Tied on points and dessert cards ({n} point): a shared win.",
                             "Tied on points and dessert cards ({n} points): a shared win.", best)))
        who = [self.names[s] for s in result.winners]
        if len(who) == 1:
            self.say(Text(_n("Winner: {name} with {n} point", "Winner: {name} with {n} points", best, name=who[0])),
                     style="bold green")
        else:
            self.say(Text(_n("Shared win: {names} with {n} point", "Shared win: {names} with {n} points", best,
                             names=listing(who).plain)), style="bold green")

    # ---------------------------------------------------------------- turns

    def play_turn(self) -> None:
        game = self.game
        self.round_index = game.round - 1
        self.turn = game.turn
        topped = [any(p.kind == int(C.WASABI) and not p.filled for p in col) for col in game.collections]
        for seat in range(game.players):
            bot = self.bots[seat]
            if bot is not None:
                game.commit(seat, bot.choose(view_for(game, seat, bot)))
                continue
            legal = game.legal_actions(seat)
            if len(legal) == 1:
                game.commit(seat, legal[0])
            else:
                self.human_pick(seat)
        moves = game.history()[self.round_index][1][self.turn - 1]
        self.show_reveal(moves, topped)
        while game.phase is Phase.RESOLVE and game.decision is not None:
            decision = game.decision
            bot = self.bots[decision.seat]
            if bot is not None:
                game.commit(decision.seat, bot.choose(view_for(game, decision.seat, bot)))
            else:
                self.human_decision(decision)
        lines = self.describe_specials(self.narrator.update())
        if lines:
            self.say(Padding(Text("\n").join(lines), (0, 0, 0, 1)))
        self.say("")
        if game.is_over or game.round - 1 != self.round_index:
            self.show_round_end(self.round_index)


def asked(special: str, decision: Decision) -> str:
    """What a decision asks of its seat, in the engine's words (:attr:`Decision.asks_said`):
    ``Spoon 4: name a card of the menu: ...``."""
    return _("{special}: {asks}.", special=special, asks=said(decision.asks_said))


def run_party_play(
    players: int = 4,
    humans: int = 1,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    menu: str | Sequence[str] = DEFAULT_MENU,
    save: str | None = None,
    names: Sequence[str] | None = None,
    console: Console | None = None,
    input_fn: InputFn | None = None,
    options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
) -> int:
    """Play one Sushi Go Party! game in the terminal; return the exit status.

    Like :func:`sushigo.terminal.base.run_play` (same seats, bots, seeds, names,
    saving and exit statuses), with ``players`` 2-8, ``menu`` an official
    menu name (any case) or the items separated by commas, and ``options``
    the Party rule options (``uramaki_split``, ``menu_card_draw``,
    ``two_player_pudding_penalty``, ``wasabi_colour``; defaults when left out).
    """
    table = prepare_table(
        lambda: Rules.party(players, menu, **dict(options or {})), humans, bots, seed, save, names, console,
        time_limit,
    )
    if isinstance(table, int):
        return table
    rules, seed, seat_bots, seat_names, meta = table
    game = PartyGame(rules, seed=seed)
    out = console if console is not None else default_console()
    return PartyTerminalGame(game, seat_names, seat_bots, out, input_fn, save, meta).run()


__all__ = [
    "DEFAULT_MENU",
    "PartyTerminalGame",
    "action_text",
    "card_text",
    "collection_text",
    "find_card",
    "run_party_play",
]
