"""Train the ``learned`` bot: PPO on the batch engine, self-play against a pool.

    pip install -e '.[train]'        # torch (CPU is enough), numpy, gymnasium, matplotlib
    python examples/train_learned.py --minutes 40 --out learned.json

(the defaults are the settings of the shipped policy; seat the result with
``learned:file=learned.json``, or copy it over ``src/sushigo/bots/data/learned.json``).

One network plays every table size (2-5 players) under both passing rules: its
input is the seat's observation in the 5-player layout, the table size and the
option flags (``pass_both_ways``, hands going right this round;
:func:`sushigo.bots.learned.network_input`), its outputs a score per action
(masked to the legal ones) and a value.  Each iteration picks a table size and
the passing rule (``pass_both_ways`` in a ``--both-ways`` share of them),
plays ``--envs`` games of it in lockstep on :class:`sushigo.envs.vector.BatchEnv`
and assigns every seat of every game to the learner (about half the seats),
to a frozen earlier copy of it from the pool, or to a uniformly random player.
The reward is the final score margin (own total minus the mean of the
others') ÷ 20, given at the last turn; the learner's seats are updated with PPO
(clipped objective, GAE with gamma 1).  Every ``--eval-every`` iterations it
writes the policy (``sushigo-policy/1``) and measures the shipped bot's way of
playing it (best legal action, :class:`sushigo.bots.learned.LearnedBot` on
the engine): win rate in 4-player games against 3 ``random`` and against 3
``greedy`` bots, and against 3 ``greedy`` with ``pass_both_ways``.  The learning curve goes to ``--curve`` (PNG) and
``--log`` (CSV).
"""

from __future__ import annotations

import argparse
import base64
import copy
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from sushigo.bots import make_bot, play_game
from sushigo.bots.learned import FORMAT, INPUT_SIZE, LearnedBot, Policy
from sushigo.engine.rules import Rules
from sushigo.envs.vector import BatchEnv, network_inputs, random_policy
from sushigo.sim.batch import NUM_ACTIONS

LEARNER, POOL, RANDOM = 0, 1, 2


