"""Sushi Go Party!: the second edition, as an edition of the same engine.

- :mod:`sushigo.party.cards`: the 181-card box, card ids, menu items, colours.
- :mod:`sushigo.party.menus`: official and custom menus, player-count limits.
- :mod:`sushigo.party.actions`: the Party action encoding (161 ids).
- :mod:`sushigo.party.scoring`: pure scoring of every Party card.
- :mod:`sushigo.party.game`: the :class:`~sushigo.party.game.PartyGame` state machine.
- :mod:`sushigo.party.view`: what a seat may know; determinization.
- :mod:`sushigo.party.record`: Party records and score sheets.

Rules shared with the base game (hand passing, nigiri and wasabi, dumpling,
tempura and sashimi tables, the seeded shuffle, phases, errors) come from
the base modules; only what Party changes lives here.
"""
