#!/usr/bin/env python3
"""Complete Brazilian or Russian games against our engine, driven by pydraughts' own HubEngine.

This is the host side of the Hub protocol exactly as pydraughts (0.6.x for its Board and
tournament code, 0.5.x as pinned by lidraughts-bot) speaks it. pydraughts checks every move the
engine sends: it builds a `draughts.Move` from the engine's `done move=` text, which raises when
the move is not legal, and the game then pushes it.

    python tests/hosts/pydraughts_games.py target/release/onca [--games N] [--seed S]
        [--variant brazilian|russian]

Run it with the Python of a virtualenv holding pydraughts==0.6.7 or pydraughts==0.5.7 (see
scripts/host-tests). With 0.6 the engine is set to `move-numbering=mirrored`, the numbering that
pydraughts 0.6 uses for Brazilian and Russian moves alike; with 0.5 the standard numbering is
kept. With `--variant russian` the engine is set to `variant=russian` and pydraughts' Russian board
referees (free choice of capture, crowning during a capture).

Facts about pydraughts this relies on (read from its source):
* `HubEngine(command)` starts the process and sends `hub`; `init()` waits for `ready`;
  `configure({...})` sends one `set-param` per entry (`variant` only if declared).
* `HubEngine.play(board, Limit(...), ponder)` sends `pos pos=<initial position> moves="..."` with
  every move of the game, one `level` line and `go think` or `go ponder`, then waits for `done`.
  With a clock it sends `time` minus the increment (Hub adds the increment first).
* 0.6: `draughts.Board(variant)`, `board.legal_moves()`, `board.push(move)`, `board.is_over()`.
  0.5: `draughts.Game(variant)`, `game.legal_moves()` gives board moves, `game.push(board_move)`.

Exits with status 0 when every game ended by the rules with only legal moves, 1 otherwise.
"""

import argparse
import os
import random
import signal
import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

VERSION = draughts.__version__
MODERN = not VERSION.startswith("0.5")
MAX_PLIES = 600
GAME_TIMEOUT_SECONDS = 300
# The rules of the games, set from --variant before any game starts.
VARIANT = "brazilian"


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------
# The two pydraughts APIs behind one small interface
# ---------------------------------------------------------------------------

class Position:
    """A game in pydraughts' own representation."""

    def __init__(self):
        if MODERN:
            self.board = draughts.Board(VARIANT)
        else:
            self.board = draughts.Game(VARIANT)

    def is_over(self):
        return self.board.is_over()

    def winner(self):
        return self.board.winner() if MODERN else self.board.get_winner()

    def plies(self):
        return len(self.board.move_stack)

    def random_move(self, rng):
        if MODERN:
            return rng.choice(self.board.legal_moves())
        moves, _ = self.board.legal_moves()
        return draughts.Move(self.board, board_move=rng.choice(moves))

    def push(self, move):
        """Plays a move that pydraughts built (and so checked) for this position."""
        if MODERN:
            legal = [m.board_move for m in self.board.legal_moves()]
            if move.board_move not in legal:
                raise Failure(f"move {move.hub_move} is not legal here")
            self.board.push(move)
        else:
            legal, _ = self.board.legal_moves()
            if move.board_move not in legal:
                raise Failure(f"move {move.hub_move} is not legal here")
            self.board.push(move.board_move)

    def copy(self):
        other = Position.__new__(Position)
        other.board = self.board.copy()
        return other


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------

def start_engine(path, hash_mb=16):
    engine = HubEngine([path, "hub"])
    if VARIANT not in engine.variants:
        raise Failure(f"engine does not declare the {VARIANT} variant: {engine.variants}")
    options = {"variant": VARIANT, "hash": hash_mb, "threads": 1}
    if MODERN:
        options["move-numbering"] = "mirrored"
    engine.configure(options)
    engine.init()
    engine.ping()
    return engine


