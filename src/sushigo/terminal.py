"""The interactive terminal game behind ``sushigo play``.

One human against bots, several humans passing one keyboard around
(pass-and-play: each hand stays hidden until its player says they are
ready), or only bots (a demonstration).  Everything is typed: the number of
a card, two numbers with chopsticks (``3 5`` or ``3+5``, in play order),
``?`` for the scoring rules, ``q`` to quit.  It reads lines, so it also
works with piped input, and it fits an 80-column terminal.

Human picks go through :meth:`Game.commit <sushigo.game.Game.commit>`; bots
pick from their own :func:`~sushigo.view.seat_view` only.

>>> import io
>>> from rich.console import Console
>>> out = Console(file=io.StringIO(), width=80)
>>> run_play(players=3, humans=0, bots=["greedy", "random", "random"], seed=1, console=out)
0
>>> "Final score sheet" in out.file.getvalue()
True
"""

from __future__ import annotations

import datetime
import os
import random
import re
import sys
from collections import Counter
from typing import Any, Callable, Final, Generic, Sequence, TypeVar

from rich import box
from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from sushigo.actions import Action, card_ids, encode
from sushigo.bots import Bot, make_bot
from sushigo.bots.base import view_for
from sushigo.cards import CARD_NAMES, MAKI_ICONS, NIGIRI, Card, UnknownCardError, did_you_mean, parse_card
from sushigo.game import Game, IllegalActionError
from sushigo.party.game import PartyGame
from sushigo.record import save_record
from sushigo.render import score_sheet_table, winners_line
from sushigo.rules import NUM_ROUNDS, Rules, RulesError
from sushigo.scoring import maki_icons, wasabi_pairs

EXIT_FINISHED: Final = 0
"""The game was played to the end (and saved, if saving was on)."""
EXIT_STOPPED: Final = 1
"""A player quit, input ended (Ctrl-D), or the record could not be saved."""
EXIT_USAGE: Final = 2
"""The settings were impossible (player counts, bot names, names, save path)."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C."""

MAX_WIDTH: Final = 80
MAX_NAME: Final = 12
"""Longest player name shown (the shared score sheet shows 12 characters)."""

InputFn = Callable[[str], str]
"""Reads one line (without its newline) after the prompt has been printed.

It receives the prompt text so scripted players can tell what is asked; it
must not print it again.  It raises :class:`EOFError` at the end of input.
"""

CARD_SHORT: Final[dict[Card, str]] = {
    Card.TEMPURA: "Tempura",
    Card.SASHIMI: "Sashimi",
    Card.DUMPLING: "Dumpling",
    Card.MAKI1: "Maki 1",
    Card.MAKI2: "Maki 2",
    Card.MAKI3: "Maki 3",
    Card.EGG: "Egg",
    Card.SALMON: "Salmon",
    Card.SQUID: "Squid",
    Card.WASABI: "Wasabi",
    Card.CHOPSTICKS: "Chopsticks",
    Card.PUDDING: "Pudding",
}
"""Short labels used on screen (maki with its roll icons)."""

CARD_STYLE: Final[dict[Card, str]] = {
    Card.TEMPURA: "magenta",
    Card.SASHIMI: "green",
    Card.DUMPLING: "blue",
    Card.MAKI1: "red",
    Card.MAKI2: "red",
    Card.MAKI3: "red",
    Card.EGG: "yellow",
    Card.SALMON: "yellow",
    Card.SQUID: "yellow",
    Card.WASABI: "bright_green",
    Card.CHOPSTICKS: "cyan",
    Card.PUDDING: "bright_magenta",
}

HELP_TEXT: Final = """\
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
the player with more puddings, else the win is shared."""


