#!/usr/bin/env python3
"""The ponder-miss race of pydraughts' HubEngine, forced: its `stop` overtakes its `go ponder`.

pydraughts (0.5.7 and 0.6.7) ponders from a thread of its own: `play(..., ponder=True)` sends
`pos`, `level` and `go ponder`, then reads until `done`. On a ponder miss the main thread calls
`stop()`, which writes `stop` at once, without waiting for that thread's `go ponder`. When the
ponder thread is slow to start (a loaded machine, pydraughts' own move bookkeeping in Python), the
engine sees `stop` while idle and then `go ponder`, and a ponder search never ends on its own: the
host waits forever and the game is lost on time. This replays that order by delaying the ponder
thread's `go` until after the `stop`, then checks that the ponder search still ends and the engine
plays on.

    python tests/hosts/ponder_race.py target/release/onca

Run with the Python of a virtualenv holding pydraughts 0.5.7 or 0.6.7 (scripts/host-tests does).
Exits 0 when the engine answers every time, 1 otherwise.
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from draughts.engine import Limit  # noqa: E402

import pydraughts_games as host  # noqa: E402

PATIENCE_SECONDS = 10.0
ROUNDS = 3


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ponder_race.py ENGINE")
    engine = host.start_engine(os.path.abspath(sys.argv[1]))
    position = host.Position()
    original_go = engine.go
    stop_sent = threading.Event()

    def late_go(*args, **kwargs):
        # The ponder thread starts its `pos`/`level`/`go ponder` only after the main thread's
        # `stop` has been written: the order the race produces.
        stop_sent.wait(PATIENCE_SECONDS)
        time.sleep(0.05)
        return original_go(*args, **kwargs)

    failures = passed = 0
    for round_number in range(1, ROUNDS + 1):
        stop_sent.clear()
        engine.go = late_go
        holder = {}

        def ponder():
            try:
                holder["result"] = engine.play(position.board, Limit(time=3, inc=0.1), True)
            except Exception as error:
                holder["error"] = repr(error)

        thread = threading.Thread(target=ponder, daemon=True)
        thread.start()
        engine.stop()
        stop_sent.set()
        thread.join(PATIENCE_SECONDS)
        engine.go = original_go
        if thread.is_alive() or "error" in holder:
            failures += 1
            print(f"FAIL round {round_number}: the ponder search did not end "
                  f"({holder.get('error', 'no done within %.0f s' % PATIENCE_SECONDS)})",
                  flush=True)
            break
        # The engine is still usable: a normal move follows.
        result = engine.play(position.board, Limit(movetime=0.05), False)
        position.push(result.move)
        passed += 1
        print(f"round {round_number}: early stop ended the ponder search, then played "
              f"{result.move.hub_move}", flush=True)
    try:
        engine.quit()
        engine.p.wait(timeout=10)
    except Exception:
        engine.kill_process()
    print(f"{passed} passed, {failures} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
