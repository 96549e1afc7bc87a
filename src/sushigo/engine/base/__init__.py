"""Sushi Go!, the original 108-card game.

- :mod:`~sushigo.engine.base.cards`: card ids, names and the deck.
- :mod:`~sushigo.engine.base.scoring`: pure scoring of collections, maki, pudding, winners.
- :mod:`~sushigo.engine.base.actions`: the integer action encoding (chopsticks pairs included).
- :mod:`~sushigo.engine.base.game`: the state machine (:class:`~sushigo.engine.base.game.Game`).
- :mod:`~sushigo.engine.base.explain`: a round's score explained, one sentence per figure.
- :mod:`~sushigo.engine.base.view`: what one seat may know; determinization for search.
- :mod:`~sushigo.engine.base.record`: the original game's records and score sheets.

It imports nothing from :mod:`sushigo.engine.party`; both editions build on
the shared modules of :mod:`sushigo.engine`.
"""
