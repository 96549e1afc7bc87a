"""What both editions' terminal games share: exit statuses, reading lines,
checking a table's settings (:func:`prepare_table`) and the session itself
(:class:`TableSession`: seats, ``?`` help and ``q`` quit, pass-and-play
screens, saving the record, the run loop).  Each edition draws its own
screens and plays its own turns (:mod:`~sushigo.terminal.base`,
:mod:`~sushigo.terminal.party`), because what a turn shows and asks differs
by nature between them (one pick against picks, spoons, menus and boxes).

Every text is said in the player's language (:mod:`sushigo.i18n`, chosen by
``sushigo play --lang``): whole sentences with named fields (``_``, ``_n``),
the engine's own sentences rendered from their messages (``say``), and
:func:`styled` where a sentence holds styled parts (bold names, coloured cards).
"""

from __future__ import annotations

import datetime
import os
import random
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, TypeVar

from rich import box
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from sushigo.bots import Bot, make_bot
from sushigo.engine.base.game import Game
from sushigo.engine.editions import save_record
from sushigo.engine.messages import AND, COMMA, N_, Sentence
from sushigo.engine.names import suggest
from sushigo.engine.narration import Line
from sushigo.engine.party.game import PartyGame
from sushigo.engine.points import RoundStory
from sushigo.engine.rules import Rules, RulesError
from sushigo.i18n import _, _l, _ln, _n, current, localized, message_of
from sushigo.i18n import say as said

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


_FIELD: Final = re.compile(r"\{(\w+)\}")

Part = Text | str | int
"""A piece of a styled sentence: styled text (a bold name, a coloured card), plain
text, or a number (written as the language writes numbers)."""


def styled(template: str, **parts: Part) -> Text:
    """A translated ``template`` (``_("... {name} ...")`` with no fields: the template
    itself) with each ``{name}`` replaced by its part, styles kept; the sentence stays
    whole for the translators, whatever order their language puts the parts in.

    >>> styled("{who} passes to {to}.", who=Text("Ana", style="bold"), to="Ben").plain
    'Ana passes to Ben.'
    """
    out = Text()
    at = 0
    for m in _FIELD.finditer(template):
        out.append(template[at:m.start()])
        part = parts[m.group(1)]
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(current().number(part) if isinstance(part, int) else part)
        at = m.end()
    out.append(template[at:])
    return out


def keep(*names: str) -> dict[str, str]:
    """Fields left in a template for :func:`styled` to fill: ``_n(one, many, n, **keep("names"))``
    fills ``{n}`` and keeps ``{names}``."""
    return {name: f"{{{name}}}" for name in names}


def _folded(parts: Sequence[Part], join: str, rest: str) -> Text:
    """``parts`` joined from the last one back, each by the template ``join``
    (its ``{first}``, and the part joined so far as ``{rest}``)."""
    if not parts:
        return Text()
    out = styled("{only}", only=parts[-1])
    for part in reversed(parts[:-1]):
        out = styled(_(join), **{"first": part, rest: out})
    return out


def listing(parts: Sequence[Part]) -> Text:
    """Parts in a plain list, joined as the language joins one (``a, b, c``)."""
    return _folded(parts, COMMA, "rest")


def each_and(parts: Sequence[Part]) -> Text:
    """Parts joined by "and", each to the next (``a and b and c``)."""
    return _folded(parts, AND, "last")


def folded(text: str) -> str:
    """``text`` as a typed name is compared: case, accents, spaces and signs aside.

    >>> folded("Nigiri au  Calmar!"), folded("Gyôza"), folded("サーモン 握り")
    ('nigiriaucalmar', 'gyoza', 'サーモン握り')
    """
    bare = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in bare if ch.isalnum() and not unicodedata.combining(ch))


def card_named(text: str, cards: Sequence[int], names: Callable[[int], Sequence[str]]) -> int | None:
    """The card of ``cards`` that ``text`` names in the game's language (``names``: a card's
    names as shown, translated), or ``None``: a player types the names the screen shows.

    >>> card_named("Calmar", [3, 7], lambda c: {3: ["Calmar"], 7: ["Saumon"]}[c])
    3
    """
    typed = folded(text)
    if not typed:
        return None
    for c in cards:
        if any(folded(n) == typed for n in names(c)):
            return c
    return None


