"""A sushigo-bot/1 test bot that misbehaves on purpose.

Usage: misbehave.py MODE EVERY [--log FILE] [--sleep SECONDS]

Plays the first legal entry, except on every EVERY-th pick message this
process receives (1, 2, ... counted per process), where it does MODE:

garbage   answer a line that is not JSON
shape     answer JSON of the wrong shape ({"pick": "salmon"})
illegal   answer a well-formed pick that is not legal
sleep     sleep SECONDS, then answer (too late)
exit      exit with status 3 without answering
closeout  close its standard output and keep running
closein   close its standard input, answer, and wait to be killed
flood     write 2 MB without a newline
extra     answer, then write an extra line in the same write
orphan    start a `sleep 60` child (logging {"child": PID}), then exit with status 3
chatty    write 256 KiB to standard error, then answer (not a misbehaviour)

With --log FILE it appends {"pid": PID, "msg": MESSAGE} for every message.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from typing import IO, Any


def answer(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def note(log: "IO[str] | None", entry: "dict[str, Any]") -> None:
    if log is not None:
        log.write(json.dumps({"pid": os.getpid(), **entry}) + "\n")
        log.flush()


def misbehave(mode: str, msg: "dict[str, Any]", good: str, pause: float, log: "IO[str] | None") -> None:
    if mode == "garbage":
        answer("I think I'll take the salmon\n")
    elif mode == "shape":
        answer(json.dumps({"pick": msg["legal"][0][0]}) + "\n")
    elif mode == "illegal":
        answer(json.dumps({"pick": ["not_a_card"]}) + "\n")
    elif mode == "sleep":
        time.sleep(pause)
        answer(good)
    elif mode == "exit":
        sys.exit(3)
    elif mode == "closeout":
        sys.stdout.close()
        os.close(1)
        time.sleep(60)
    elif mode == "closein":
        os.close(0)  # before answering, so the host's next write finds it closed
        answer(good)
        time.sleep(60)
    elif mode == "flood":
        answer("x" * (2 << 20))
        time.sleep(60)
    elif mode == "extra":
        answer(good + "debug: that was easy\n")
    elif mode == "orphan":
        child = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        note(log, {"child": child.pid, "msg": {"type": "orphan"}})
        sys.exit(3)
    else:
        sys.exit(f"unknown mode {mode}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("every", type=int)
    parser.add_argument("--log")
    parser.add_argument("--sleep", type=float, default=5.0)
    args = parser.parse_args()
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - open for the whole life of the bot
    count = 0
    for line in sys.stdin:
        msg = json.loads(line)
        note(log, {"msg": msg})
        if msg["type"] != "pick":
            continue
        count += 1
        good = json.dumps({"pick": msg["legal"][0]}) + "\n"
        if args.mode == "chatty":
            sys.stderr.write("x" * (256 * 1024) + "\n")
            sys.stderr.flush()
        if count % args.every or args.mode == "chatty":
            answer(good)
        else:
            misbehave(args.mode, msg, good, args.sleep, log)


if __name__ == "__main__":  # pytest imports this file to look for doctests
    main()