class Net(nn.Module):
    """Shared body, a policy head (156 scores) and a value head."""

    def __init__(self, hidden: tuple[int, ...]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = INPUT_SIZE
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.body = nn.Sequential(*layers)
        self.pi = nn.Linear(width, NUM_ACTIONS)
        self.v = nn.Linear(width, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        z = self.body(x)
        return self.pi(z), self.v(z).squeeze(-1)


def export(net: Net, meta: dict[str, Any]) -> dict[str, Any]:
    """The policy part of ``net`` as a ``sushigo-policy/1`` document."""
    linears = [m for m in net.body if isinstance(m, nn.Linear)] + [net.pi]

    def b64(t: torch.Tensor) -> str:
        return base64.b64encode(t.detach().numpy().astype("<f4").tobytes()).decode()

    return {
        "format": FORMAT,
        "activation": "relu",
        "input": "sushigo.bots.learned.network_input",
        **meta,
        "layers": [{"shape": list(m.weight.shape), "weights": b64(m.weight), "bias": b64(m.bias)}
                   for m in linears],
    }


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~mask, -1e9)


def win_rate(policy: Policy, opponent: str, games: int, pass_both_ways: bool = False) -> float:
    """4 players: the learned bot at each seat in turn, 3 ``opponent`` bots; shared wins count 1/k."""
    total = 0.0
    rules = Rules(4, pass_both_ways=pass_both_ways)
    for g in range(games):
        deal, seat = divmod(g, 4)
        bots = [make_bot(opponent, seed=1000 * g + s) for s in range(4)]
        bots[seat] = LearnedBot(seed=g, policy=policy)
        result = play_game(bots, seed=10_000 + deal, rules=rules).result()
        total += 1 / len(result.winners) if seat in result.winners else 0.0
    return total / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="stop after this long (default 30)")
    ap.add_argument("--iterations", type=int, default=100_000, help="or after this many (more) iterations")
    ap.add_argument("--envs", type=int, default=256, help="games per iteration (default 256)")
    ap.add_argument("--hidden", default="256,128", help="hidden layer widths (default 256,128)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=4096)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--eval-every", type=int, default=50, help="iterations between evaluations (default 50)")
    ap.add_argument("--eval-games", type=int, default=200, help="games per evaluation and opponent")
    ap.add_argument("--both-ways", type=float, default=0.5,
                    help="share of iterations played with pass_both_ways (default 0.5)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    ap.add_argument("--out", type=Path, default=Path("learned.json"), help="policy file to write")
    ap.add_argument("--log", type=Path, default=Path("learned_curve.csv"))
    ap.add_argument("--curve", type=Path, default=Path("learned_curve.png"))
    ap.add_argument("--checkpoint", type=Path, help="save the whole training state here at every evaluation")
    ap.add_argument("--resume", type=Path,
                    help="continue from a --checkpoint file (its --hidden wins; a checkpoint is a pickle: "
                         "resume only from files you made)")
    args = ap.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    saved: dict[str, Any] = torch.load(args.resume, weights_only=False) if args.resume else {}
    hidden = tuple(saved.get("hidden", hidden))
    net = Net(hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    pool: list[Net] = [copy.deepcopy(net)]
    if saved:
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        pool = []
        for state in saved["pool"]:
            member = Net(hidden)
            member.load_state_dict(state)
            pool.append(member)
        rng = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        for group in opt.param_groups:  # --lr applies to the rest of the run
            group["lr"] = args.lr
    sizes, size_weights = np.array([2, 3, 4, 5]), np.array([0.15, 0.2, 0.4, 0.25])
    envs = {(int(n), both): BatchEnv(rules=Rules(int(n), pass_both_ways=both), num_envs=args.envs, padded=True,
                                     seed=args.seed * 10 + int(n) + 100 * both)
            for n in sizes for both in (False, True)}
    for key, state in saved.get("env_rngs", {}).items():  # the decks go on where they stopped
        envs[key if isinstance(key, tuple) else (key, False)].rng.bit_generator.state = state
    rows: list[dict[str, float]] = saved.get("rows", [])
    games_played = int(saved.get("games", 0))
    minutes_before = rows[-1]["minutes"] if rows else 0.0
    start = time.perf_counter()

    def minutes() -> float:
        return minutes_before + (time.perf_counter() - start) / 60

    def evaluate(iteration: int) -> None:
        meta = {"trained": {"iterations": iteration, "games": games_played,
                            "minutes": round(minutes(), 1),
                            "hidden": list(hidden), "seed": args.seed,
                            "script": "examples/train_learned.py"}}
        doc = export(net, meta)
        args.out.write_text(json.dumps(doc))
        policy = Policy.from_json(doc)
        row = {"iteration": iteration, "games": games_played,
               "minutes": minutes(),
               "vs_random": win_rate(policy, "random", args.eval_games),
               "vs_greedy": win_rate(policy, "greedy", args.eval_games),
               "vs_greedy_both_ways": win_rate(policy, "greedy", args.eval_games, pass_both_ways=True)}
        rows.append(row)
        with args.log.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(rows)
        plot(rows, args.curve)
        if args.checkpoint:
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "hidden": list(hidden),
                        "pool": [m.state_dict() for m in pool], "rows": rows, "games": games_played,
                        "iteration": iteration, "rng": rng, "torch_rng": torch.get_rng_state(),
                        "env_rngs": {n: env.rng.bit_generator.state for n, env in envs.items()}},
                       args.checkpoint)
        print(f"iteration {iteration}: {games_played} games, {row['minutes']:.1f} min, "
              f"win rate vs random {row['vs_random']:.1%}, vs greedy {row['vs_greedy']:.1%}, "
              f"vs greedy passing both ways {row['vs_greedy_both_ways']:.1%}", flush=True)

    it = int(saved.get("iteration", 0))
    if not saved:
        evaluate(0)
    last = it + args.iterations
    while it < last and time.perf_counter() - start < args.minutes * 60:
        it += 1
        n = int(rng.choice(sizes, p=size_weights))
        both = bool(rng.random() < args.both_ways)
        env = envs[(n, both)]
        b = env.num_envs
        # who plays each seat: the learner on about half, a pool member or a random player elsewhere
        who = np.where(rng.random((b, n)) < 0.5, LEARNER, np.where(rng.random((b, n)) < 0.8, POOL, RANDOM))
        who[np.arange(b), rng.integers(0, n, b)] = LEARNER  # at least one learner seat per game
        rival = pool[int(rng.integers(len(pool)))]
        obs, mask = env.reset()
        steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        done = False
        rewards = np.zeros((b, n), dtype=np.float32)
        while not done:
            x = torch.from_numpy(network_inputs(obs, n, padded=True, pass_both_ways=both).reshape(b * n, -1))
            m = torch.from_numpy(mask.reshape(b * n, -1))
            with torch.no_grad():
                logits, value = net(x)
                dist = torch.distributions.Categorical(logits=masked_logits(logits, m))
                act = dist.sample()
                logp = dist.log_prob(act)
                rival_logits, _ = rival(x)
                rival_act = torch.distributions.Categorical(logits=masked_logits(rival_logits, m)).sample()
            random_act = random_policy(rng)(x.numpy(), mask.reshape(b * n, -1))
            flat_who = who.reshape(-1)
            actions = np.where(flat_who == LEARNER, act.numpy(),
                               np.where(flat_who == POOL, rival_act.numpy(), random_act))
            steps.append((x.numpy(), mask.reshape(b * n, -1), act.numpy(), logp.numpy(), value.numpy()))
            obs, mask, rewards, done, _ = env.step(actions.reshape(b, n))
        games_played += b
        # returns and advantages (reward at the last step only, gamma = 1)
        final = (rewards.reshape(-1) / 20.0).astype(np.float32)
        learner = who.reshape(-1) == LEARNER
        values = np.stack([s[4] for s in steps])  # [T, B*N]
        t_len = len(steps)
        adv = np.zeros_like(values)
        gae = np.zeros(values.shape[1], dtype=np.float32)
        for t in reversed(range(t_len)):
            next_value = values[t + 1] if t + 1 < t_len else 0.0
            reward = final if t == t_len - 1 else 0.0
            delta = reward + next_value - values[t]
            gae = delta + 0.95 * gae
            adv[t] = gae
        ret = adv + values
        sel = np.broadcast_to(learner, values.shape).reshape(-1)
        X = torch.from_numpy(np.concatenate([s[0] for s in steps])[sel])
        M = torch.from_numpy(np.concatenate([s[1] for s in steps])[sel])
        A = torch.from_numpy(np.concatenate([s[2] for s in steps])[sel])
        LP = torch.from_numpy(np.concatenate([s[3] for s in steps])[sel])
        ADV = torch.from_numpy(adv.reshape(-1)[sel])
        RET = torch.from_numpy(ret.reshape(-1)[sel])
        ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
        size = X.shape[0]
        for _ in range(args.epochs):
            perm = torch.randperm(size)
            for lo in range(0, size, args.minibatch):
                idx = perm[lo:lo + args.minibatch]
                logits, value = net(X[idx])
                dist = torch.distributions.Categorical(logits=masked_logits(logits, M[idx]))
                ratio = torch.exp(dist.log_prob(A[idx]) - LP[idx])
                pg = -torch.min(ratio * ADV[idx], torch.clamp(ratio, 0.8, 1.2) * ADV[idx]).mean()
                loss = pg + 0.5 * ((value - RET[idx]) ** 2).mean() - args.entropy * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        if it % 20 == 0:
            pool.append(copy.deepcopy(net))
            pool = pool[-20:]
        if it % args.eval_every == 0:
            evaluate(it)
    if not rows or rows[-1]["iteration"] != it:
        evaluate(it)


def plot(rows: list[dict[str, float]], path: Path) -> None:
    """The learning curve: win rates against random and greedy by games trained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    games = [r["games"] / 1000 for r in rows]
    ax.plot(games, [100 * r["vs_random"] for r in rows], marker="o", label="vs 3 × random")
    ax.plot(games, [100 * r["vs_greedy"] for r in rows], marker="o", label="vs 3 × greedy")
    if all("vs_greedy_both_ways" in r for r in rows):
        ax.plot(games, [100 * r["vs_greedy_both_ways"] for r in rows], marker="o",
                label="vs 3 × greedy, pass both ways")
    ax.axhline(25, color="grey", linestyle=":", label="fair share (25%)")
    ax.set_xlabel("training games (thousands)")
    ax.set_ylabel("win rate, 4 players (%)")
    ax.set_ylim(0, 100)
    ax.set_title("learned bot: PPO self-play on the batch engine")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1:])
