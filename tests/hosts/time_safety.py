#!/usr/bin/env python3
"""Time-safety benchmark: engine-vs-engine games over Hub, counting moves that overstep the time.

Two `onca hub` processes play each other; pydraughts 0.5.7 (standard numbering) referees the
games (legality, end of game). Every `go` is timed from the moment the line is written to the
moment `done` is read, so pipe and scheduling delays count against the engine as they would on a
server. Two modes:

* clock: Fischer clock (default 2 s + 0.1 s per move). Each move is sent the way pydraughts and
  lidraughts-bot send it: `level time=<clock - inc> inc=<inc>` (Hub adds the increment first). A
  move is over the limit when it takes longer than the clock showed when it started (a loss on
  time); the clock then gets the increment.
* move-time: `level move-time=<t>` (default 0.05 s). A move is over the limit when it takes
  longer than t.

Openings are random for the first plies (seeded), so the games differ.

    python tests/hosts/time_safety.py target/release/onca --games 100 --mode clock
Prints per-mode counts and the slowest moves; exits 1 if any move was over the limit.
"""

import argparse
import random
import subprocess
import sys
import time

import draughts

OPENING_PLIES = 4
MAX_PLIES = 400


class Engine:
    def __init__(self, path, overhead_ms):
        self.p = subprocess.Popen([path, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("hub")
        self.wait_for("wait")
        self.send("set-param name=hash value=16")
        if overhead_ms is not None:
            self.send(f"set-param name=move-overhead value={overhead_ms}")
        self.send("init")
        self.wait_for("ready")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def recv(self):
        line = self.p.stdout.readline()
        if line == "":
            raise RuntimeError("engine closed its output")
        return line.strip()

    def wait_for(self, word):
        while True:
            line = self.recv()
            if line.split(" ", 1)[0] == word:
                return line
            if line.startswith("error"):
                raise RuntimeError(f"engine error: {line}")

    def go(self, hub_position, moves, level):
        """Returns (move text, seconds from `go` to `done`)."""
        self.send(f'pos pos={hub_position} moves="{" ".join(moves)}"')
        self.send(level)
        started = time.monotonic()
        self.send("go think")
        done = self.wait_for("done")
        elapsed = time.monotonic() - started
        move = done.split()[1].split("=", 1)[1]
        return move, elapsed

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def play(engines, rng, mode, args, stats):
    game = draughts.Game("brazilian")
    start = game.initial_hub_fen
    moves = []
    clocks = [args.time, args.time]
    while not game.is_over() and len(moves) < MAX_PLIES:
        if len(moves) < OPENING_PLIES:
            legal, _ = game.legal_moves()
            board_move = rng.choice(legal)
            mv = draughts.Move(game, board_move=board_move)
            game.push(board_move)
            moves.append(mv.hub_move)
            continue
        side = len(moves) % 2
        if mode == "clock":
            level = f"level time={clocks[side] - args.inc:.3f} inc={args.inc}"
            limit = clocks[side]
        else:
            level = f"level move-time={args.move_time}"
            limit = args.move_time
        text, elapsed = engines[side].go(start, moves, level)
        stats["moves"] += 1
        stats["times"].append(elapsed)
        if elapsed > limit:
            stats["over"] += 1
            stats["overs"].append((elapsed, limit))
        if mode == "clock":
            clocks[side] = max(clocks[side] - elapsed, 0.0) + args.inc
            stats["min_clock"] = min(stats["min_clock"], clocks[side])
        mv = draughts.Move(game, hub_move=text)  # raises on an illegal move
        game.push(mv.board_move)
        moves.append(mv.hub_move)
    stats["games"] += 1


def run_mode(mode, args):
    rng = random.Random(args.seed)
    engines = [Engine(args.engine, args.overhead), Engine(args.engine, args.overhead)]
    stats = {"games": 0, "moves": 0, "over": 0, "overs": [], "times": [], "min_clock": float("inf")}
    started = time.monotonic()
    try:
        for index in range(args.games):
            for engine in engines:
                engine.send("new-game")
            # Alternate colours so both processes play both sides.
            pair = engines if index % 2 == 0 else engines[::-1]
            play(pair, rng, mode, args, stats)
    finally:
        for engine in engines:
            engine.quit()
    times = sorted(stats["times"])
    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0
    what = (f"clock {args.time}s+{args.inc}s" if mode == "clock"
            else f"move-time {args.move_time}s")
    print(f"{what}: {stats['games']} games, {stats['moves']} engine moves, "
          f"{stats['over']} over the limit; move time median {pct(0.5) * 1000:.1f} ms, "
          f"p99 {pct(0.99) * 1000:.1f} ms, max {times[-1] * 1000 if times else 0:.1f} ms"
          + (f", lowest clock left {stats['min_clock']:.3f} s" if mode == "clock" else "")
          + f" ({time.monotonic() - started:.0f} s)", flush=True)
    for elapsed, limit in sorted(stats["overs"], reverse=True)[:5]:
        print(f"  over: {elapsed * 1000:.1f} ms with {limit * 1000:.1f} ms allowed", flush=True)
    return stats["over"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mode", choices=["clock", "move-time", "both"], default="both")
    parser.add_argument("--time", type=float, default=2.0)
    parser.add_argument("--inc", type=float, default=0.1)
    parser.add_argument("--move-time", type=float, default=0.05)
    parser.add_argument("--overhead", type=int, default=None,
                        help="move-overhead in ms (default: the engine's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    modes = ["clock", "move-time"] if args.mode == "both" else [args.mode]
    over = sum(run_mode(mode, args) for mode in modes)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
