"""The event streams' shared look (sushigo.server.bot_events): a stream whose client does not
read is ended, not fed forever; the rest is tested through the bot API (test_bot_api.py,
test_bot_play_now.py)."""

from __future__ import annotations

from sushigo.server.accounts import Account
from sushigo.server.bot_events import OUTBOX, REVOKED, UNREAD, Follower


def test_a_stream_nobody_reads_ends_instead_of_growing() -> None:
    follower = Follower(Account("a1", "Deep_Bot", 0.0, bot=True), b"digest")
    news = [{"type": "gameFinish", "game": {"id": "t", "status": "finished"}}]
    assert all(follower.hand(news) for _ in range(OUTBOX))
    assert follower.hand(news) is False  # one more than it holds: it ends
    assert follower.batches.qsize() == 1 and follower.batches.get_nowait() == UNREAD


def test_a_revoked_token_is_the_last_thing_a_stream_is_handed() -> None:
    follower = Follower(Account("a1", "Deep_Bot", 0.0, bot=True), b"digest")
    assert follower.hand(REVOKED) is False and follower.batches.get_nowait() == REVOKED
