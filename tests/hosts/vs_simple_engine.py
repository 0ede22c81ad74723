#!/usr/bin/env python3
"""Benchmark: `onca hub` against py-draughts' SimpleEngine (through simple_engine_hub.py).

Plays N games (default 20), one at a time, at a fixed time per move for both engines
(default 0.1 s: `level move-time=0.1` for each). Games come in pairs: each opening (the start
position, then a few two-ply openings) is played once with onca as White and once as Black.

The referee is py-draughts' BrazilianBoard: every move either engine sends must be one of its
legal moves (matched on from, to and the set of captured squares). At every ply it also compares
py-draughts' full legal move list with `onca moves`; any difference is printed as a rule
disagreement with the position. A game ends when the side to move has no legal move (it loses),
on threefold repetition (py-draughts' `is_threefold_repetition`, a draw) or after 200 plies (a
draw). An illegal move (as py-draughts sees it) ends the game as a forfeit and is reported.

Run it through scripts/vs-simple-engine (builds onca, creates the venv), or directly:

    .venv/py-draughts/bin/python tests/hosts/vs_simple_engine.py target/release/onca \
        [--games 20] [--move-time 0.1] [--max-plies 200]

Prints one line per game and a summary `onca W-D-L vs SimpleEngine`; exits with status 1 if
onca lost (or forfeited) any game or a rule disagreement was seen, 0 otherwise.
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from draughts import BrazilianBoard  # noqa: E402
from draughts.models import Color  # noqa: E402

from simple_engine_hub import board_to_hub, find_move, move_key, move_to_hub  # noqa: E402

START = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
# Short openings (Hub moves from the start position); each is played with both colours.
OPENINGS = [
    [],
    ["22-17", "11-15"],
    ["23-19", "10-14"],
    ["24-20", "12-16"],
    ["21-17", "9-13"],
    ["22-18", "12-16"],
    ["23-18", "10-15"],
    ["24-19", "11-16"],
    ["22-17", "9-14"],
    ["23-19", "9-13"],
]
REPLY_TIMEOUT = 30.0


class EngineFailure(Exception):
    pass


class HubProcess:
    """A Hub engine in a child process; lines are read by a thread into a queue."""

    def __init__(self, name, command):
        self.name = name
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, first_word):
        """Lines up to and including the first one starting with `first_word`."""
        seen = []
        deadline = time.monotonic() + REPLY_TIMEOUT
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise EngineFailure(f"{self.name}: no '{first_word}' within {REPLY_TIMEOUT} s")
            if line is None:
                raise EngineFailure(f"{self.name}: exited while waiting for '{first_word}'")
            seen.append(line)
            if line.split(" ", 1)[0] == first_word:
                return seen

    def start(self, params):
        self.send("hub")
        self.expect("wait")
        for name, value in params:
            self.send(f"set-param name={name} value={value}")
        self.send("init")
        self.expect("ready")

    def think(self, moves, move_time):
        """(move text, seconds) for the position after `moves` from the start."""
        self.send(f'pos pos={START} moves="{" ".join(moves)}"')
        self.send(f"level move-time={move_time}")
        started = time.monotonic()
        self.send("go think")
        lines = self.expect("done")
        elapsed = time.monotonic() - started
        for line in lines:
            if line.startswith("error"):
                print(f"  {self.name}: {line}", flush=True)
        done = lines[-1].split()
        move = next((word[5:] for word in done if word.startswith("move=")), "")
        return move.strip('"'), elapsed

    def quit(self):
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def onca_legal_moves(onca, board):
    """onca's legal moves in `board` as a set of (from, to, captured) keys."""
    result = subprocess.run([onca, "moves", "-p", board_to_hub(board)], capture_output=True,
                            text=True, timeout=30)
    if result.returncode != 0:
        raise EngineFailure(f"onca moves failed: {result.stderr.strip()}")
    keys = set()
    for text in result.stdout.split():
        parts = [int(part) for part in text.replace("-", "x").split("x")]
        keys.add((parts[0], parts[1], tuple(sorted(parts[2:]))))
    return keys


