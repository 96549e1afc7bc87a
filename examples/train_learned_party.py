"""Train the Party ``learned`` bot: PPO on lockstep engine games, against itself, greedy and random.

    pip install -e '.[train]'        # torch (CPU is enough), numpy, matplotlib
    python examples/train_learned_party.py --minutes 60 --out learned_party.json

(the defaults are the settings of the shipped policy; seat the result with
``learned:file=learned_party.json``, or copy it over
``src/sushigo/bots/data/learned_party.json``).

One network plays every menu and table size (2-8 players): its input is the
seat's observation in the 8-player layout, the table size, the menu's card ids
and the uramaki places claimed (:func:`sushigo.bots.learned.party_network_input`),
its outputs a score per Party action (161, masked to the legal ones; every
decision after the reveal too) and a value.  To each score it adds a learned
multiple (``--prior``, its start; 0 turns it off) of ``greedy``'s estimate of
the action (:func:`sushigo.bots.learned.greedy_prior`: its estimates less the
best legal one's), and its policy layer starts at 0: play starts as
``greedy``'s, and the network learns what to change in it.  The policy file
keeps the multiple as ``"prior": {"values": "greedy", "scale": s}``.

Each iteration ``--workers`` processes each play ``--envs`` ÷ workers games in
lockstep (:class:`sushigo.envs.party_vector.PartyBatch`, the real engine, one
network evaluation per step for every waiting seat).  Every game draws a
table size (weighted towards 4), then an official menu valid at that size or,
in a ``--custom`` share of games, a random custom menu.  Each seat is played by
the learner (``--learner`` share, at least one per game), a frozen earlier copy
of it, the ``greedy`` bot (``--greedy`` share, from its own seat view) or a
uniformly random player.  The reward is the final score margin (own total
minus the mean of the others') ÷ 20 at the seat's last decision; the learner's
decisions are updated with PPO (clipped objective, GAE with gamma 1).  Every
``--eval-every`` iterations it writes the policy (``sushigo-policy/1``) and
plays the shipped bot (:class:`sushigo.bots.learned.LearnedBot`, best legal
action, on the engine) in 4-player games against 3 ``greedy`` on every
official 4-player menu and against 3 ``random`` on Master Menu.  The learning curve
goes to ``--curve`` (PNG) and ``--log`` (CSV).
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_learned import export, masked_logits

from sushigo.bots import make_bot, play_game
from sushigo.bots.learned import FORMAT, PARTY_INPUT_SIZE, LearnedBot, Policy, greedy_prior
from sushigo.engine.menus import APPETIZERS, DESSERTS, OFFICIAL_MENUS, RESTRICTIONS, ROLLS, SPECIALS
from sushigo.engine.party.actions import PARTY_NUM_ACTIONS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules
from sushigo.envs.party_vector import PartyBatch

LEARNER, POOL, GREEDY, RANDOM = 0, 1, 2, 3
SIZES = (2, 3, 4, 5, 6, 7, 8)
SIZE_WEIGHTS = (0.1, 0.12, 0.34, 0.14, 0.1, 0.1, 0.1)
EVAL_MENUS = [name for name in OFFICIAL_MENUS if name != "Dinner for Two"]


class Net(nn.Module):
    """Shared body, a policy head (161 scores) and a value head."""

    def __init__(self, hidden: tuple[int, ...], prior: float = 0.0) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = PARTY_INPUT_SIZE
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.body = nn.Sequential(*layers)
        self.pi = nn.Linear(width, PARTY_NUM_ACTIONS)
        self.v = nn.Linear(width, 1)
        # With a prior the scores are the network's plus a learned scale times greedy's estimates
        # (sushigo.bots.learned.Policy.party_scores); the network starts at 0, so play starts as greedy's.
        self.prior = nn.Parameter(torch.tensor(float(prior)), requires_grad=bool(prior))
        if prior:
            nn.init.zeros_(self.pi.weight)
            nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor, p: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores and values for inputs ``x`` (``p``: greedy's estimates, less the best legal one's)."""
        z = self.body(x)
        scores = self.pi(z)
        if p is not None:
            scores = scores + self.prior * p
        return scores, self.v(z).squeeze(-1)


def allowed(menu: tuple[str, ...], players: int) -> bool:
    return not any(players in RESTRICTIONS.get(item, ()) for item in menu)


