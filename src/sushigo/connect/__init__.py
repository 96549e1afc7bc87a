"""Clients of a sushigo server: :mod:`.bridge`, which makes a bot play on one
through the bot API (``sushigo bot-connect``, docs/bot-api.md, "The bridge")."""

from __future__ import annotations

from .bridge import Bridge, BridgeError

__all__ = ["Bridge", "BridgeError"]
