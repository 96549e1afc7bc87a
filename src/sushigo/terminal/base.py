"""The interactive terminal game behind ``sushigo play``.

One human against bots, several humans passing one keyboard around
(pass-and-play: each hand stays hidden until its player says they are
ready), or only bots (a demonstration).  Everything is typed: the number of
a card, two numbers with chopsticks (``3 5`` or ``3+5``, in play order),
``?`` for the scoring rules, ``q`` to quit.  It reads lines, so it also
works with piped input, and it fits an 80-column terminal.

Human picks go through :meth:`Game.commit <sushigo.engine.base.game.Game.commit>`; bots
pick from their own :func:`~sushigo.engine.base.view.seat_view` only.

>>> import io
>>> from rich.console import Console
>>> out = Console(file=io.StringIO(), width=80)
>>> run_play(players=3, humans=0, bots=["greedy", "random", "random"], seed=1, console=out)
0
>>> "Final score sheet" in out.file.getvalue()
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from rich import box
from rich.console import Console
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from sushigo.bots.base import view_for
from sushigo.engine.base.actions import Action, card_ids, encode
from sushigo.engine.base.cards import CARD_LABELS, CARD_NAMES, MAKI_ICONS, NIGIRI, Card, parse_card
from sushigo.engine.base.explain import explain_round
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import maki_icons, wasabi_pairs
from sushigo.engine.errors import IllegalActionError, UnknownCardError
from sushigo.engine.messages import N_, Label
from sushigo.engine.rules import NUM_ROUNDS, Rules
from sushigo.i18n import _, _n, localized, message_of
from sushigo.i18n import say as said
from sushigo.terminal.labels import base_label, base_style
from sushigo.terminal.render import score_sheet_table, winners_line
from sushigo.terminal.session import (
    EXIT_FINISHED,
    EXIT_INTERRUPTED,
    EXIT_STOPPED,
    EXIT_USAGE,
    MAX_NAME,
    InputFn,
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

CARD_SHORT: Final[dict[Card, str]] = {c: base_label(c) for c in Card}
"""Short labels used on screen, in English (message ids: shown as ``_(CARD_SHORT[card])``)."""

CARD_STYLE: Final[dict[Card, str]] = {c: base_style(c) for c in Card}

HELP_TEXT: Final = N_("""\
How to pick: type the number of a card in your hand.  With chopsticks in
your collection (from an earlier turn) you may take two cards: type two
numbers, e.g. 3 5 or 3+5; they are placed in that order, and the chopsticks
go back into the hand you pass on.  Card names work too (squid, wasabi+egg).
? or h: this help.  q: quit (the game so far is saved if saving is on).

Scoring at the end of each round:
  Tempura   5 points per pair.          Sashimi  10 points per set of 3.
  Dumpling  1/2/3/4/5+ cards score 1/3/6/10/15.
  Nigiri    egg 1, salmon 2, squid 3; tripled on a wasabi played before it
            (the next nigiri must go on an empty wasabi).
  Maki      most roll icons 6 (a tie splits 6, no second place), second
            most 3 (a tie splits 3).  You need at least one roll.
  Chopsticks and empty wasabi score nothing.