def not_a_card(token: str, *names: Sequence[str]) -> str:
    """The error for a typed word that names no card: with the card names it nearly
    spells (record names, as typed), from the first of ``names`` that has any."""
    found: list[str] = []
    for candidates in names:
        found = suggest(token, candidates)
        if found:
            break
    shown = repr(token[:20])
    if not found:
        return _("{token} is not a card number or a card name.", token=shown)
    quoted = [repr(n) for n in found]
    either = quoted[-1]
    if len(quoted) > 1:
        either = _("{first} or {last}", first=quoted[-2], last=quoted[-1])
        for q in reversed(quoted[:-2]):
            either = _(COMMA, first=q, rest=either)
    return _("{token} is not a card number or a card name (did you mean {names}?).", token=shown, names=either)


def revealed(round_number: int, turn: int, last: bool) -> str:
    """The heading of a turn's reveal (both editions)."""
    if last:
        return _("Revealed in round {round}, turn {turn} (the last cards, played for everyone):",
                 round=round_number, turn=turn)
    return _("Revealed in round {round}, turn {turn}:", round=round_number, turn=turn)


INCIDENT_WORDS: Final[dict[str, str]] = {
    "garbage": N_("garbage"), "illegal": N_("illegal"), "timeout": N_("timeout"), "died": N_("died"),
    "start_failed": N_("start_failed"),
}
"""What an external bot got wrong (:data:`sushigo.bots.external.IncidentKind`), as shown."""


