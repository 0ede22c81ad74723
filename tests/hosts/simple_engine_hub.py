#!/usr/bin/env python3
"""A Hub engine of ours that plays with py-draughts' `SimpleEngine` (Brazilian draughts).

py-draughts (PyPI `py-draughts`, imported as `draughts`, like pydraughts) ships a small
alpha-beta engine, `draughts.SimpleEngine`. This script puts it behind the Hub protocol so that
it can be driven like any Hub engine (`onca match --engine ...`, scripts/vs-simple-engine).
It is a benchmark opponent, not part of CI.

    scripts/setup-python .venv/py-draughts py-draughts
    .venv/py-draughts/bin/python tests/hosts/simple_engine_hub.py [--move-time SECONDS]

Commands: `hub` (id, param, wait), `set-param` (ignored), `init` (ready), `new-game` (fresh
engine and tables), `pos pos=<33-char Hub string or FEN> moves="..."`, `level move-time=<s>`
(other level fields are ignored: the engine always thinks about `move-time`, default 0.1 s),
`go ...` (one `info` with the score, then `done move=<hub move>`), `stop` (ends the running
search; its `done` follows), `ping` (`pong`), `quit`.

Facts about py-draughts 1.10 this relies on (read from its source):
* `draughts.BrazilianBoard` numbers the 32 dark squares exactly as we do (1 = b8 ... 32 = g1;
  Black on 1-12, White on 21-32, White moves first); internally squares are 0-based.
* `BrazilianBoard.from_fen("W:W21,22:BK5")` reads a position; `board.legal_moves` applies the
  maximum-capture rule and drops captures with the same (from, to, captured set, promotion).
* A `Move` has `square_list` (0-based squares visited: start, every landing square, end) and
  `captured_list` (0-based captured squares, in capture order); `str(move)` is `22-18` or the
  visited path `14x23x30`. Hub writes `from x to x captured...` instead, so moves are matched
  on (from, to, set of captured squares).
* `SimpleEngine(depth_limit, time_limit)`: iterative deepening; it checks the clock every 2048
  nodes and after each iteration, and keeps the move of the last finished iteration.
  `get_best_move(board)` returns the move; scores are in men for the side to move, about
  +-1000 for a won/lost line. It logs (loguru, DEBUG) `Depth d: Score s, ...` after each
  iteration; we read depth and score from there, skipping iterations cut short by the clock
  (their score is a bound, +-10000). `engine.stop_search = True` makes the search unwind.
"""

import argparse
import sys
import threading
import time

from draughts import BrazilianBoard, SimpleEngine
from loguru import logger
from draughts.models import Color

DEFAULT_MOVE_TIME = 0.1
# The search overshoots its limit by up to one 2048-node check interval, so ask for less.
TIME_FRACTION = 0.7
MAX_DEPTH = 64


# ---------------------------------------------------------------------------
# Notation: Hub <-> py-draughts
# ---------------------------------------------------------------------------

def hub_to_fen(text):
    """A 33-character Hub position (side + squares 1..32) as a py-draughts FEN."""
    if len(text) != 33 or text[0] not in "WB" or any(c not in "wbWBe" for c in text[1:]):
        raise ValueError(f"bad Hub position {text!r}")
    white, black = [], []
    for square, piece in enumerate(text[1:], start=1):
        if piece == "w":
            white.append(str(square))
        elif piece == "W":
            white.append(f"K{square}")
        elif piece == "b":
            black.append(str(square))
        elif piece == "B":
            black.append(f"K{square}")
    return f"{text[0]}:W{','.join(white)}:B{','.join(black)}"


def board_from_text(text):
    """A board from a Hub position string or (with a `:`) a FEN."""
    fen = text if ":" in text else hub_to_fen(text)
    return BrazilianBoard.from_fen(fen)


def board_to_hub(board):
    """The Hub position string of a py-draughts board."""
    chars = []
    for index in range(32):
        bit = 1 << index
        if board.white_men & bit:
            chars.append("w")
        elif board.white_kings & bit:
            chars.append("W")
        elif board.black_men & bit:
            chars.append("b")
        elif board.black_kings & bit:
            chars.append("B")
        else:
            chars.append("e")
    side = "W" if board.turn == Color.WHITE else "B"
    return side + "".join(chars)


