"""Sushi Go Party!: the second edition, as an edition of the same engine.

- :mod:`sushigo.engine.party.cards`: the 181-card box, card ids, menu items, colours.
- :mod:`sushigo.engine.party.actions`: the Party action encoding (161 ids).
- :mod:`sushigo.engine.party.scoring`: pure scoring of every Party card.
- :mod:`sushigo.engine.party.game`: the :class:`~sushigo.engine.party.game.PartyGame` state machine.
- :mod:`sushigo.engine.party.explain`: a round's score explained, one sentence per figure.
- :mod:`sushigo.engine.party.view`: what a seat may know; determinization.
- :mod:`sushigo.engine.party.record`: Party records and score sheets.

It imports nothing from :mod:`sushigo.engine.base`: what both editions share
(the rule options, the menus of :mod:`sushigo.engine.menus`, the dumpling
table, the seeded shuffle, phases, errors, the record format's common part)
lives in the shared modules of :mod:`sushigo.engine`.  The two editions are
parallel by nature: the same shape of modules, each with its own cards and
scoring (Party's tempura, sashimi and nigiri are scored here again because
its card ids, wasabi and takeout boxes differ).
"""
