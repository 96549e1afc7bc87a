"""Where the Party training time goes: one worker's games and one update of examples/train_learned_party.py.

    pip install -e '.[train]'
    python benchmarks/party_training_profile.py [GAMES]

Plays GAMES (default 32) lockstep games as one training worker does (the
script's default seat shares, a fresh network with the greedy prior), first
as is, timed, then under cProfile for the shares of the time (greedy's
estimates, seat views, the network, the engine), then times one PPO update
(4 epochs, minibatches of 2048) over the learner's decisions on one thread.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import torch
import train_learned_party as T


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 32
    torch.set_num_threads(1)
    net = T.Net((256, 128), prior=1.0)
    job = {"learner": net.state_dict(), "rival": net.state_dict(), "hidden": (256, 128), "seed": 5,
           "games": games, "custom": 0.3, "shares": (0.5, 0.15, 0.3, 0.05)}
    start = time.perf_counter()
    out = T.rollout(job)
    played = time.perf_counter() - start
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.runcall(T.rollout, job)
    profiled = time.perf_counter() - start
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]

    def cumulative(name: str) -> float:
        return sum(v[3] for k, v in stats.items() if k[2] == name)

    n = len(out["act"])
    print(f"{games} games: {played:.2f} s, {n} learner decisions")
    for label, name in [("greedy's estimates (prior, greedy seats)", "party_action_values"),
                        ("seat views", "party_seat_view"), ("network forward", "_call_impl"),
                        ("network inputs", "inputs"), ("engine steps", "act"), ("legal actions", "legal_actions")]:
        print(f"  {label:42s} {cumulative(name) / profiled:6.1%} of the profiled time")
    X, M, P = (torch.from_numpy(out[k]) for k in ("x", "mask", "prior"))
    A = torch.from_numpy(out["act"])
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    start = time.perf_counter()
    for _ in range(4):
        perm = torch.randperm(n)
        for lo in range(0, n, 2048):
            idx = perm[lo:lo + 2048]
            logits, value = net(X[idx], P[idx])
            dist = torch.distributions.Categorical(logits=T.masked_logits(logits, M[idx]))
            loss = -dist.log_prob(A[idx]).mean() + (value ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"update, 4 epochs over the {n} decisions, one thread: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
