"""Human-friendly score sheets (rich tables), shared by the CLI and the terminal game,
in the language of :func:`sushigo.i18n.use` (English unless a game chose another)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from sushigo.engine.base.cards import ROUND_CATEGORIES
from sushigo.engine.base.scoring import Result
from sushigo.engine.messages import N_
from sushigo.engine.party.game import PartyResult
from sushigo.i18n import _, _n

CATEGORY_LABELS = {
    "tempura": N_("tempura"),
    "sashimi": N_("sashimi"),
    "dumpling": N_("dumplings"),
    "nigiri": N_("nigiri+wasabi"),
    "maki": N_("maki award"),
    "pudding": N_("pudding"),
}
"""The rows of a round's breakdown, in English (message ids)."""

SCORE_SHEET = N_("Score sheet")
"""The default title of a score sheet (translated when shown)."""


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Display names for the seats (``Seat 0`` ... unless names are given)."""
    if names:
        return [str(n)[:12] for n in names]
    return [f"Seat {s}" for s in range(players)]


def _sheet(players: int, names: Sequence[str] | None, title: str | None) -> Table:
    """An empty score sheet: a label column and one column per seat."""
    table = Table(
        title=Text(_(title) if title == SCORE_SHEET else title) if title is not None else None,
        box=box.SIMPLE_HEAVY,
        pad_edge=False,
        show_footer=False,
    )
    table.add_column("", no_wrap=True)
    for label in seat_names(players, names):
        table.add_column(Text(label), justify="right", no_wrap=True)
    return table


def score_sheet_table(
    result: Result,
    names: Sequence[str] | None = None,
    *,
    breakdown: bool = True,
    title: str | None = SCORE_SHEET,
) -> Table:
    """The score sheet as a table: per round (with the category breakdown),
    the pudding adjustment and the totals.  Fits 80 columns for 5 players."""
    players = len(result.totals)
    table = _sheet(players, names, title)
    for r, (totals, lines) in enumerate(zip(result.rounds, result.breakdown), start=1):
        if breakdown:
            for category in ROUND_CATEGORIES:
                values = [line.get(category, 0) for line in lines]
                table.add_row(
                    Text(f"  {_(CATEGORY_LABELS[category])}", style="dim"),
                    *[Text(str(v), style="dim") for v in values],
                )
        table.add_row(Text(_("Round {round}", round=r)), *[str(t) for t in totals], end_section=True)
    puddings = [f"{p} ({c})" for p, c in zip(result.pudding, result.puddings)]
    table.add_row(Text(_("Pudding (count)")), *puddings, end_section=True)
    winners = set(result.winners)
    table.add_row(
        Text(_("Total"), style="bold"),
        *[
            Text(f"{'*' if s in winners else ''}{t}", style="bold green" if s in winners else "bold")
            for s, t in enumerate(result.totals)
        ],
    )
    return table


PARTY_CATEGORY_LABELS = {
    "nigiri": N_("nigiri+wasabi"),
    "maki": N_("maki award"),
    "temaki": N_("temaki award"),
    "uramaki": N_("uramaki"),
    "tempura": N_("tempura"),
    "sashimi": N_("sashimi"),
    "dumpling": N_("dumpling"),
    "eel": N_("eel"),
    "tofu": N_("tofu"),
    "onigiri": N_("onigiri"),
    "edamame": N_("edamame"),
    "miso_soup": N_("miso soup"),
    "takeout_box": N_("face down"),
    "tea": N_("tea"),
    "soy_sauce": N_("soy sauce"),
}
"""The rows of a Party round's breakdown, in English (message ids); another key is shown as it is."""

DESSERT_LABELS = {"pudding": N_("Pudding"), "green_tea_ice_cream": N_("Green tea ice cream"), "fruit": N_("Fruit")}
"""The desserts' names on a Party score sheet, in English (message ids)."""


def party_score_sheet_table(
    result: PartyResult,
    names: Sequence[str] | None = None,
    *,
    breakdown: bool = True,
    title: str | None = SCORE_SHEET,
) -> Table:
    """A Sushi Go Party! score sheet: per round (with the categories of the
    menu), the desserts (with each seat's dessert cards) and the totals."""
    players = len(result.totals)
    table = _sheet(players, names, title)
    for r, (totals, lines) in enumerate(zip(result.rounds, result.breakdown), start=1):
        if breakdown:
            categories = list(dict.fromkeys(key for line in lines for key in line))
            for category in categories:
                label = (_(PARTY_CATEGORY_LABELS[category]) if category in PARTY_CATEGORY_LABELS
                         else category.replace("_", " "))
                table.add_row(
                    Text(f"  {label}", style="dim"),
                    *[Text(str(line.get(category, 0)), style="dim") for line in lines],
                )
        table.add_row(Text(_("Round {round}", round=r)), *[str(t) for t in totals], end_section=True)
    dessert = next(iter(result.desserts[0]), "dessert") if result.desserts else "dessert"
    name = _(DESSERT_LABELS[dessert]) if dessert in DESSERT_LABELS else _("Dessert")
    cells = [f"{p} ({c})" for p, c in zip(result.pudding, result.dessert_cards)]
    table.add_row(Text(_("{dessert} (cards)", dessert=name)), *cells, end_section=True)
    winners = set(result.winners)
    table.add_row(
        Text(_("Total"), style="bold"),
        *[
            Text(f"{'*' if s in winners else ''}{t}", style="bold green" if s in winners else "bold")
            for s, t in enumerate(result.totals)
        ],
    )
    return table


def winners_line(result: Result | PartyResult, names: Sequence[str] | None = None) -> Text:
    """``Winner: Seat 2 with 50 points`` or ``Shared win: Seat 0, Seat 3 with ...``
    (plain text: names are never read as markup)."""
    labels = seat_names(len(result.totals), names)
    who = [labels[s] for s in result.winners]
    points = result.totals[result.winners[0]]
    if len(who) == 1:
        return Text(_n("Winner: {name} with {n} point", "Winner: {name} with {n} points", points, name=who[0]))
    together = who[-1]
    for name in reversed(who[:-1]):
        together = _("{first}, {rest}", first=name, rest=together)
    return Text(_n("Shared win: {names} with {n} point", "Shared win: {names} with {n} points", points,
                   names=together))
