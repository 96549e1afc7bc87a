"""A well-behaved sushigo-bot/1 test bot.

Usage: good.py [--pick first|last] [--upper] [--log FILE]

Answers every ``pick`` message with the first (or last) legal entry
(``--upper``: card names in capitals, which the host accepts) and appends
``{"pid": PID, "msg": MESSAGE}`` to FILE for every message it receives.
"""

import argparse
import json
import os
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pick", choices=["first", "last"], default="first")
    parser.add_argument("--upper", action="store_true")
    parser.add_argument("--log")
    args = parser.parse_args()
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - open for the whole life of the bot

    for line in sys.stdin:
        msg = json.loads(line)
        if log is not None:
            log.write(json.dumps({"pid": os.getpid(), "msg": msg}) + "\n")
            log.flush()
        if msg["type"] != "pick":
            continue
        entry = msg["legal"][0 if args.pick == "first" else -1]
        if args.upper:
            entry = [name.upper() for name in entry]
        sys.stdout.write(json.dumps({"pick": entry}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # pytest imports this file to look for doctests
    main()