At the end of the game: most puddings +6, fewest -6 (ties split; no
penalty with 2 players; nothing if all are equal).  Ties for the win go to
the player with more puddings, else the win is shared.""")
"""The help (``?``), in English (a message id)."""


def card_text(card: int, label: str | None = None) -> Text:
    """A card's short label (in the player's language) in its colour.

    >>> card_text(Card.SQUID).plain
    'Squid'
    """
    c = Card(card)
    return Text(label if label is not None else _(CARD_SHORT[c]), style=CARD_STYLE[c])


def collection_text(cards: Sequence[int], times: str = "\u00d7") -> Text:
    """A collection grouped by card, each nigiri shown on its wasabi.

    Counts are written ``Tempura×2`` (``times`` is the sign, without spaces so
    that a group never breaks across lines); maki show their roll icons.

    >>> collection_text([Card.WASABI, Card.TEMPURA, Card.SQUID, Card.TEMPURA, Card.MAKI2]).plain
    'Tempura×2  Maki(2)  Wasabi+Squid'
    >>> collection_text([]).plain
    '-'
    """
    pairs = wasabi_pairs(cards)
    on_wasabi = set(pairs.values())
    counts: dict[int, int] = {}
    topped: list[int] = []
    for i, c in enumerate(cards):
        if i in pairs:
            topped.append(c)
        elif not (c == Card.WASABI and i in on_wasabi):
            counts[c] = counts.get(c, 0) + 1
    parts: list[tuple[float, Text]] = []  # (sort key, text): card order, filled wasabi before empty
    makis = [c for c in sorted(counts) if MAKI_ICONS[c]]
    if makis:
        icons = "+".join(str(MAKI_ICONS[m]) for m in makis for _copy in range(counts[m]))
        parts.append((Card.MAKI1, card_text(makis[0], _("Maki({icons})", icons=icons))))
    for c, n in counts.items():
        if not MAKI_ICONS[c]:
            parts.append((c, card_text(c, _(CARD_SHORT[Card(c)]) + (f"{times}{n}" if n > 1 else ""))))
    for c in sorted(topped, reverse=True):
        pair = Text.assemble(card_text(Card.WASABI), ("+", "bright_green"), card_text(c))
        parts.append((Card.WASABI - 0.5, pair))
    parts.sort(key=lambda part: part[0])
    if not parts:
        return Text("-", style="dim")
    return Text("  ").join(text for _sort, text in parts)


def pick_text(cards: Sequence[int], collection: Sequence[int]) -> Text:
    """What a seat revealed this turn: the last ``len(cards)`` cards of ``collection``."""
    pairs = wasabi_pairs(collection)
    start = len(collection) - len(cards)
    parts = []
    for i in range(start, len(collection)):
        c = collection[i]
        label = _(CARD_SHORT[Card(c)])
        parts.append(card_text(c, _("{card} on wasabi", card=label) if i in pairs else label))
    text = parts[0] if len(parts) == 1 else styled(_("{first}, then {second}"), first=parts[0], second=parts[1])
    if len(cards) == 2:
        text.append("  " + _("(chopsticks)"), style="cyan")
    return text


def _cell(points: int, count: int) -> str:
    """A score-table cell: points, and how many cards (or icons) made them."""
    return f"{points} ({count})" if count else str(points)


class TerminalGame(TableSession[Game]):
    """One game at the terminal; build it with :func:`run_play`."""

    # ------------------------------------------------------------- screens

    def show_help(self) -> None:
        self.say(Padding(Text(_(HELP_TEXT)), (1, 0, 1, 0)))

    def show_intro(self) -> None:
        game = self.game
        rules = game.rules
        options = []
        if rules.pass_both_ways:
            options.append(_("pass both ways (round 2 passes right)"))
        if rules.reshuffle:
            options.append(_("reshuffle between rounds (house rule)"))
        self.say(Rule(Text(_("Sushi Go!"), style="bold red")))
        seats = listing([self.seat_text(s) for s in range(game.players)])
        self.say(self.styled(_n("{n} player: {seats}", "{n} players: {seats}", game.players, **keep("seats")),
                             seats=seats))
        rules_said = listing(options).plain if options else _("official")
        self.say(Text(_("Rules: {options}; seed {seed}.", options=rules_said, seed=str(game.seed))))
        if self.humans:
            self.say(Text(_("Type the number of a card to pick it, ? for help, q to quit.")))

    def table(self, viewer: int | None) -> Table:
        """Every seat's collection this round, maki icons, puddings and points."""
        game = self.game
        scores = game.result().totals
        puddings = game.puddings()
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column(_("Collection this round"), ratio=1, min_width=20)
        # TRANSLATORS: column headers, short: maki roll icons, puddings, points
        table.add_column(_("Maki"), justify="right", no_wrap=True)
        table.add_column(_("Pud"), justify="right", no_wrap=True)
        table.add_column(_("Pts"), justify="right", no_wrap=True)
        for s in range(game.players):
            name = self.name_text(s)
            if s == viewer:
                name.stylize("reverse")
            cards = game.collections[s]
            table.add_row(
                name,
                collection_text(cards, self.times),
                str(maki_icons(cards)),
                str(puddings[s]),
                str(scores[s]),
            )
        return table

    def show_turn(self, seat: int) -> list[int]:
        """The picking screen of ``seat``; returns its hand in the order numbered."""
        game = self.game
        heading = _("Round {round} of {rounds} - turn {turn} of {turns}", round=game.round, rounds=NUM_ROUNDS,
                    turn=game.turn, turns=game.rules.hand_size)
        self.say(Rule(heading))
        self.say(self.table(seat))
        direction = _("left") if game.pass_step == 1 else _("right")
        self.say(self.styled(_("You pass this hand {direction} to {to} and receive {giver}'s next."),
                             direction=direction, to=self.name_text(game.passes_to(seat)),
                             giver=self.name_text(game.receives_from(seat))))
        hand = sorted(game.hands[seat])
        self.say(Text(self.hand_title(seat, hand), style="bold"))
        grid = Table.grid(padding=(0, 2))
        per_row = 4
        for _column in range(per_row):
            grid.add_column(no_wrap=True)
        cells = [Text.assemble((f"{i:>2} ", "bold"), card_text(c)) for i, c in enumerate(hand, 1)]
        for i in range(0, len(cells), per_row):
            grid.add_row(*cells[i:i + per_row])
        self.say(Padding(grid, (0, 0, 0, 1), expand=False))
        if game.can_use_chopsticks(seat):
            hint = _("Chopsticks: you may take two cards, e.g. 1 2 (in play order).")
            self.say(Text(hint, style="cyan"))
        return hand

    def hand_title(self, seat: int, hand: Sequence[int]) -> str:
        """``Your hand (8 cards):``, or in pass-and-play ``Ann's hand (8 cards):``."""
        if len(self.humans) == 1:
            return _n("Your hand ({n} card):", "Your hand ({n} cards):", len(hand))
        return _n("{name}'s hand ({n} card):", "{name}'s hand ({n} cards):", len(hand), name=self.names[seat])

    def show_reveal(self, round_index: int) -> None:
        game = self.game
        turns = game.history()[round_index][1]
        cols = game.round_collections(round_index + 1)
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column()
        for s, action in enumerate(turns[-1]):
            table.add_row(self.name_text(s), pick_text(card_ids(action), cols[s]))
        self.say(Text(revealed(round_index + 1, len(turns), len(turns) == game.rules.hand_size), style="bold"))
        self.say(Padding(table, (0, 0, 1, 1), expand=False))

    def show_round_end(self, round_index: int) -> None:
        game = self.game
        number = round_index + 1
        cols = game.round_collections(round_index + 1)
        lines = game.round_breakdowns[round_index]
        self.say(Rule(Text(_("End of round {round}: scoring", round=number), style="bold")))
        collections = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        collections.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        collections.add_column(_("Collection"), ratio=1)
        for s in range(game.players):
            collections.add_row(self.name_text(s), collection_text(cols[s], self.times))
        self.say(collections)

        table = Table(
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            title=_("Round {round} points (cards; roll icons for maki)", round=number),
        )
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        for header in (N_("Tempura"), N_("Sashimi"), N_("Dumpling"), N_("Nigiri"), N_("Maki")):
            table.add_column(_(header), justify="right", no_wrap=True)
        table.add_column(_("Round"), justify="right", no_wrap=True, style="bold")
        for s in range(game.players):
            col = cols[s]
            line = lines[s]
            nigiri = sum(1 for c in col if c in NIGIRI)
            table.add_row(
                self.name_text(s),
                _cell(line["tempura"], col.count(Card.TEMPURA)),
                _cell(line["sashimi"], col.count(Card.SASHIMI)),
                _cell(line["dumpling"], col.count(Card.DUMPLING)),
                _cell(line["nigiri"], nigiri),
                _cell(line["maki"], maki_icons(col)),
                str(sum(line.values())),
            )
        self.say(table)
        self.say(self.scoring_table(explain_round(cols)))
        if number < NUM_ROUNDS:
            kept = listing([self.styled(_("{name}: {value}"), name=self.name_text(s), value=n)
                            for s, n in enumerate(game.kept_puddings)])
            self.say(self.styled(_("Puddings kept for the end of the game: {counts}."), counts=kept))
            self.say(score_sheet_table(
                game.result(), self.names, breakdown=False, title=_("Score sheet after round {round}", round=number)
            ))
            if self.humans:
                self.pause(_("Press Enter to start round {round} ", round=number + 1))

    def show_end(self) -> None:
        game = self.game
        result = game.result()
        self.say(Rule(Text(_("Game over"), style="bold")))
        counts = list(result.puddings)
        parts = []
        for s, n in enumerate(counts):
            adj = result.pudding[s]
            if adj:
                parts.append(self.styled(_("{name}: {value} ({change})"), name=self.name_text(s), value=n,
                                         change=f"{adj:+d}"))
            else:
                parts.append(self.styled(_("{name}: {value}"), name=self.name_text(s), value=n))
        self.say(self.styled(_("Puddings: {counts}."), counts=listing(parts)))
        if max(counts) == min(counts):
            self.say(Text(_("Everyone has the same number of puddings: nobody gains or loses.")))
        elif game.players == 2:
            self.say(Text(_("Most puddings +6 (no penalty for fewest with 2 players).")))
        else:
            self.say(Text(_("Most puddings +6, fewest -6 (ties split the points).")))
        self.say(score_sheet_table(result, self.names, breakdown=False, title=_("Final score sheet")))
        best = max(result.totals)
        tied = [s for s, t in enumerate(result.totals) if t == best]
        if len(tied) > 1 and len(result.winners) < len(tied):
            self.say(self.styled(_n("{names} tied on {n} point; the tie goes to most puddings.",
                                    "{names} tied on {n} points; the tie goes to most puddings.", best,
                                    **keep("names")), names=each_and([self.name_text(s) for s in tied])))
        elif len(result.winners) > 1:
            puddings = result.puddings[result.winners[0]]
            self.say(Text(_("Tied on points and puddings ({points}, {puddings}): a shared win.",
                            points=_n("{n} point", "{n} points", best),
                            puddings=_n("{n} pudding", "{n} puddings", puddings))))
        self.say(winners_line(result, self.names), style="bold green")

    # ---------------------------------------------------------------- turns

    def human_pick(self, seat: int) -> None:
        game = self.game
        if self.pass_and_play:
            self.say(Text("\n") + self.styled(_("Pass the device to {name}. Nobody else may look."),
                                              name=self.name_text(seat)))
            self.pause(_("{name}, press Enter when ready ", name=self.names[seat]))
        hand = self.show_turn(seat)
        chopsticks = game.can_use_chopsticks(seat)
        prompt = _("Pick a card (or two)> ") if chopsticks else _("Pick a card> ")
        while True:
            text = self.ask(prompt).strip().lower()
            if self.run_command(text):
                continue
            try:
                action = self.parse_pick(text, seat, hand)
                game.commit(seat, action)
            except (ValueError, IllegalActionError) as e:
                self.say(Text(localized(message_of(e)), style="red"))
                continue
            break
        if self.pass_and_play:
            self.hide()

    def parse_pick(self, text: str, seat: int, hand: list[int]) -> Action:
        """The action for ``seat``'s typed pick from ``hand`` (as numbered on screen).

        Raises :class:`ValueError` saying what is wrong.
        """
        k = len(hand)
        if not text:
            raise ValueError(_("Type the number of a card (1-{count}), or ? for help.", count=k))
        def names(c: int) -> tuple[str, str]:
            return _(CARD_SHORT[Card(c)]), said(Label(CARD_LABELS[c]))

        named = card_named(text, hand, names)
        if named is not None:  # a card's whole name as the screen shows it, in the game's language
            return encode([named])
        elsewhere = card_named(text, [int(c) for c in Card], names)
        if elsewhere is not None:
            raise ValueError(_("There is no {card} in your hand.", card=_(CARD_SHORT[Card(elsewhere)])))
        tokens = [t for t in re.split(r"[\s+,]+", text) if t]
        if len(tokens) > 2:
            raise ValueError(_("Pick one card, or two with chopsticks."))
        if len(tokens) == 2 and not self.game.can_use_chopsticks(seat):
            if Card.CHOPSTICKS in self.game.collections[seat]:
                raise ValueError(_("Chopsticks need at least two cards in your hand."))
            raise ValueError(
                _("Two cards need chopsticks in your collection from an earlier turn.")
            )
        positions: list[int] = []
        for token in tokens:
            if token.isascii() and token.isdigit():
                pos = int(token)
                if not 1 <= pos <= k:
                    raise ValueError(_("There is no card {token}: your hand is numbered 1-{count}.",
                                       token=token[:6], count=k))
                if pos - 1 in positions:
                    raise ValueError(_("You can't take the same card twice."))
                positions.append(pos - 1)
                continue
            try:
                card = parse_card(token)
            except UnknownCardError:
                raise ValueError(not_a_card(token, [Card(c).name_in_records for c in hand], CARD_NAMES)) from None
            free = [i for i, c in enumerate(hand) if c == card and i not in positions]
            if not free:
                label = _(CARD_SHORT[card])
                if positions:
                    raise ValueError(_("There is no other {card} in your hand.", card=label))
                raise ValueError(_("There is no {card} in your hand.", card=label))
            positions.append(free[0])
        return encode([hand[p] for p in positions])

    def play_turn(self) -> None:
        game = self.game
        round_index = game.round - 1
        for seat in range(game.players):
            bot = self.bots[seat]
            if bot is not None:
                game.commit(seat, bot.choose(view_for(game, seat, bot)))
            elif len(game.hands[seat]) == 1:
                card = game.hands[seat][0]
                game.commit(seat, card)
            else:
                self.human_pick(seat)
        self.show_reveal(round_index)
        if game.is_over or game.round - 1 != round_index:
            self.show_round_end(round_index)

