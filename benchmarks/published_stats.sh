#!/usr/bin/env bash
# The tournaments behind the tables published in docs/statistics.md.
#   bash benchmarks/published_stats.sh [OUT]      (default OUT: runs/published)
# Iteration budgets (not time budgets) keep every figure reproducible on any
# machine: the same seeds give the same games.
set -euo pipefail
out=${1:-runs/published}
mkdir -p "$out"
run() { local dir=$1; shift; [ -e "$out/$dir/games.jsonl" ] || sushigo tournament "$@" --quiet --out "$out/$dir"; }

# Mean winning score for 2-5 players: greedy bots against each other, and random ones.
for n in 2 3 4 5; do
  run "greedy-${n}p" $(printf 'greedy %.0s' $(seq $n)) --games 1000 --seed 1
  run "random-${n}p" $(printf 'random %.0s' $(seq $n)) --games 1000 --seed 1
done
# Points per card type for random, greedy and ismcts at one table (3 players).
run mixed-3p random greedy ismcts:iterations=300 --games 300 --seed 1
# Win rate against search budget: ismcts against three greedy bots (4 players).
for it in 30 100 300; do
  run "ismcts-${it}" "ismcts:iterations=${it}" greedy greedy greedy --games 200 --seed 1
done

sushigo stats "$out"/greedy-*p --markdown > "$out/greedy.md"
sushigo stats "$out"/random-*p --markdown > "$out/random.md"
sushigo stats "$out"/mixed-3p --markdown > "$out/mixed.md"
sushigo stats "$out"/ismcts-* --markdown --out "$out/plots" > "$out/budget.md"
sushigo stats "$out"/mixed-3p --out "$out/plots-mixed" > /dev/null
echo "tables in $out/*.md, plots in $out/plots and $out/plots-mixed"
