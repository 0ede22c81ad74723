#!/usr/bin/env python3
"""Cross-check of the rules: onca's legal moves against py-draughts' BrazilianBoard.

Plays random games (fixed seed) with py-draughts and, at every ply, compares its legal moves
with `onca moves -p <position>` on (from, to, set of captured squares). Random play reaches
king endings and long captures that engine games rarely do. Benchmark-style, not in CI:

    scripts/setup-python .venv/py-draughts py-draughts
    cargo build --release
    .venv/py-draughts/bin/python tests/hosts/py_draughts_rules_check.py target/release/onca \
        [--games 50] [--seed 1] [--max-plies 300]

Prints every disagreement with its position (Hub string) and exits with status 1 if any.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from draughts import BrazilianBoard  # noqa: E402

from simple_engine_hub import board_to_hub, move_key  # noqa: E402
from vs_simple_engine import onca_legal_moves  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onca")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = disagreements = 0
    for _ in range(args.games):
        board = BrazilianBoard()
        for _ in range(args.max_plies):
            legal = board.legal_moves
            ours = onca_legal_moves(args.onca, board)
            theirs = {move_key(move) for move in legal}
            positions += 1
            if ours != theirs:
                disagreements += 1
                print(f"DISAGREEMENT at {board_to_hub(board)}: only onca {sorted(ours - theirs)}, "
                      f"only py-draughts {sorted(theirs - ours)}", flush=True)
            if not legal:
                break
            board.push(rng.choice(legal))
    print(f"{positions} positions compared, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
