#!/usr/bin/env bash
# Plays a new onca build against an old one until the SPRT decides, with the built-in ballots.
#
# Usage: scripts/sprt.sh NEW_BINARY OLD_BINARY [extra `onca match` arguments...]
# Example: scripts/sprt.sh target/release/onca /tmp/onca-base --tc 5+0.05
# Defaults: tc 10+0.1, up to 4000 games, elo0=0 elo1=10 alpha=beta=0.05, one game per core, and
# the opening book off for both (played from the book, the two builds would share their moves).
# Extra arguments override the defaults (a limit of your own replaces --tc 10+0.1).
# Games go to sprt-<date>.pdn; progress to stderr, summary to stdout.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,8p' "$0"
    exit 2
fi
new=$1
old=$2
shift 2
runner=${ONCA_RUNNER:-$new}
limit=(--tc 10+0.1)
for arg in "$@"; do
    case $arg in --tc | --movetime | --depth | --nodes) limit=() ;; esac
done
cores=$(nproc 2>/dev/null || echo 1)
exec "$runner" match \
    --engine "$new hub" --name new \
    --engine "$old hub" --name old \
    ${limit[@]+"${limit[@]}"} --games 4000 --concurrency "$cores" \
    --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05 \
    --option new:book= --option old:book= \
    --openings ballots --pdn "sprt-$(date +%Y%m%d-%H%M%S).pdn" \
    "$@"