def draw_rules(rng: random.Random, custom: float) -> Rules:
    """A table size and a menu valid at it (official, or custom in a ``custom`` share)."""
    n = rng.choices(SIZES, weights=SIZE_WEIGHTS)[0]
    while True:
        if rng.random() < custom:
            menu = (rng.choice(ROLLS), *rng.sample(APPETIZERS, 3), *rng.sample(SPECIALS, 2), rng.choice(DESSERTS))
        else:
            menu = rng.choice(list(OFFICIAL_MENUS.values()))
        if allowed(menu, n):
            return Rules.party(n, list(menu))


def rollout(job: dict[str, Any]) -> dict[str, Any]:
    """Play ``job["games"]`` games in lockstep; the learner's decisions and every seat's reward."""
    torch.set_num_threads(1)
    nets = []
    for state in (job["learner"], job["rival"]):
        net = Net(job["hidden"], prior=float(state["prior"]))
        net.load_state_dict(state)
        nets.append(net)
    rng = random.Random(job["seed"])
    torch.manual_seed(job["seed"])
    games, roles = [], []
    for _ in range(job["games"]):
        rules = draw_rules(rng, job["custom"])
        n = rules.players
        games.append(PartyGame(rules, seed=rng.randrange(1 << 31)))
        who = [rng.choices((LEARNER, POOL, GREEDY, RANDOM), weights=job["shares"])[0] for _ in range(n)]
        if LEARNER not in who:
            who[rng.randrange(n)] = LEARNER
        roles.append(who)
    greedy = make_bot("greedy", seed=job["seed"])
    batch = PartyBatch(games)
    xs, masks, priors, acts, logps, values, owners = [], [], [], [], [], [], []
    while not batch.is_over:
        waiting = batch.waiting()
        legal = batch.legal_actions(waiting)
        actions = [0] * len(waiting)
        by_net: list[list[int]] = [[], []]
        for k, ((g, s), options) in enumerate(zip(waiting, legal)):
            role = roles[g][s]
            if len(options) == 1:
                actions[k] = options[0]
            elif role == GREEDY:
                actions[k] = int(greedy.choose(party_seat_view(games[g], s)))
            elif role == RANDOM:
                actions[k] = rng.choice(options)
            else:
                by_net[role].append(k)
        for role, rows in enumerate(by_net):
            if not rows:
                continue
            x = torch.from_numpy(np.array(batch.inputs([waiting[k] for k in rows]), dtype=np.float32))
            m = torch.zeros((len(rows), PARTY_NUM_ACTIONS), dtype=torch.bool)
            p = torch.zeros((len(rows), PARTY_NUM_ACTIONS), dtype=torch.float32)
            for r, k in enumerate(rows):
                m[r, legal[k]] = True
                if nets[role].prior.item():
                    prior = greedy_prior(party_seat_view(games[waiting[k][0]], waiting[k][1]))
                    p[r, list(prior)] = torch.tensor(list(prior.values()))
            with torch.no_grad():
                logits, value = nets[role](x, p)
                dist = torch.distributions.Categorical(logits=masked_logits(logits, m))
                act = dist.sample()
            for r, k in enumerate(rows):
                actions[k] = int(act[r])
            if role == LEARNER:
                xs.append(x.numpy())
                masks.append(m.numpy())
                priors.append(p.numpy())
                acts.append(act.numpy())
                logps.append(dist.log_prob(act).numpy())
                values.append(value.numpy())
                owners.extend(waiting[k][0] * 8 + waiting[k][1] for k in rows)
        batch.act(waiting, actions)
    reward = {}
    for g, game in enumerate(games):
        totals = game.result().totals
        n = len(totals)
        for s in range(n):
            reward[g * 8 + s] = (totals[s] - (sum(totals) - totals[s]) / (n - 1)) / 20.0
    return {"x": np.concatenate(xs), "mask": np.concatenate(masks), "prior": np.concatenate(priors),
            "act": np.concatenate(acts), "logp": np.concatenate(logps), "value": np.concatenate(values),
            "owner": np.array(owners), "reward": reward, "games": len(games)}