class Tally:
    def __init__(self):
        self.wins = self.draws = self.losses = 0
        self.disagreements = 0
        self.forfeits = 0
        self.times = {"onca": [], "SimpleEngine": []}


def check_rules(onca, board, tally, game, ply):
    ours = onca_legal_moves(onca, board)
    theirs = {move_key(move) for move in board.legal_moves}
    if ours != theirs:
        tally.disagreements += 1
        print(f"  RULE DISAGREEMENT game {game} ply {ply} position {board_to_hub(board)}: "
              f"only onca {sorted(ours - theirs)}, only py-draughts {sorted(theirs - ours)}",
              flush=True)


def play_game(number, opening, onca_white, players, onca, args, tally):
    board = BrazilianBoard()
    moves = []
    for text in opening:
        board.push(find_move(board, text))
        moves.append(text)
    for player in players.values():
        player.send("new-game")
    result, reason = None, None
    while True:
        ply = len(moves)
        check_rules(onca, board, tally, number, ply)
        white_to_move = board.turn == Color.WHITE
        if not board.legal_moves:
            winner_white = not white_to_move
            result, reason = ("1-0" if winner_white else "0-1"), "no legal move"
            break
        if board.is_threefold_repetition:
            result, reason = "1/2-1/2", "threefold repetition"
            break
        if ply >= args.max_plies:
            result, reason = "1/2-1/2", f"{args.max_plies} plies"
            break
        name = "onca" if white_to_move == onca_white else "SimpleEngine"
        text, elapsed = players[name].think(moves, args.move_time)
        tally.times[name].append(elapsed)
        try:
            move = find_move(board, text)
        except ValueError as failure:
            print(f"  ILLEGAL by {name} game {number} ply {ply}: {failure}", flush=True)
            tally.forfeits += name == "onca"
            result = "0-1" if white_to_move else "1-0"
            reason = f"illegal move by {name}"
            break
        board.push(move)
        moves.append(move_to_hub(move))
    onca_won = (result == "1-0") == onca_white if result != "1/2-1/2" else None
    if onca_won is None:
        tally.draws += 1
        outcome = "draw"
    elif onca_won:
        tally.wins += 1
        outcome = "onca wins"
    else:
        tally.losses += 1
        outcome = "ONCA LOSES"
    colour = "White" if onca_white else "Black"
    print(f"game {number:2d}: onca {colour:5s} opening [{' '.join(opening) or 'start'}] "
          f"{result} ({reason}, {len(moves)} plies): {outcome}", flush=True)
    if onca_won is False:
        print(f"  moves: {' '.join(moves)}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onca", help="path to the onca binary")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-time", type=float, default=0.1)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--move-overhead", type=int, default=10,
                        help="onca's move-overhead in ms (its default 50 would halve 0.1 s)")
    args = parser.parse_args()

    tally = Tally()
    players = {
        "onca": HubProcess("onca", [args.onca, "hub"]),
        "SimpleEngine": HubProcess("SimpleEngine", [sys.executable,
                                                    os.path.join(HERE, "simple_engine_hub.py")]),
    }
    try:
        players["onca"].start([("threads", 1), ("hash", 64),
                               ("move-overhead", args.move_overhead)])
        players["SimpleEngine"].start([])
        for number in range(1, args.games + 1):
            opening = OPENINGS[((number - 1) // 2) % len(OPENINGS)]
            play_game(number, opening, number % 2 == 1, players, args.onca, args, tally)
    except EngineFailure as failure:
        print(f"FAILED: {failure}", flush=True)
        return 1
    finally:
        for player in players.values():
            player.quit()

    for name, times in tally.times.items():
        if times:
            print(f"{name}: {len(times)} moves, mean {sum(times) / len(times):.3f} s, "
                  f"max {max(times):.3f} s per move")
    print(f"rule disagreements: {tally.disagreements}, onca forfeits: {tally.forfeits}")
    print(f"onca {tally.wins}-{tally.draws}-{tally.losses} vs SimpleEngine "
          f"({args.games} games, {args.move_time} s per move)")
    return 1 if tally.losses or tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