class _Stop(Exception):
    """The game stops early: ``reason`` is ``'quit'``, ``'eof'`` or ``'interrupt'``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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

    @staticmethod
    def styled(template: str, **parts: Part) -> Text:
        """A translated template with styled parts (:func:`styled`), e.g.
        ``self.styled(_("Pass the device to {name}."), name=self.name_text(seat))``."""
        return styled(template, **parts)

    def seat_text(self, seat: int) -> Text:
        """A seat's name in bold, with "(bot)" or, beside other humans' names, "(you)"."""
        if self.bots[seat] is not None:
            return self.styled(_("{name} (bot)"), name=self.name_text(seat))
        if len(self.humans) == 1 and self.names[seat] != _("You"):
            return self.styled(_("{name} (you)"), name=self.name_text(seat))
        return self.name_text(seat)

    def line_text(self, line: Line) -> Text:
        """A line of the engine's story (:mod:`sushigo.engine.narration`) in the
        player's language, with the seats' names in bold; the public text (a
        pass-and-play screen is shared)."""
        text = said(line.message) if line.message is not None else line.text
        out = Text()
        at = 0
        for m in re.finditer(r"\{(\d+)\}", text):
            out.append(text[at:m.start()])
            out.append_text(self.name_text(int(m.group(1))))
            at = m.end()
        out.append(text[at:])
        return out

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
        answer = self.ask(_("Quit this game? [y/N] ")).strip().lower()
        # TRANSLATORS: the short and the long answer "yes" to "Quit this game? [y/N]"
        if answer in ("y", "yes", _("y").lower(), _("yes").lower()):
            raise _Stop("quit")
        self.say(Text(_("Carrying on.")))

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
            self.say(Rule(_("screen cleared"), style="dim"))

    # ------------------------------------------------------------------ run

    def save_game(self, finished: bool) -> bool:
        if self.save is None:
            return True
        meta = dict(self.meta, finished=finished)
        try:
            save_record(self.game, self.save, meta=meta)
        except OSError as e:
            reason = str(e.strerror or e)
            self.say(Text(_("Could not save the game record to {path}: {reason}", path=self.save, reason=reason),
                          style="red"))
            return False
        saved = _("Game record saved to {path}") if finished else _("The game so far was saved to {path}")
        self.say(self.styled(saved, path=Text(self.save, style="bold")))
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
                "quit": N_("Game abandoned."),
                "eof": N_("End of input: game stopped."),
                "interrupt": N_("Interrupted: game stopped."),
            }[stop.reason]
            self.say(Text(_(message), style="bold"))
            self.save_game(finished=False)
            return EXIT_INTERRUPTED if stop.reason == "interrupt" else EXIT_STOPPED
        result = self.game.result().to_json()
        for bot in self.bots:
            if bot is not None:
                bot.end_game(game_id, result)
        self.show_end()
        self.show_incidents()
        return EXIT_FINISHED if self.save_game(finished=True) else EXIT_STOPPED

    def scoring_table(self, story: RoundStory) -> Table:
        """How each seat's round scored, in the engine's words (the figures of
        :mod:`sushigo.engine.base.explain` or :mod:`sushigo.engine.party.explain`), and the races."""
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=_("How it scored"),
                      caption=" ".join(said(Sentence(r)) for r in story.races), caption_justify="left")
        table.add_column(_("Player"), no_wrap=True, max_width=MAX_NAME, overflow="ellipsis")
        table.add_column(_("Figures"), ratio=1)
        for s, figures in enumerate(story.figures):
            table.add_row(self.name_text(s), Text("; ".join(said(f.message) for f in figures)
                                                  or _("nothing that scores")))
        return table

    def show_incidents(self) -> None:
        """Tell what external bots got wrong (their seat played a random legal action instead)."""
        for seat, bot in enumerate(self.bots):
            incidents = getattr(bot, "incidents", None) or []
            if incidents:
                kinds = listing([_("{kind} x{count}", kind=_(INCIDENT_WORDS.get(k, k)), count=n)
                                 for k, n in sorted(Counter(i.kind for i in incidents).items())])
                self.say(Text(_n("{name} (external bot) misplayed {n} decision, played at random instead: {kinds}",
                                 "{name} (external bot) misplayed {n} decisions, played at random instead: {kinds}",
                                 len(incidents), name=self.names[seat], kinds=kinds.plain), style="yellow"))

    # ----------------------------------------------------- for subclasses

    def show_help(self) -> None:
        raise NotImplementedError

    def show_intro(self) -> None:
        raise NotImplementedError

    def play_turn(self) -> None:
        raise NotImplementedError

    def show_end(self) -> None:
        raise NotImplementedError


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


def default_console() -> Console:
    """The terminal, at most :data:`MAX_WIDTH` columns wide."""
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
        out.append(_("You") if humans == 1 else _("Player {n}", n=h + 1))  # default names, in the player's language
    for i, spec in enumerate(specs):
        # "Greedy 2", "Ismcts 3" (settings left out), "Bot 4" for an external program
        kind = spec.strip().split(":", 1)[0].lower()
        label = "Bot" if kind == "cmd" else kind.capitalize()
        out.append(f"{label} {humans + i + 1}")
    seen: set[str] = set()
    for name in out:
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
            raise _Setup(message_of(e)) from None
        if isinstance(humans, bool) or not isinstance(humans, int) or not 0 <= humans <= rules.players:
            raise _Setup(_l("humans must be 0 to {most}, not {humans}", most=rules.players, humans=repr(humans)))
        bot_seats = rules.players - humans
        specs = list(bots) if bots else ["greedy"]
        if len(specs) == 1:
            specs = specs * bot_seats
        elif len(specs) != bot_seats:
            raise _Setup(_ln("{count} bots given for {n} bot seat: give one for all, or one per seat",
                             "{count} bots given for {n} bot seats: give one for all, or one per seat",
                             bot_seats, count=len(specs)))
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        seeder = random.Random(f"sushigo-play-bots-{seed}")
        bot_seeds = [seeder.getrandbits(32) for _seat in range(bot_seats)]
        try:
            seat_bots: list[Bot | None] = [None] * humans + [
                make_bot(spec, bot_seed, timeout=time_limit) for spec, bot_seed in zip(specs, bot_seeds)
            ]
        except ValueError as e:
            raise _Setup(message_of(e)) from None
        seat_names = _seat_names(humans, specs, names)
        if save is not None:
            if os.path.isdir(save):
                raise _Setup(_l("cannot save to {path}: it is a directory", path=save))
            directory = os.path.dirname(os.path.abspath(save))
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError as e:
                raise _Setup(_l("cannot create {path}: {why}", path=directory, why=e.strerror or str(e))) from None
    except _Setup as e:
        message = "sushigo: error: " + " ".join(localized(message_of(e)).split())
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