class _Stop(Exception):
    """The game stops early: ``reason`` is ``'quit'``, ``'eof'`` or ``'interrupt'``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def card_text(card: int, label: str | None = None) -> Text:
    """A card's short label in its colour.

    >>> card_text(Card.SQUID).plain
    'Squid'
    """
    c = Card(card)
    return Text(label if label is not None else CARD_SHORT[c], style=CARD_STYLE[c])


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
        icons = "+".join(str(MAKI_ICONS[m]) for m in makis for _ in range(counts[m]))
        parts.append((Card.MAKI1, card_text(makis[0], f"Maki({icons})")))
    for c, n in counts.items():
        if not MAKI_ICONS[c]:
            parts.append((c, card_text(c, CARD_SHORT[Card(c)] + (f"{times}{n}" if n > 1 else ""))))
    for c in sorted(topped, reverse=True):
        pair = Text.assemble(card_text(Card.WASABI), ("+", "bright_green"), card_text(c))
        parts.append((Card.WASABI - 0.5, pair))
    parts.sort(key=lambda part: part[0])
    if not parts:
        return Text("-", style="dim")
    return Text("  ").join(text for _, text in parts)


def pick_text(cards: Sequence[int], collection: Sequence[int]) -> Text:
    """What a seat revealed this turn: the last ``len(cards)`` cards of ``collection``."""
    pairs = wasabi_pairs(collection)
    start = len(collection) - len(cards)
    parts = []
    for i in range(start, len(collection)):
        c = collection[i]
        parts.append(card_text(c, CARD_SHORT[Card(c)] + (" on wasabi" if i in pairs else "")))
    text = Text(", then ").join(parts)
    if len(cards) == 2:
        text.append("  (chopsticks)", style="cyan")
    return text


def _cell(points: int, count: int) -> str:
    """A score-table cell: points, and how many cards (or icons) made them."""
    return f"{points} ({count})" if count else str(points)


def _clean_name(name: str) -> str:
    cleaned = "".join(ch for ch in str(name) if ch.isprintable()).strip()
    return " ".join(cleaned.split())[:MAX_NAME]


class _Setup(ValueError):
    """Impossible settings (reported in one line, exit status 2)."""


GameT = TypeVar("GameT", Game, PartyGame)


class TableSession(Generic[GameT]):
    """What both editions' terminal games share: the seats, reading input
    (``?`` help and ``q`` quit everywhere), pass-and-play screens, saving
    the record, and the run loop with its exit statuses.  Subclasses draw
    the screens and play the turns."""

    def __init__(
        self,
        game: GameT,
        names: list[str],
        bots: list[Bot | None],
        console: Console,
        input_fn: InputFn | None,
        save: str | None,
        meta: dict[str, Any],
    ) -> None:
        self.game: GameT = game
        self.names = names
        self.bots = bots
        self.humans = [s for s, b in enumerate(bots) if b is None]
        self.console = console
        self.save = save
        self.meta = meta
        self._read: InputFn = input_fn if input_fn is not None else _read_stdin
        self._echo = input_fn is not None or not _stdin_is_tty()
        self.times = "\u00d7" if console.encoding.lower().startswith("utf") else "*"

    # --------------------------------------------------------------- output

    def say(self, *objects: RenderableType | str, **kwargs: Any) -> None:
        kwargs.setdefault("highlight", False)
        self.console.print(*objects, **kwargs)

    @property
    def pass_and_play(self) -> bool:
        return len(self.humans) > 1

    def name_text(self, seat: int) -> Text:
        return Text(self.names[seat], style="bold")

    # ---------------------------------------------------------------- input

    def ask(self, prompt: str) -> str:
        """Print ``prompt``, read one line; end of input and Ctrl-C stop the game."""
        self.say(Text(prompt, style="bold"), end="")
        try:
            line = self._read(prompt)
        except EOFError:
            self.say("")
            raise _Stop("eof") from None
        except KeyboardInterrupt:
            self.say("")
            raise _Stop("interrupt") from None
        line = line.rstrip("\r\n")
        if self._echo:
            shown = line if len(line) <= 24 else line[:21] + "..."
            self.say(Text(shown))
        return line

    def confirm_quit(self) -> None:
        answer = self.ask("Quit this game? [y/N] ").strip().lower()
        if answer in ("y", "yes"):
            raise _Stop("quit")
        self.say("Carrying on.")

    def run_command(self, text: str) -> bool:
        """Handle ``?``/``h`` (help) and ``q`` (quit, after a confirmation);
        ``True`` when ``text`` was one of them."""
        if text in ("?", "h", "help"):
            self.show_help()
            return True
        if text in ("q", "quit", "exit"):
            self.confirm_quit()
            return True
        return False

    def pause(self, prompt: str) -> None:
        """Wait for Enter (``q`` still quits, ``?`` shows the help)."""
        while self.run_command(self.ask(prompt).strip().lower()):
            pass

    def hide(self) -> None:
        """Clear the screen (and the scrollback) between pass-and-play seats."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # erase the scrollback too, where supported
            self.console.file.flush()
        else:
            self.say(Rule("screen cleared", style="dim"))

    # ------------------------------------------------------------------ run

    def save_game(self, finished: bool) -> bool:
        if self.save is None:
            return True
        meta = dict(self.meta, finished=finished)
        try:
            save_record(self.game, self.save, meta=meta)
        except OSError as e:
            reason = e.strerror or e
            self.say(Text(f"Could not save the game record to {self.save}: {reason}", style="red"))
            return False
        what = "Game record saved" if finished else "The game so far was saved"
        self.say(Text.assemble(f"{what} to ", (self.save, "bold")))
        return True

    def run(self) -> int:
        game_id = f"play-{self.game.seed}"
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                bot.start_game(game_id, seat, self.game.rules)
        try:
            return self._run(game_id)
        finally:
            for bot in self.bots:
                if bot is not None:
                    bot.close()

    def _run(self, game_id: str) -> int:
        self.show_intro()
        try:
            try:
                while not self.game.is_over:
                    self.play_turn()
            except KeyboardInterrupt:
                self.say("")
                raise _Stop("interrupt") from None
        except _Stop as stop:
            message = {
                "quit": "Game abandoned.",
                "eof": "End of input: game stopped.",
                "interrupt": "Interrupted: game stopped.",
            }[stop.reason]
            self.say(Text(message, style="bold"))
            self.save_game(finished=False)
            return EXIT_INTERRUPTED if stop.reason == "interrupt" else EXIT_STOPPED
        result = self.game.result().to_json()
        for bot in self.bots:
            if bot is not None:
                bot.end_game(game_id, result)
        self.show_end()
        self.show_incidents()
        return EXIT_FINISHED if self.save_game(finished=True) else EXIT_STOPPED

    def show_incidents(self) -> None:
        """Tell what external bots got wrong (their seat played a random legal action instead)."""
        for seat, bot in enumerate(self.bots):
            incidents = getattr(bot, "incidents", None) or []
            if incidents:
                kinds = ", ".join(f"{k} x{n}" for k, n in sorted(Counter(i.kind for i in incidents).items()))
                self.say(Text(f"{self.names[seat]} (external bot) misplayed {len(incidents)} decision(s), "
                              f"played at random instead: {kinds}", style="yellow"))

    # ----------------------------------------------------- for subclasses

    def show_help(self) -> None:
        raise NotImplementedError

    def show_intro(self) -> None:
        raise NotImplementedError

    def play_turn(self) -> None:
        raise NotImplementedError

    def show_end(self) -> None:
        raise NotImplementedError