def run_play(
    players: int = 4,
    humans: int = 1,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
    pass_both_ways: bool = False,
    reshuffle: bool = False,
    save: str | None = None,
    names: Sequence[str] | None = None,
    console: Console | None = None,
    input_fn: InputFn | None = None,
    time_limit: float | None = None,
) -> int:
    """Play one game in the terminal; return the exit status.

    Args:
        players: seats at the table, 2-5.
        humans: human seats, 0 to ``players``; they take the first seats.
            More than one is pass-and-play; none watches the bots play.
        bots: bot specs (``greedy``, ``ismcts:time=0.5``, ``cmd:COMMAND``; see
            :func:`sushigo.bots.make_bot`) for the other seats: one for all
            of them, or one per bot seat.  Default: greedy.
        seed: seeds the shuffle and (derived per seat) the bots; ``None``
            draws one, which is shown and saved so the game can be replayed.
        pass_both_ways, reshuffle: the rule options of :class:`~sushigo.engine.rules.Rules`.
        save: path of the game record (parent folders are created); written
            at the end, or with the game so far when a player quits or the
            input ends.  ``None``: not saved.
        names: names of the human players, in seat order (at most ``humans``;
            the rest are "You" or "Player N").  Bots are named after their kind
            and seat ("Greedy 2").
        console: a :class:`rich.console.Console` to draw on (default: the
            terminal, at most 80 columns wide).
        input_fn: reads one line; see :data:`InputFn` (default: standard input).

    Returns:
        :data:`EXIT_FINISHED` (0), :data:`EXIT_STOPPED` (1: quit, end of input,
        or the record could not be saved), :data:`EXIT_USAGE` (2: impossible
        settings, reported in one line: on ``console`` if one is given, else
        on standard error) or :data:`EXIT_INTERRUPTED` (130).
    """
    table = prepare_table(
        lambda: Rules(players, pass_both_ways=pass_both_ways, reshuffle=reshuffle),
        humans, bots, seed, save, names, console, time_limit,
    )
    if isinstance(table, int):
        return table
    rules, seed, seat_bots, seat_names, meta = table
    game = Game(rules, seed=seed)
    out = console if console is not None else default_console()
    return TerminalGame(game, seat_names, seat_bots, out, input_fn, save, meta).run()


__all__ = [
    "EXIT_FINISHED",
    "EXIT_INTERRUPTED",
    "EXIT_STOPPED",
    "EXIT_USAGE",
    "InputFn",
    "TableSession",
    "TerminalGame",
    "card_text",
    "collection_text",
    "prepare_table",
    "run_play",
]
