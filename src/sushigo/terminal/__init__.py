"""The terminal games behind ``sushigo play``, built on rich.

- :mod:`~sushigo.terminal.session`: what both editions' terminal games share:
  seats, prompts, saving, the run loop.
- :mod:`~sushigo.terminal.base`: the original game at the terminal.
- :mod:`~sushigo.terminal.party`: Sushi Go Party! at the terminal.
- :mod:`~sushigo.terminal.labels`: the words and colours of the cards, one table for both editions.
- :mod:`~sushigo.terminal.render`: score tables for the end of a game.
"""