def advantages(owner: np.ndarray, value: np.ndarray, reward: dict[int, float],
               lam: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """GAE (gamma 1) along each seat's own decisions, the reward after its last one."""
    adv = np.zeros_like(value)
    last: dict[int, tuple[float, float]] = {}  # owner -> (next value, running gae)
    for i in range(len(owner) - 1, -1, -1):
        o = int(owner[i])
        if o in last:
            next_value, gae = last[o]
            r = 0.0
        else:
            next_value, gae, r = 0.0, 0.0, reward[o]
        delta = r + next_value - float(value[i])
        gae = delta + lam * gae
        adv[i] = gae
        last[o] = (float(value[i]), gae)
    return adv, adv + value


def win_rate(policy: Policy, opponent: str, menu: str, games: int) -> float:
    """4 players: the learned bot at each seat in turn, 3 ``opponent`` bots; shared wins count 1/k."""
    total = 0.0
    rules = Rules.party(4, menu)
    for g in range(games):
        deal, seat = divmod(g, 4)
        bots = [make_bot(opponent, seed=1000 * g + s) for s in range(4)]
        bots[seat] = LearnedBot(seed=g, policy=policy)
        result = play_game(bots, seed=20_000 + deal, rules=rules).result()
        total += 1 / len(result.winners) if seat in result.winners else 0.0
    return total / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60.0, help="stop after this long (default 60)")
    ap.add_argument("--iterations", type=int, default=100_000, help="or after this many (more) iterations")
    ap.add_argument("--envs", type=int, default=128, help="games per iteration (default 128)")
    ap.add_argument("--workers", type=int, default=2, help="processes playing the games (default 2)")
    ap.add_argument("--hidden", default="256,128", help="hidden layer widths (default 256,128)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--learner", type=float, default=0.5, help="share of seats the learner plays (default 0.5)")
    ap.add_argument("--greedy", type=float, default=0.3, help="share of seats greedy plays (default 0.3)")
    ap.add_argument("--random", type=float, default=0.05,
                    help="share of seats a random player plays (default 0.05; the rest: earlier copies)")
    ap.add_argument("--custom", type=float, default=0.3, help="share of games on a random custom menu (default 0.3)")
    ap.add_argument("--eval-every", type=int, default=40, help="iterations between evaluations (default 40)")
    ap.add_argument("--eval-games", type=int, default=16,
                    help="games per official menu and evaluation against greedy (default 16)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--prior", type=float, default=1.0,
                    help="start scale of greedy's estimates added to the scores (default 1; 0: none, the "
                         "network alone)")
    ap.add_argument("--threads", type=int, default=2, help="torch threads for the update (default 2)")
    ap.add_argument("--out", type=Path, default=Path("learned_party.json"), help="policy file to write")
    ap.add_argument("--log", type=Path, default=Path("learned_party_curve.csv"))
    ap.add_argument("--curve", type=Path, default=Path("learned_party_curve.png"))
    ap.add_argument("--checkpoint", type=Path, help="save the whole training state here at every evaluation")
    ap.add_argument("--resume", type=Path,
                    help="continue from a --checkpoint file (a pickle: resume only from files you made)")
    args = ap.parse_args(argv)
    shares = (args.learner, 1.0 - args.learner - args.greedy - args.random, args.greedy, args.random)
    if min(shares) < 0:
        ap.error("--learner, --greedy and --random must add up to at most 1")
    if not math.isfinite(args.prior):
        ap.error(f"--prior must be a finite number, not {args.prior}")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    saved: dict[str, Any] = torch.load(args.resume, weights_only=False) if args.resume else {}
    for state in [saved["net"], *saved["pool"]] if saved else []:
        state.setdefault("prior", torch.tensor(0.0))  # a checkpoint from before the prior: none
    hidden = tuple(saved.get("hidden", hidden))
    net = Net(hidden, prior=float(saved["net"]["prior"]) if saved else args.prior)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    pool: list[dict[str, torch.Tensor]] = [copy.deepcopy(net.state_dict())]
    if saved:
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        pool = saved["pool"]
        rng.setstate(saved["rng"])
        torch.set_rng_state(saved["torch_rng"])
    rows: list[dict[str, float]] = saved.get("rows", [])
    games_played = int(saved.get("games", 0))
    minutes_before = rows[-1]["minutes"] if rows else 0.0
    start = time.perf_counter()

    def minutes() -> float:
        return minutes_before + (time.perf_counter() - start) / 60

    def evaluate(iteration: int) -> None:
        meta = {"trained": {"iterations": iteration, "games": games_played, "minutes": round(minutes(), 1),
                            "hidden": list(hidden), "seed": args.seed,
                            "script": "examples/train_learned_party.py"}}
        doc = export(net, meta)
        doc["input"] = "sushigo.bots.learned.party_network_input"
        if net.prior.item():
            doc["prior"] = {"values": "greedy", "scale": round(float(net.prior.item()), 6)}
        args.out.write_text(json.dumps(doc))
        policy = Policy.from_json(doc)
        by_menu = {name: win_rate(policy, "greedy", name, args.eval_games) for name in EVAL_MENUS}
        row = {"iteration": iteration, "games": games_played, "minutes": minutes(),
               "vs_random_master": win_rate(policy, "random", "Master Menu", args.eval_games),
               "vs_greedy": sum(by_menu.values()) / len(by_menu),
               **{f"vs_greedy {name}": rate for name, rate in by_menu.items()}}
        rows.append(row)
        with args.log.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(rows)
        plot(rows, args.curve)
        if args.checkpoint:
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "hidden": list(hidden), "pool": pool,
                        "rows": rows, "games": games_played, "iteration": iteration, "rng": rng.getstate(),
                        "torch_rng": torch.get_rng_state()}, args.checkpoint)
        print(f"iteration {iteration}: {games_played} games, {row['minutes']:.1f} min, "
              f"win rate vs random (Master Menu) {row['vs_random_master']:.1%}, "
              f"vs greedy (7 menus) {row['vs_greedy']:.1%}", flush=True)

    it = int(saved.get("iteration", 0))
    if not saved:
        evaluate(0)
    last = it + args.iterations
    per_worker = max(1, args.envs // args.workers)
    with multiprocessing.get_context("fork").Pool(args.workers) as workers:
        while it < last and time.perf_counter() - start < args.minutes * 60:
            it += 1
            learner = {k: v.clone() for k, v in net.state_dict().items()}
            rival = pool[rng.randrange(len(pool))]
            jobs = [{"learner": learner, "rival": rival, "hidden": hidden, "seed": rng.randrange(1 << 31),
                     "games": per_worker, "custom": args.custom, "shares": shares} for _ in range(args.workers)]
            parts = workers.map(rollout, jobs)
            xs, ms, ps, acts, lps, advs, rets = [], [], [], [], [], [], []
            for part in parts:
                adv, ret = advantages(part["owner"], part["value"], part["reward"])
                xs.append(part["x"])
                ms.append(part["mask"])
                ps.append(part["prior"])
                acts.append(part["act"])
                lps.append(part["logp"])
                advs.append(adv)
                rets.append(ret)
                games_played += part["games"]
            X, M = torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ms))
            P = torch.from_numpy(np.concatenate(ps))
            A, LP = torch.from_numpy(np.concatenate(acts)), torch.from_numpy(np.concatenate(lps))
            ADV, RET = torch.from_numpy(np.concatenate(advs)), torch.from_numpy(np.concatenate(rets))
            ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
            size = X.shape[0]
            for _ in range(args.epochs):
                perm = torch.randperm(size)
                for lo in range(0, size, args.minibatch):
                    idx = perm[lo:lo + args.minibatch]
                    logits, value = net(X[idx], P[idx])
                    dist = torch.distributions.Categorical(logits=masked_logits(logits, M[idx]))
                    ratio = torch.exp(dist.log_prob(A[idx]) - LP[idx])
                    pg = -torch.min(ratio * ADV[idx], torch.clamp(ratio, 0.8, 1.2) * ADV[idx]).mean()
                    loss = pg + 0.5 * ((value - RET[idx]) ** 2).mean() - args.entropy * dist.entropy().mean()
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                    opt.step()
            if it % 10 == 0:
                pool.append(copy.deepcopy(net.state_dict()))
                pool = pool[-20:]
            if it % args.eval_every == 0:
                evaluate(it)
    if not rows or rows[-1]["iteration"] != it:
        evaluate(it)


def plot(rows: list[dict[str, float]], path: Path) -> None:
    """The learning curve: win rates against greedy (7 official menus) and random by games trained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    games = [r["games"] / 1000 for r in rows]
    ax.plot(games, [100 * r["vs_random_master"] for r in rows], marker="o", label="vs 3 × random (Master Menu)")
    ax.plot(games, [100 * r["vs_greedy"] for r in rows], marker="o", label="vs 3 × greedy (7 official menus)")
    ax.axhline(25, color="grey", linestyle=":", label="fair share (25%)")
    ax.set_xlabel("training games (thousands)")
    ax.set_ylabel("win rate, 4 players (%)")
    ax.set_ylim(0, 100)
    ax.set_title("learned bot, Sushi Go Party!: PPO on lockstep engine games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    assert FORMAT == "sushigo-policy/1"
    main(sys.argv[1:])