def move_key(move):
    """(from, to, captured squares) of a py-draughts move, 1-based: what Hub notation says."""
    return (move.square_list[0] + 1, move.square_list[-1] + 1,
            tuple(sorted(square + 1 for square in move.captured_list)))


def move_to_hub(move):
    start, end, captured = move_key(move)
    if not captured:
        return f"{start}-{end}"
    return "x".join(str(square) for square in (start, end) + captured)


def parse_hub_move(text):
    """(from, to, captured or None) from Hub text; None = `fromxto` without captured squares."""
    text = text.strip()
    try:
        if "-" in text:
            parts = [int(part) for part in text.split("-")]
            if len(parts) != 2:
                raise ValueError
            return parts[0], parts[1], ()
        parts = [int(part) for part in text.split("x")]
    except ValueError:
        raise ValueError(f"unreadable move {text!r}") from None
    if len(parts) < 2:
        raise ValueError(f"unreadable move {text!r}")
    captured = tuple(sorted(parts[2:])) if len(parts) > 2 else None
    return parts[0], parts[1], captured


def find_move(board, text):
    """The legal py-draughts move written `text` in Hub notation; ValueError if none fits."""
    start, end, captured = parse_hub_move(text)
    fits = []
    for move in board.legal_moves:
        key = move_key(move)
        if key[0] != start or key[1] != end:
            continue
        if captured is None and key[2]:
            fits.append(move)
        elif captured is not None and key[2] == captured:
            fits.append(move)
    if len(fits) != 1:
        legal = " ".join(move_to_hub(move) for move in board.legal_moves)
        raise ValueError(f"move {text} is {'ambiguous' if fits else 'not legal'} here "
                         f"({board_to_hub(board)}; legal: {legal})")
    return fits[0]


# ---------------------------------------------------------------------------
# Hub lines
# ---------------------------------------------------------------------------

def parse_line(line):
    """(command, {name: value}) with flags as name: None; quoted values may hold blanks."""
    words = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not line[j].isspace() and line[j] != "=":
            j += 1
        name = line[i:j]
        k = j
        while k < n and line[k].isspace():
            k += 1
        if k < n and line[k] == "=":
            k += 1
            while k < n and line[k].isspace():
                k += 1
            if k < n and line[k] == '"':
                end = line.find('"', k + 1)
                if end < 0:
                    raise ValueError("unterminated quoted value")
                words.append((name, line[k + 1:end]))
                i = end + 1
            else:
                m = k
                while m < n and not line[m].isspace():
                    m += 1
                words.append((name, line[k:m]))
                i = m
        else:
            words.append((name, None))
            i = j
    if not words:
        return "", {}
    command = words[0][0]
    return command, {name: value for name, value in words[1:]}


