#!/usr/bin/env python3
"""Soak test through a real host: many complete engine-vs-engine games driven by pydraughts'
HubEngine, both sides pondering, at fast clocks and fixed move times, several games at a time.

    python tests/hosts/soak.py ENGINE --games N [--jobs 2] [--out DIR] [--margin S] [--seed S]

Run it with the Python of a virtualenv holding pydraughts 0.5.7 or 0.6.7 (scripts/soak does).
Each engine runs behind tests/hosts/tap.py, which records every line both ways with timestamps,
the engine's standard error, exit status and peak memory. The games cycle through 3 s + 0.1 s and
1 s + 0.05 s clocks and 0.05 s per move, pondering on both sides, with the pondering of
tests/hosts/pydraughts_games.py (ponder-hit on the expected reply, stop otherwise).

Counted per run: games, engine moves, hangs (no `done` within the time the move had plus
`--margin` seconds: the engine's threads are dumped with gdb into the game's folder, the engine is
killed and the game ends), losses on time (a move that took longer than the clock showed, timed
from the host's line to the engine's answer in the traffic log; a fixed move time has no clock to
lose, its overruns beyond the margin are hangs), illegal
moves (pydraughts refuses the move), crashes (the engine's output ended or it exited with an
error), lines on standard error, and the largest peak memory of an engine. The traffic logs of a
game that went wrong stay in DIR (default soak-logs/); those of clean games are deleted unless
--keep-logs. Exits 1 when anything went wrong.
"""

import argparse
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import draughts  # noqa: E402
from draughts.engine import HubEngine, Limit  # noqa: E402

import pydraughts_games as host  # noqa: E402

TAP = os.path.join(HERE, "tap.py")
SCHEDULE = [
    ("3s+0.1s clock", {"clock": (3.0, 0.1)}),
    ("1s+0.05s clock", {"clock": (1.0, 0.05)}),
    ("move-time 0.05s", {"movetime": 0.05}),
]
OPENING_PLIES = 2
# Seconds an engine may take from its start to answering `ping` after `hub`, `set-param`, `init`.
STARTUP_SECONDS = 10.0


class Hang(Exception):
    pass


class TimeLoss(Exception):
    pass


class IllegalMove(Exception):
    pass


class SoakPlayer(host.EnginePlayer):
    """An engine player whose engine runs behind the tap, with a watchdog on every move."""

    def __init__(self, path, log_path, hang_dir, margin, clock=None, movetime=None):
        self.log_path = log_path
        self.hang_dir = hang_dir
        self.margin = margin
        self.hung = False
        self.engine = None
        self._watch(STARTUP_SECONDS + margin, lambda: self._start(path))
        self.limit = Limit(movetime=movetime) if movetime is not None else None
        self.clock = list(clock) if clock is not None else None
        self.movetime = movetime
        self.ponder = True
        self.pondering = None
        self.moves = 0
        self.ponder_hits = 0
        self.ponder_misses = 0

    def _start(self, path):
        self.engine = HubEngine([sys.executable, TAP, self.log_path, "--", path, "hub"])
        options = {"variant": "brazilian", "hash": 16, "threads": 1, "ponder": "true"}
        if host.MODERN:
            options["move-numbering"] = "mirrored"
        self.engine.configure(options)
        self.engine.init()
        self.engine.ping()

    def engine_pid(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as log:
            for line in log:
                parts = line.split()
                if len(parts) >= 4 and parts[1] == "tap" and parts[2] == "pid":
                    return int(parts[3])
        return None

    def _on_hang(self):
        """Dumps every engine thread's stack, then kills the engine so the host's read ends."""
        self.hung = True
        pid = self.engine_pid()
        if pid is None:
            return
        os.makedirs(self.hang_dir, exist_ok=True)
        dump = os.path.join(self.hang_dir, f"stacks-{pid}.txt")
        with open(dump, "w") as out:
            subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                           stdout=out, stderr=subprocess.STDOUT, timeout=60, check=False)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def _watch(self, seconds, action):
        timer = threading.Timer(seconds, self._on_hang)
        timer.daemon = True
        timer.start()
        try:
            return action()
        except Exception as error:
            if self.hung:
                raise Hang(f"no answer within {seconds:.2f} s") from error
            raise
        finally:
            timer.cancel()

    def last_answer_seconds(self):
        """The engine's own time for its last move, from the tap's timestamps: from the host's
        `go think` or `ponder-hit` to the engine's `done` (pydraughts' own work around the
        exchange, tens of milliseconds in 0.5.7, is not the engine's)."""
        asked = answered = None
        with open(self.log_path, encoding="utf-8", errors="replace") as log:
            for line in log:
                parts = line.split(None, 2)
                if len(parts) < 3:
                    continue
                text = parts[2].strip()
                if parts[1] == "host" and (text.startswith("go think") or text == "ponder-hit"):
                    asked, answered = float(parts[0]), None
                elif parts[1] == "engine" and text.startswith("done") and asked is not None:
                    answered = float(parts[0])
        return answered - asked if asked is not None and answered is not None else 0.0

    def play(self, position):
        if self.clock is not None:
            before = self.clock[0]
            allowed = before + self.clock[1]
        else:
            allowed = self.movetime
        move = self._watch(allowed + self.margin, lambda: super(SoakPlayer, self).play(position))
        if self.clock is not None:
            elapsed = self.last_answer_seconds()
            if elapsed > allowed:
                raise TimeLoss(f"took {elapsed:.3f} s of {allowed:.3f} s")
            # The clock runs on the engine's time, not on the host's bookkeeping.
            self.clock[0] = allowed - elapsed
        return move

    def finish(self):
        self._watch(10.0 + self.margin, lambda: super(SoakPlayer, self).finish())


