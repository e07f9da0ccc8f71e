#!/bin/bash
# The instructions a random playout takes, counted by valgrind's callgrind rather than timed: the
# same to ±0.01% run to run whatever else the machine runs, where timings on a busy 2-core machine
# swing ±5–13%. An A/B of the engine is this run on two checkouts (instructions are a proxy for time:
# cache misses and mispredicted branches are not in them; confirm with bench/engine.ts when idle).
#
#   bench/instructions.sh <checkout> [pack folder=test/packs/tictactoe] [games=16000]
#
# Needs Debian's valgrind (not installed by .ci/run: no test uses it). V8 is made deterministic
# (--predictable, fixed seeds); the figure is (instructions at N games − at N/2) / (N/2), which
# still holds V8's warm-up below ~16000 tic-tac-toe or ~8000 Connect Four games: at 6000, one change
# read −20% that was −1% at 16000.
set -euo pipefail
tree=$(cd "$1" && pwd)
pack=${2:-test/packs/tictactoe}
games=${3:-16000}
half=$((games / 2))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$tree" && npx esbuild bench/playoutLoop.ts --bundle --platform=node --format=esm --outfile="$out/loop.mjs" --log-level=warning \
  --banner:js="import{createRequire}from'module';const require=createRequire(import.meta.url);")
count() {
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" \
    node --predictable --hash-seed=1 --random-seed=1 --single-threaded "$out/loop.mjs" "$tree/$pack" "$1" 2>&1 |
    sed -n 's/.*Collected : //p'
}
a=$(count "$half")
b=$(count "$games")
echo "$tree $pack: $(((b - a) / half)) instructions a game ($half → $games games)"