class TerminalGame(TableSession[Game]):
    """One game at the terminal; build it with :func:`run_play`."""

    # ------------------------------------------------------------- screens

    def show_help(self) -> None:
        self.say(Padding(Text(HELP_TEXT), (1, 0, 1, 0)))

    def show_intro(self) -> None:
        game = self.game
        rules = game.rules
        options = []
        if rules.pass_both_ways:
            options.append("pass both ways (round 2 passes right)")
        if rules.reshuffle:
            options.append("reshuffle between rounds (house rule)")
        self.say(Rule(Text("Sushi Go!", style="bold red")))
        def label(seat: int) -> str:
            if self.bots[seat] is not None:
                return " (bot)"
            return " (you)" if len(self.humans) == 1 and self.names[seat] != "You" else ""

        seats = Text(", ").join(Text.assemble(self.name_text(s), label(s)) for s in range(game.players))
        self.say(Text.assemble(f"{game.players} players: ", seats))
        self.say(f"Rules: {', '.join(options) if options else 'official'}; seed {game.seed}.")
        if self.humans:
            self.say("Type the number of a card to pick it, ? for help, q to quit.")

    def table(self, viewer: int | None) -> Table:
        """Every seat's collection this round, maki icons, puddings and points."""
        game = self.game
        scores = game.result().totals
        puddings = game.puddings()
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
        table.add_column("Player", no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column("Collection this round", ratio=1, min_width=20)
        table.add_column("Maki", justify="right", no_wrap=True)
        table.add_column("Pud", justify="right", no_wrap=True)
        table.add_column("Pts", justify="right", no_wrap=True)
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
        heading = f"Round {game.round} of {NUM_ROUNDS} - turn {game.turn} of {game.rules.hand_size}"
        self.say(Rule(heading))
        self.say(self.table(seat))
        direction = "left" if game.pass_step == 1 else "right"
        self.say(Text.assemble(
            "You pass this hand ", direction, " to ", self.name_text(game.passes_to(seat)),
            " and receive ", self.name_text(game.receives_from(seat)), "'s next.",
        ))
        hand = sorted(game.hands[seat])
        owner = "Your" if len(self.humans) == 1 else f"{self.names[seat]}'s"
        self.say(Text(f"{owner} hand ({len(hand)} cards):", style="bold"))
        grid = Table.grid(padding=(0, 2))
        per_row = 4
        for _ in range(per_row):
            grid.add_column(no_wrap=True)
        cells = [Text.assemble((f"{i:>2} ", "bold"), card_text(c)) for i, c in enumerate(hand, 1)]
        for i in range(0, len(cells), per_row):
            grid.add_row(*cells[i:i + per_row])
        self.say(Padding(grid, (0, 0, 0, 1), expand=False))
        if game.can_use_chopsticks(seat):
            hint = "Chopsticks: you may take two cards, e.g. 1 2 (in play order)."
            self.say(Text(hint, style="cyan"))
        return hand

    def show_reveal(self, round_index: int) -> None:
        game = self.game
        _, turns = game.history()[round_index]
        cols = game.round_collections(round_index + 1)
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column()
        for s, action in enumerate(turns[-1]):
            table.add_row(self.name_text(s), pick_text(card_ids(action), cols[s]))
        last = " (the last cards, played for everyone)" if len(turns) == game.rules.hand_size else ""
        self.say(Text(f"Revealed in round {round_index + 1}, turn {len(turns)}{last}:", style="bold"))
        self.say(Padding(table, (0, 0, 1, 1), expand=False))

    def show_round_end(self, round_index: int) -> None:
        game = self.game
        number = round_index + 1
        cols = game.round_collections(round_index + 1)
        lines = game.round_breakdowns[round_index]
        self.say(Rule(Text(f"End of round {number}: scoring", style="bold")))
        collections = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        collections.add_column("Player", no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        collections.add_column("Collection", ratio=1)
        for s in range(game.players):
            collections.add_row(self.name_text(s), collection_text(cols[s], self.times))
        self.say(collections)

        table = Table(
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            title=f"Round {number} points (cards; roll icons for maki)",
        )
        table.add_column("Player", no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        for header in ("Tempura", "Sashimi", "Dumpling", "Nigiri", "Maki"):
            table.add_column(header, justify="right", no_wrap=True)
        table.add_column("Round", justify="right", no_wrap=True, style="bold")
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
        self.say(self.maki_explanation([maki_icons(c) for c in cols], [ln["maki"] for ln in lines]))
        if number < NUM_ROUNDS:
            self.say(Text.assemble(
                "Puddings kept for the end of the game: ",
                Text(", ").join(
                    Text.assemble(self.name_text(s), f": {n}") for s, n in enumerate(game.kept_puddings)
                ),
                ".",
            ))
            self.say(score_sheet_table(
                game.result(), self.names, breakdown=False, title=f"Score sheet after round {number}"
            ))
            if self.humans:
                self.pause(f"Press Enter to start round {number + 1} ")

    def maki_explanation(self, icons: list[int], awards: list[int]) -> Text:
        """One line: who got the maki award and why."""
        if max(icons) == 0:
            return Text("Maki: nobody has a roll, so nobody scores maki.")

        def who(seats: list[int]) -> Text:
            return Text(" and ").join(self.name_text(s) for s in seats)

        top = max(icons)
        firsts = [s for s, n in enumerate(icons) if n == top]
        if len(firsts) > 1:
            return Text.assemble(
                f"Maki: tied for most rolls ({top}): ", who(firsts),
                f" +{awards[firsts[0]]} each; no second place.",
            )
        text = Text.assemble(f"Maki: most rolls ({top}): ", who(firsts), " +6")
        second = max((n for n in icons if 0 < n < top), default=0)
        if second:
            seconds = [s for s, n in enumerate(icons) if n == second]
            each = " each" if len(seconds) > 1 else ""
            text.append_text(Text.assemble(
                f"; second most ({second}): ", who(seconds), f" +{awards[seconds[0]]}{each}"
            ))
        else:
            text.append("; nobody else has a roll")
        text.append(".")
        return text

    def show_end(self) -> None:
        game = self.game
        result = game.result()
        self.say(Rule(Text("Game over", style="bold")))
        counts = list(result.puddings)
        parts = []
        for s, n in enumerate(counts):
            adj = result.pudding[s]
            note = f" ({adj:+d})" if adj else ""
            parts.append(Text.assemble(self.name_text(s), f": {n}{note}"))
        self.say(Text.assemble("Puddings: ", Text(", ").join(parts), "."))
        if max(counts) == min(counts):
            self.say("Everyone has the same number of puddings: nobody gains or loses.")
        elif game.players == 2:
            self.say("Most puddings +6 (no penalty for fewest with 2 players).")
        else:
            self.say("Most puddings +6, fewest -6 (ties split the points).")
        self.say(score_sheet_table(result, self.names, breakdown=False, title="Final score sheet"))
        best = max(result.totals)
        tied = [s for s, t in enumerate(result.totals) if t == best]
        if len(tied) > 1 and len(result.winners) < len(tied):
            self.say(Text.assemble(
                Text(" and ").join(self.name_text(s) for s in tied),
                f" tied on {best} points; the tie goes to most puddings.",
            ))
        elif len(result.winners) > 1:
            self.say(f"Tied on points and puddings ({best} points, "
                     f"{result.puddings[result.winners[0]]} puddings): a shared win.")
        self.say(winners_line(result, self.names), style="bold green")

    # ---------------------------------------------------------------- turns

    def human_pick(self, seat: int) -> None:
        game = self.game
        if self.pass_and_play:
            self.say(Text.assemble(
                "\nPass the device to ", self.name_text(seat), ". Nobody else may look."
            ))
            self.pause(f"{self.names[seat]}, press Enter when ready ")
        hand = self.show_turn(seat)
        chopsticks = game.can_use_chopsticks(seat)
        prompt = "Pick a card (or two)> " if chopsticks else "Pick a card> "
        while True:
            text = self.ask(prompt).strip().lower()
            if self.run_command(text):
                continue
            try:
                action = self.parse_pick(text, seat, hand)
                game.commit(seat, action)
            except (ValueError, IllegalActionError) as e:
                self.say(Text(str(e), style="red"))
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
            raise ValueError(f"Type the number of a card (1-{k}), or ? for help.")
        tokens = [t for t in re.split(r"[\s+,]+", text) if t]
        if len(tokens) > 2:
            raise ValueError("Pick one card, or two with chopsticks.")
        if len(tokens) == 2 and not self.game.can_use_chopsticks(seat):
            if Card.CHOPSTICKS in self.game.collections[seat]:
                raise ValueError("Chopsticks need at least two cards in your hand.")
            raise ValueError(
                "Two cards need chopsticks in your collection from an earlier turn."
            )
        positions: list[int] = []
        for token in tokens:
            if token.isascii() and token.isdigit():
                pos = int(token)
                if not 1 <= pos <= k:
                    raise ValueError(f"There is no card {token[:6]}: your hand is numbered 1-{k}.")
                if pos - 1 in positions:
                    raise ValueError("You can't take the same card twice.")
                positions.append(pos - 1)
                continue
            try:
                card = parse_card(token)
            except UnknownCardError:
                hint = did_you_mean(token, [Card(c).name_in_records for c in hand]) or did_you_mean(token, CARD_NAMES)
                raise ValueError(f"{token[:20]!r} is not a card number or a card name{hint}.") from None
            free = [i for i, c in enumerate(hand) if c == card and i not in positions]
            if not free:
                other = "other " if positions else ""
                raise ValueError(f"There is no {other}{CARD_SHORT[card]} in your hand.")
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

def _read_stdin(prompt: str) -> str:
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError  # standard input was closed: treat it as its end
    try:
        return input()
    except RuntimeError:  # "lost sys.stdin"
        raise EOFError from None


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _default_console() -> Console:
    probe = Console()
    return Console(width=min(probe.width, MAX_WIDTH), highlight=False)


def _seat_names(humans: int, specs: list[str], names: Sequence[str] | None) -> list[str]:
    given = [_clean_name(n) for n in (names or [])]
    if len(given) > humans:
        raise _Setup(f"{len(given)} names given for {humans} human player(s)")
    if any(not n for n in given):
        raise _Setup("a player name is empty")
    out = list(given)
    for h in range(len(given), humans):
        out.append("You" if humans == 1 else f"Player {h + 1}")
    for i, spec in enumerate(specs):
        # "Greedy 2", "Ismcts 3" (settings left out), "Bot 4" for an external program
        kind = spec.strip().split(":", 1)[0].lower()
        label = "Bot" if kind == "cmd" else kind.capitalize()
        out.append(f"{label} {humans + i + 1}")
    seen: set[str] = set()
    for s, name in enumerate(out):
        if name.lower() in seen:
            raise _Setup(f"two players are called {name!r}")
        seen.add(name.lower())
    return out


def prepare_table(
    make_rules: Callable[[], Rules],
    humans: int,
    bots: Sequence[str] | None,
    seed: int | None,
    save: str | None,
    names: Sequence[str] | None,
    console: Console | None,
    time_limit: float | None = None,
) -> tuple[Rules, int, list[Bot | None], list[str], dict[str, Any]] | int:
    """Check a table's settings for either edition's terminal game.

    Returns ``(rules, seed, seat bots, seat names, record meta)``, or
    :data:`EXIT_USAGE` after reporting the impossible setting in one line (on
    ``console`` if given, else on standard error).  The save path's folder is
    created here, before any game is played.
    """
    try:
        try:
            rules = make_rules()
        except RulesError as e:
            raise _Setup(str(e)) from None
        if isinstance(humans, bool) or not isinstance(humans, int) or not 0 <= humans <= rules.players:
            raise _Setup(f"humans must be 0 to {rules.players}, not {humans!r}")
        bot_seats = rules.players - humans
        specs = list(bots) if bots else ["greedy"]
        if len(specs) == 1:
            specs = specs * bot_seats
        elif len(specs) != bot_seats:
            raise _Setup(
                f"{len(specs)} bots given for {bot_seats} bot seat(s): give one for all, or one per seat"
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        seeder = random.Random(f"sushigo-play-bots-{seed}")
        bot_seeds = [seeder.getrandbits(32) for _ in range(bot_seats)]
        try:
            seat_bots: list[Bot | None] = [None] * humans + [
                make_bot(spec, bot_seed, timeout=time_limit) for spec, bot_seed in zip(specs, bot_seeds)
            ]
        except ValueError as e:
            raise _Setup(str(e)) from None
        seat_names = _seat_names(humans, specs, names)
        if save is not None:
            if os.path.isdir(save):
                raise _Setup(f"cannot save to {save}: it is a directory")
            directory = os.path.dirname(os.path.abspath(save))
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError as e:
                raise _Setup(f"cannot create {directory}: {e.strerror or e}") from None
    except _Setup as e:
        message = f"sushigo: error: {' '.join(str(e).split())}"
        if console is None:
            print(message, file=sys.stderr)
        else:
            console.print(Text(message), soft_wrap=True, highlight=False)
        return EXIT_USAGE
    meta: dict[str, Any] = {
        "names": seat_names,
        "seats": [
            {"name": seat_names[s], "player": "human"} if b is None
            else {"name": seat_names[s], "player": "bot", "bot": b.name, "bot_seed": b.seed}
            for s, b in enumerate(seat_bots)
        ],
        "program": "sushigo play",
        "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
    }
    return rules, seed, seat_bots, seat_names, meta


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
        pass_both_ways, reshuffle: the rule options of :class:`~sushigo.rules.Rules`.
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
    out = console if console is not None else _default_console()
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
