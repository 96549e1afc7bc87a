"""Clients of a sushigo server: :mod:`.bridge`, which makes a bot play on one
through the bot API (``sushigo bot-connect``, docs/bot-api.md, "The bridge")."""

from __future__ import annotations

from .bridge import Answers, Bridge, BridgeError, BuiltinAnswers

__all__ = ["Answers", "Bridge", "BridgeError", "BuiltinAnswers"]