class EnginePlayer:
    """Our engine through HubEngine, optionally with a game clock and pondering."""

    def __init__(self, path, limit, clock=None, ponder=False):
        self.engine = start_engine(path)
        self.limit = limit
        self.clock = clock  # [remaining seconds, increment] or None
        self.ponder = ponder
        self.pondering = None  # (thread, holder, expected hub move)
        self.moves = 0
        self.ponder_hits = 0
        self.ponder_misses = 0

    def _limit(self):
        if self.clock is None:
            return self.limit
        remaining, increment = self.clock
        return Limit(time=remaining + increment, inc=increment)

    def _check_info(self, result):
        if "score" not in (result.info or {}):
            raise Failure(f"no info with a score before done (info={result.info})")

    def play(self, position):
        """Our move in `position` (a pydraughts-checked Move)."""
        self.moves += 1
        started = time.monotonic()
        result = None
        if self.pondering is not None:
            thread, holder, expected = self.pondering
            self.pondering = None
            last = position.board.move_stack[-1].hub_move if position.plies() else None
            if last == expected:
                self.ponder_hits += 1
                started = time.monotonic()
                self.engine.ponderhit()
                thread.join(GAME_TIMEOUT_SECONDS)
                if thread.is_alive() or "error" in holder:
                    raise Failure(f"ponder search failed: {holder.get('error')}")
                result = holder["result"]
            else:
                self.ponder_misses += 1
                self.engine.stop()
                thread.join(GAME_TIMEOUT_SECONDS)
                if thread.is_alive() or "error" in holder:
                    raise Failure(f"stopped ponder search failed: {holder.get('error')}")
        if result is None:
            result = self.engine.play(position.board, self._limit(), False)
        self._check_info(result)
        if self.clock is not None:
            self.clock[0] += self.clock[1] - (time.monotonic() - started)
        move = result.move
        if self.ponder and result.ponder is not None:
            after = position.copy()
            after.push(move)
            after.push(result.ponder)
            # A host never asks for a search of a finished game (Hub's rule), so neither do we.
            if not after.is_over():
                self._start_ponder(after, result.ponder.hub_move)
        return move

    def _start_ponder(self, after, expected):
        holder = {}

        def run():
            try:
                holder["result"] = self.engine.play(after.board, self._limit(), True)
            except Exception as error:  # reported by the main thread
                holder["error"] = repr(error)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.pondering = (thread, holder, expected)

    def finish(self):
        if self.pondering is not None:
            thread, holder, _ = self.pondering
            self.pondering = None
            self.engine.stop()
            thread.join(GAME_TIMEOUT_SECONDS)
            if thread.is_alive() or "error" in holder:
                raise Failure(f"final ponder search failed: {holder.get('error')}")
        self.engine.quit()
        try:
            self.engine.p.wait(timeout=10)
        except Exception:
            raise Failure("engine did not exit after quit")
        for stream in (self.engine.p.stdin, self.engine.p.stdout):
            try:
                stream.close()
            except Exception:
                pass
        if self.engine.p.returncode != 0:
            raise Failure(f"engine exited with status {self.engine.p.returncode}")


class RandomPlayer:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def play(self, position):
        return position.random_move(self.rng)

    def finish(self):
        pass


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------

def play_game(name, white, black):
    position = Position()
    players = {draughts.WHITE: white, draughts.BLACK: black}
    while not position.is_over() and position.plies() < MAX_PLIES:
        turn = position.board.turn if MODERN else position.board.whose_turn()
        move = players[turn].play(position)
        position.push(move)
    white.finish()
    black.finish()
    if not position.is_over():
        raise Failure(f"{name}: no result after {MAX_PLIES} plies")
    winner = {draughts.WHITE: "white wins", draughts.BLACK: "black wins", 0: "draw"}.get(
        position.winner(), str(position.winner()))
    ponder = ""
    hits = sum(getattr(p, "ponder_hits", 0) for p in (white, black))
    misses = sum(getattr(p, "ponder_misses", 0) for p in (white, black))
    if hits or misses:
        ponder = f" (ponder hits {hits}, misses {misses})"
    return f"{name}: {winner} after {position.plies()} plies{ponder}"


def games(path, count, seed):
    """The schedule: clocks with pondering, fixed move time, depth, and random opponents."""
    schedule = [
        ("engine vs engine, 3s+0.1s clock, pondering",
         lambda: EnginePlayer(path, None, clock=[3.0, 0.1], ponder=True),
         lambda: EnginePlayer(path, None, clock=[3.0, 0.1], ponder=True)),
        ("engine vs random, move-time 0.05",
         lambda: EnginePlayer(path, Limit(movetime=0.05)),
         lambda: RandomPlayer(seed)),
        ("random vs engine, depth 3",
         lambda: RandomPlayer(seed + 1),
         lambda: EnginePlayer(path, Limit(depth=3))),
        ("engine vs engine, depth 2 and move-time 0.02",
         lambda: EnginePlayer(path, Limit(depth=2), ponder=True),
         lambda: EnginePlayer(path, Limit(movetime=0.02))),
    ]
    for index in range(count):
        name, make_white, make_black = schedule[index % len(schedule)]
        yield f"game {index + 1} ({name})", make_white, make_black


def watchdog(seconds):
    """Kills the whole run if a game hangs (pydraughts itself has no timeouts)."""
    def fire():
        print(f"FAIL: a game took more than {seconds} s (engine hang?)", flush=True)
        os.killpg(os.getpgrp(), signal.SIGKILL) if hasattr(os, "killpg") else None
        os._exit(1)
    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="path to the onca binary")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--variant", choices=["brazilian", "russian"], default="brazilian")
    args = parser.parse_args()
    global VARIANT
    VARIANT = args.variant
    path = os.path.abspath(args.engine)
    numbering = "mirrored" if MODERN else "standard"
    print(f"pydraughts {VERSION}, {VARIANT}, move-numbering={numbering}, engine {path}",
          flush=True)
    failures = 0
    for name, make_white, make_black in games(path, args.games, args.seed):
        timer = watchdog(GAME_TIMEOUT_SECONDS)
        try:
            print(play_game(name, make_white(), make_black()), flush=True)
        except Exception as error:
            failures += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
        finally:
            timer.cancel()
    print(f"{args.games - failures} passed, {failures} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
