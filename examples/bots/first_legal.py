#!/usr/bin/env python3
"""The smallest useful external bot: it plays the first legal entry (sushigo-bot/1).

Run it against the built-in bots:

    sushigo tournament greedy random "cmd:python3 examples/bots/first_legal.py"

or from Python: ``play_game([make_bot("cmd:python3 examples/bots/first_legal.py"), ...])``.
Copy this file to start your own bot; the protocol is in docs/bot-protocol.md.

The host writes one JSON object per line on standard input:
  {"type": "pick", ...}  a decision: answer one line {"pick": ENTRY},
                         ENTRY copied from the message's "legal" list;
  {"type": "end", ...}   a game is over: answer nothing.
Any other message type: ignore it.  Exit when standard input ends.
Write debugging output to standard error, never to standard output.
"""

import json
import sys


def choose(msg):
    """Return one entry of msg["legal"].  Replace this with something clever.

    Base game: entries are ["salmon"] or, with chopsticks, ["wasabi", "egg"].
    Party: one string each, e.g. ["special_order>salmon"], ["pass"], ["flip:3"];
    msg["decision"] is null for the ordinary pick, else what is being resolved.
    """
    return msg["legal"][0]


def main():
    games = 0
    for line in sys.stdin:  # one message per line, until the host closes stdin
        msg = json.loads(line)
        if msg.get("type") == "pick":
            answer = {"pick": choose(msg)}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()  # without this the host waits, and times out
        elif msg.get("type") == "end":
            games += 1
            totals = msg["result"]["totals"]
            print(f"game {msg['game']} over: {totals}", file=sys.stderr)
    print(f"played {games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