class Hub:
    def __init__(self, move_time):
        self.out_lock = threading.Lock()
        self.default_move_time = move_time
        self.engine = SimpleEngine(depth_limit=MAX_DEPTH, time_limit=move_time)
        self.position = None  # (start text, [move texts])
        self.move_time = None
        self.search = None  # running thread

    def send(self, line):
        with self.out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def error(self, message):
        self.send('error message="%s"' % message.replace('"', "'"))

    def wait_search(self):
        if self.search is not None:
            self.search.join()
            self.search = None

    def stop_search(self):
        if self.search is not None:
            self.engine.stop_search = True
            self.wait_search()

    def think(self, board, move_time):
        started = time.monotonic()
        legal = board.legal_moves
        if not legal:
            self.send('info depth=0 mean-depth=0.0 score=-100.00 nodes=0 time=0.000 nps=0.00 pv=""')
            self.error("go: the side to move has no legal move (the game is lost)")
            self.send('done move=""')
            return
        self.engine.time_limit = max(move_time * TIME_FRACTION, 0.001)
        iterations = []  # (depth, score) of each iteration that finished before any stop
        engine = self.engine

        def record(message):
            # SimpleEngine logs "Depth d: Score s, ..." after every iteration, also after ones
            # the clock cut short; those end with stop_search already set, so they are skipped.
            text = message.record["message"]
            if text.startswith("Depth ") and not engine.stop_search:
                try:
                    depth_text, rest = text[6:].split(":", 1)
                    score_text = rest.split("Score", 1)[1].split(",", 1)[0]
                    iterations.append((int(depth_text), float(score_text)))
                except (ValueError, IndexError):
                    pass

        sink = logger.add(record, level="DEBUG", filter="draughts.engines.simple")
        try:
            move = engine.get_best_move(board)
        except Exception as failure:  # keep one done per go whatever happens inside
            self.error(f"search failed: {failure!r}")
            move = legal[0]
        finally:
            logger.remove(sink)
        keys = {move_key(m) for m in legal}
        if move_key(move) not in keys:
            # A stale table move would be illegal; never send one.
            self.error(f"SimpleEngine chose {move_to_hub(move)}, not legal here")
            move = legal[0]
        elapsed = time.monotonic() - started
        nodes = engine.nodes
        depth, score = iterations[-1] if iterations else (0, 0.0)
        if abs(score) >= 900.0:
            # A won/lost line: SimpleEngine scores it 1000 minus (depth_limit - remaining depth),
            # which is no distance in plies, so only the verdict is passed on.
            score = 99.0 if score > 0 else -99.0
        else:
            score = max(min(score, 75.0), -75.0)
        self.send(f'info depth={depth} mean-depth={depth}.0 score={score:.2f} nodes={nodes} '
                  f'time={elapsed:.3f} nps={nodes / max(elapsed, 1e-6) / 1e6:.2f} '
                  f'pv="{move_to_hub(move)}"')
        self.send(f"done move={move_to_hub(move)}")

    def handle(self, line):
        """Carries out one line; returns False on quit."""
        try:
            command, args = parse_line(line)
        except ValueError as failure:
            self.error(str(failure))
            return True
        if command == "ping":
            self.send("pong")
            return True
        if command == "stop":
            self.stop_search()
            return True
        if command == "ponder-hit":
            return True
        # Any other command ends a running search first.
        self.stop_search()
        if command == "hub":
            self.send('id name=SimpleEngineHub version=1 author="Onca authors (wrapping py-draughts)"')
            self.send("param name=variant value=brazilian type=enum values=\"brazilian\"")
            self.send("wait")
        elif command == "init":
            self.send("ready")
        elif command == "new-game":
            self.engine = SimpleEngine(depth_limit=MAX_DEPTH, time_limit=self.default_move_time)
        elif command == "pos":
            self.move_time = None
            text = args.get("pos")
            if not text:
                self.position = None
                self.error("pos: missing pos=")
                return True
            moves = (args.get("moves") or "").split()
            try:
                board = board_from_text(text)
                for index, move in enumerate(moves):
                    board.push(find_move(board, move))
            except ValueError as failure:
                self.position = None
                self.error(f"pos: {failure}")
                return True
            self.position = board
        elif command == "level":
            if args.get("move-time"):
                try:
                    value = float(args["move-time"])
                    if not value >= 0:
                        raise ValueError
                    self.move_time = value
                except ValueError:
                    self.error(f"level: bad move-time {args['move-time']!r}")
        elif command == "go":
            if self.position is None:
                self.error("go: no position")
                self.send('done move=""')
                return True
            board = self.position.copy()
            move_time = self.move_time if self.move_time is not None else self.default_move_time
            self.move_time = None
            self.engine.stop_search = False
            self.search = threading.Thread(target=self.think, args=(board, move_time), daemon=True)
            self.search.start()
        elif command == "quit":
            return False
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move-time", type=float, default=DEFAULT_MOVE_TIME,
                        help="seconds per move when the host sends no level move-time")
    options = parser.parse_args()
    hub = Hub(options.move_time)
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if len(line) > 1 << 20:
            hub.error("line too long")
            continue
        if not hub.handle(line):
            break
    hub.stop_search()


if __name__ == "__main__":
    main()