def log_facts(path):
    """(stderr lines, exit code or None, peak memory in KB or None) from a tap log."""
    stderr_lines, code, peak = 0, None, None
    if not os.path.exists(path):
        return stderr_lines, code, peak
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            parts = line.split()
            if len(parts) >= 2 and parts[1] == "stderr":
                stderr_lines += 1
            if len(parts) >= 6 and parts[1] == "tap" and parts[2] == "exit":
                code, peak = int(parts[3]), int(parts[5])
    return stderr_lines, code, peak


def play_one(task):
    """Plays game `index`; returns its counts."""
    path, index, out, margin, seed, keep = task
    name, settings = SCHEDULE[index % len(SCHEDULE)]
    game_dir = os.path.join(out, f"game-{index + 1:05}")
    os.makedirs(game_dir, exist_ok=True)
    counts = {"games": 1, "moves": 0, "hangs": 0, "time_losses": 0, "illegal": 0,
              "crashes": 0, "other": 0, "stderr": 0, "peak_kb": 0, "failures": []}
    players = []
    outcome = "ok"
    try:
        for colour in ("white", "black"):
            players.append(SoakPlayer(path, os.path.join(game_dir, f"{colour}.log"), game_dir,
                                      margin, clock=settings.get("clock"),
                                      movetime=settings.get("movetime")))
        position = host.Position()
        rng = random.Random(seed * 1_000_003 + index)
        for _ in range(OPENING_PLIES):
            position.push(position.random_move(rng))
        by_turn = {draughts.WHITE: players[0], draughts.BLACK: players[1]}
        while not position.is_over() and position.plies() < host.MAX_PLIES:
            turn = position.board.turn if host.MODERN else position.board.whose_turn()
            move = by_turn[turn].play(position)
            counts["moves"] += 1
            try:
                position.push(move)
            except host.Failure as error:
                raise IllegalMove(str(error)) from error
        for player in players:
            player.finish()
    except Hang as error:
        counts["hangs"], outcome = 1, f"hang: {error}"
    except TimeLoss as error:
        counts["time_losses"], outcome = 1, f"loss on time: {error}"
    except IllegalMove as error:
        counts["illegal"], outcome = 1, f"illegal move: {error}"
    except (EOFError, BrokenPipeError) as error:
        counts["crashes"], outcome = 1, f"engine output ended: {error!r}"
    except Exception as error:  # pydraughts refusing a move text lands here too
        counts["other"], outcome = 1, f"{type(error).__name__}: {error}"
    finally:
        for player in players:
            try:
                if player.engine is not None:
                    player.engine.kill_process()
            except Exception:
                pass
    for colour in ("white", "black"):
        lines, code, peak = log_facts(os.path.join(game_dir, f"{colour}.log"))
        counts["stderr"] += lines
        counts["peak_kb"] = max(counts["peak_kb"], peak or 0)
        if outcome == "ok" and code not in (0, None):
            counts["crashes"], outcome = 1, f"{colour} engine exited with status {code}"
    if outcome != "ok":
        counts["failures"].append(f"game {index + 1} ({name}): {outcome} [{game_dir}]")
    elif not keep:
        shutil.rmtree(game_dir, ignore_errors=True)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="soak-logs")
    parser.add_argument("--margin", type=float, default=1.0,
                        help="seconds past a move's time before it counts as a hang")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    path = os.path.abspath(args.engine)
    out = os.path.join(os.path.abspath(args.out), f"pydraughts-{draughts.__version__}")
    os.makedirs(out, exist_ok=True)
    tasks = [(path, index, out, args.margin, args.seed, args.keep_logs)
             for index in range(args.games)]
    started = time.monotonic()
    totals = {}
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for counts in pool.imap_unordered(play_one, tasks):
            for key, value in counts.items():
                if key == "peak_kb":
                    totals[key] = max(totals.get(key, 0), value)
                elif key == "failures":
                    totals.setdefault(key, []).extend(value)
                    for failure in value:
                        print(f"FAIL {failure}", flush=True)
                else:
                    totals[key] = totals.get(key, 0) + value
    bad = sum(totals.get(k, 0) for k in ("hangs", "time_losses", "illegal", "crashes", "other"))
    print(f"pydraughts {draughts.__version__}: {totals.get('games', 0)} games, "
          f"{totals.get('moves', 0)} engine moves, {totals.get('hangs', 0)} hangs, "
          f"{totals.get('time_losses', 0)} losses on time, {totals.get('illegal', 0)} illegal "
          f"moves, {totals.get('crashes', 0)} crashes, {totals.get('other', 0)} other failures, "
          f"{totals.get('stderr', 0)} stderr lines, peak memory "
          f"{totals.get('peak_kb', 0) / 1024:.1f} MiB ({time.monotonic() - started:.0f} s)",
          flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
