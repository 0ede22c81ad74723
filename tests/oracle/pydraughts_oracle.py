#!/usr/bin/env python3
"""Reference move lists for Brazilian (or Russian) draughts, computed by pydraughts 0.6.7.

This is the Python half of a differential test of the Rust move generator.
Run it with the Python of a virtualenv that has pydraughts==0.6.7
(see scripts/setup-python):

    .venv/pydraughts-0.6.7/bin/python tests/oracle/pydraughts_oracle.py < positions.txt
    .venv/pydraughts-0.6.7/bin/python tests/oracle/pydraughts_oracle.py --selftest
    .venv/pydraughts-0.6.7/bin/python tests/oracle/pydraughts_oracle.py --plain < positions.txt
    .venv/pydraughts-0.6.7/bin/python tests/oracle/pydraughts_oracle.py --plain --variant russian

`--variant russian` answers under Russian rules (free choice of capture, a man crowned in the
middle of a capture goes on as a king); the default is `--variant brazilian`.

Input: one position per line, in FEN form `W:W21,22,K5:B1-12` (side to move,
white list, black list; `K` marks a king, ranges `a-b` are allowed, either list
may be empty; algebraic squares such as `a1` are accepted too). Standard
numbering: 1 = b8 ... 4 = h8, 29 = a1 ... 32 = g1; White starts on 21-32 and
moves toward 1-4.

Output: exactly one JSON line per input line, flushed at once:

    {"moves": [{"from": 26, "to": 17, "captured": [22], "after": "B..."}, ...]}

One entry per distinct (from, to, sorted captured set): pydraughts lists one
entry per capture route, and routes that differ only in their intermediate
stops are merged here. `after` is the Hub position string (side to move, then
32 characters `w` `b` `W` `B` `e` for squares 1..32) after playing one of the
routes in pydraughts. With `--plain` the same answer is one line of words,
`moves 22-18=B... 26x17x22=W...` (Hub move `=` position after) or
`error <message>`, for readers without a JSON parser. Entries are sorted by (from, to, captured). A position
without legal moves gives `{"moves": []}`; a line that cannot be read, or on
which pydraughts raises or behaves inconsistently, gives `{"error": "..."}`.

Facts about pydraughts 0.6.7 this relies on (read from its source):

* `draughts.core.game.Game(variant='brazilian', fen=...)` numbers squares as we
  do (row 0 = squares 1-4 at the top, Black's side; White promotes on row 0).
  `Game(variant='russian', ...)` uses the same internal numbering (only the
  public `Board` and the notation of Russian books count from a1), so the same
  numeric FEN serves both.
  The public `draughts.Board` rotates numeric FENs, and pydraughts' own
  algebraic-square conversion is also rotated (it reads `a1` as square 1), so
  this script converts algebraic squares to numbers itself and hands pydraughts
  a purely numeric FEN.
* `Game.legal_moves()` returns `(routes, captures)`: a route is a list of
  `[from, to]` steps (one step for a quiet move or per jump); captures is the
  list of captured squares per step (`[None]` for a quiet move). The majority
  rule is applied by keeping the routes with the most steps. In Russian every
  route is kept except one whose captures are the start of a longer route of
  the same piece (an unfinished sequence).
* `Game.push(route)` plays a whole route; the side to move changes only after
  the last jump. `Game.get_fen()` returns the Hub string described above.
"""

import json
import sys

VARIANT = "brazilian"
EXPECTED_VERSION = "0.6.7"
SQUARES = 32
START_HUB = "W" + "b" * 12 + "e" * 8 + "w" * 12


class FenError(ValueError):
    pass


# ---------------------------------------------------------------------------
# FEN reading (our own, independent of pydraughts)
# ---------------------------------------------------------------------------

def _square(token):
    """Square number of a numeric (`22`) or algebraic (`c3`) token."""
    token = token.strip()
    if not token:
        raise FenError("empty square")
    if token.isdigit():
        n = int(token)
    elif (len(token) == 2 and token[0].lower() in "abcdefgh"
          and token[1] in "12345678"):
        col = "abcdefgh".index(token[0].lower())   # 0 = a-file
        rank = int(token[1])                         # 1 = White's back rank
        if (col + rank) % 2 == 0:
            raise FenError(f"{token} is a light square")
        n = (8 - rank) * 4 + col // 2 + 1
    else:
        raise FenError(f"bad square {token!r}")
    if not 1 <= n <= SQUARES:
        raise FenError(f"square {n} out of range 1-{SQUARES}")
    return n


def _piece_list(text, colour, board):
    """Fill `board` (square -> Hub char) from one colour's comma list."""
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        king = item[0] in "Kk"
        if king:
            item = item[1:]
        if "-" in item:
            lo, hi = item.split("-", 1)
            if hi[:1] in "Kk":
                hi = hi[1:]
            a, b = _square(lo), _square(hi)
            if a > b:
                raise FenError(f"empty range {item}")
            squares = range(a, b + 1)
        else:
            squares = [_square(item)]
        char = colour.upper() if king else colour
        for sq in squares:
            if sq in board:
                raise FenError(f"square {sq} given twice")
            board[sq] = char


def parse_fen(line):
    """Return (side 'W'/'B', {square: 'w'|'b'|'W'|'B'}) for a FEN line."""
    text = line.strip()
    if not text:
        raise FenError("empty line")
    if text.endswith("."):
        text = text[:-1]
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3:
        raise FenError(f"expected 3 ':'-separated fields, got {len(parts)}")
    side = parts[0].upper()
    if side not in ("W", "B"):
        raise FenError(f"bad side to move {parts[0]!r}")
    board = {}
    seen = set()
    for part in parts[1:]:
        if not part or part[0].upper() not in ("W", "B"):
            raise FenError(f"bad piece list {part!r}")
        colour = part[0].upper()
        if colour in seen:
            raise FenError(f"two {colour} piece lists")
        seen.add(colour)
        _piece_list(part[1:], colour.lower(), board)
    return side, board


def numeric_fen(side, board):
    """Plain numeric FEN (no ranges, no algebraic squares) for pydraughts."""
    def lst(colour):
        out = []
        for sq in sorted(board):
            c = board[sq]
            if c.lower() == colour:
                out.append(("K" if c.isupper() else "") + str(sq))
        return ",".join(out)
    return f"{side}:W{lst('w')}:B{lst('b')}"


def hub_string(side, board):
    return side + "".join(board.get(sq, "e") for sq in range(1, SQUARES + 1))


# ---------------------------------------------------------------------------
# Move generation through pydraughts
# ---------------------------------------------------------------------------

def _import_game():
    try:
        import draughts.core.game as game_module  # noqa: WPS433
    except ImportError as exc:  # pragma: no cover - environment problem
        sys.stderr.write(
            "pydraughts_oracle: cannot import draughts.core.game "
            f"({exc}); run it with the pydraughts==0.6.7 venv's python\n")
        sys.exit(2)
    return game_module


def _keep_fen(fen, variant=None, to_algebraic=None):
    return fen


def set_speedup(on):
    """Skip pydraughts' `fen_to_variant` bookkeeping inside `Game`.

    `Game.__init__` and `Game.move` call `fen_to_variant` only to fill
    `Game.last_non_reversible_fen` (draw-claim bookkeeping for engines), which
    move generation never reads; it is about half of the run time. The
    self-test checks that the output is the same with and without this.
    """
    global Game
    game_module = _import_game()
    game_module.fen_to_variant = _keep_fen if on else _ORIGINAL["fen_to_variant"]
    Game = game_module.Game


_ORIGINAL = {}
Game = None  # draughts.core.game.Game, set by set_speedup()


def _expected_after(side, board, route, captured):
    """Our own idea of the position after a move (cross-check only). A man is
    crowned where the route ends on its far row; in Russian also where any
    jump of the route lands there."""
    frm, to = route[0][0], route[-1][1]
    stops = [step[1] for step in route] if VARIANT == "russian" else [to]
    new = dict(board)
    piece = new.pop(frm)
    for sq in captured:
        new.pop(sq, None)
    if piece == "w" and any(sq <= 4 for sq in stops):
        piece = "W"
    elif piece == "b" and any(sq >= 29 for sq in stops):
        piece = "B"
    new[to] = piece
    return hub_string("B" if side == "W" else "W", new)


def moves_for(line):
    """Result dict for one input line."""
    side, board = parse_fen(line)
    fen = numeric_fen(side, board)
    game = Game(variant=VARIANT, fen=fen)

    read = game.get_fen()
    mine = hub_string(side, board)
    if read != mine:
        raise RuntimeError(f"pydraughts read {fen} as {read}, expected {mine}")

    turn = game.whose_turn()
    routes, captures = game.legal_moves()
    if len(routes) != len(captures):
        raise RuntimeError("legal_moves returned lists of different lengths")

    merged = {}
    for route, caps in zip(routes, captures):
        if not route:
            raise RuntimeError("empty route")
        for a, b in zip(route, route[1:]):
            if a[1] != b[0]:
                raise RuntimeError(f"route {route} is not contiguous")
        quiet = caps == [None]
        if quiet:
            if len(route) != 1:
                raise RuntimeError(f"quiet route with several steps: {route}")
            captured = ()
        else:
            if any(c is None for c in caps) or len(caps) != len(route):
                raise RuntimeError(f"route {route} has captures {caps}")
            if len(set(caps)) != len(caps):
                raise RuntimeError(f"route {route} captures a piece twice: {caps}")
            captured = tuple(sorted(caps))
        key = (route[0][0], route[-1][1], captured)
        if key not in merged:
            merged[key] = route

    out = []
    for key in sorted(merged):
        frm, to, captured = key
        route = merged[key]
        g = Game(variant=VARIANT, fen=fen)
        g.push(route)
        if g.whose_turn() == turn or g._not_added_move:
            raise RuntimeError(
                f"pydraughts inconsistency: side to move did not change "
                f"after route {route}")
        after = g.get_fen()
        expected = _expected_after(side, board, route, captured)
        if after != expected:
            raise RuntimeError(
                f"pydraughts inconsistency: route {route} gives {after}, "
                f"expected {expected}")
        out.append({"from": frm, "to": to, "captured": list(captured),
                    "after": after})
    return {"moves": out}


def process_line(line):
    try:
        return moves_for(line)
    except Exception as exc:  # one bad line must not stop the stream
        msg = str(exc) or type(exc).__name__
        if not isinstance(exc, (FenError, RuntimeError)):
            msg = f"{type(exc).__name__}: {msg}"
        return {"error": msg}


def plain(result):
    """The one-line text form read by the Rust test (no JSON parser there):
    `moves 22-18=B... 26x17x22=W...` or `error <message>`."""
    if "error" in result:
        return "error " + result["error"].replace("\n", " ")
    words = ["moves"]
    for m in result["moves"]:
        if m["captured"]:
            text = f'{m["from"]}x{m["to"]}' + "".join(f"x{c}" for c in m["captured"])
        else:
            text = f'{m["from"]}-{m["to"]}'
        words.append(f'{text}={m["after"]}')
    return " ".join(words)


def run_filter(stdin, stdout, as_plain=False):
    for line in stdin:
        line = line.rstrip("\r\n")
        result = process_line(line)
        stdout.write((plain(result) if as_plain else json.dumps(result)) + "\n")
        stdout.flush()


# ---------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------

def _summary(result):
    if "error" in result:
        return result
    return sorted((m["from"], m["to"], tuple(m["captured"]))
                  for m in result["moves"])


def selftest():
    failures = []

    def check(name, fen, expected, afters=None):
        result = process_line(fen)
        got = _summary(result)
        want = sorted((f, t, tuple(c)) for f, t, c in expected)
        if got != want:
            failures.append(f"{name}: {fen}\n    got  {got}\n    want {want}")
            return
        for (f, t, c), after in (afters or {}).items():
            for m in result["moves"]:
                if (m["from"], m["to"], tuple(m["captured"])) == (f, t, c):
                    if m["after"] != after:
                        failures.append(
                            f"{name}: {fen} {f}-{t}: after {m['after']}, want {after}")

    start = "W:W21-32:B1-12"
    check("start position", start,
          [(21, 17, ()), (22, 17, ()), (22, 18, ()), (23, 18, ()),
           (23, 19, ()), (24, 19, ()), (24, 20, ())],
          {(22, 18, ()): "B" + "b" * 12 + "e" * 5 + "w" + "ee" + "w"
           + "e" + "w" * 10})
    if _summary(process_line("W:W21,22,23,24,25,26,27,28,29,30,31,32:"
                             "B1,2,3,4,5,6,7,8,9,10,11,12")) != _summary(
                                 process_line(start)):
        failures.append("range expansion differs from the explicit list")
    if process_line(start)["moves"][0]["after"][0] != "B":
        failures.append("start: side to move after 21-17 is not B")
    # Black's reply set from the start position, Black to move.
    check("black to move at start", "B:W21-32:B1-12",
          [(9, 13, ()), (9, 14, ()), (10, 14, ()), (10, 15, ()),
           (11, 15, ()), (11, 16, ()), (12, 16, ())])
    # Simple capture; the quiet moves are excluded because capture is forced.
    check("simple capture", "W:W26,31:B22",
          [(26, 17, (22,))],
          {(26, 17, (22,)): "B" + "e" * 16 + "w" + "e" * 13 + "w" + "e"})
    # Algebraic squares: d2 = 26, c3 = 22, g1 = 32.
    check("algebraic squares", "W:Wd2,g1:Bc3", [(26, 17, (22,))])
    # A man captures backwards (black man on 18 over white 14 to 9).
    check("black man backwards", "B:W14:B18", [(18, 9, (14,))])
    # Flying king with several landing squares (29 over 18: 15, 11, 8, 4).
    check("king multi-landing", "W:WK29:B18",
          [(29, 15, (18,)), (29, 11, (18,)), (29, 8, (18,)), (29, 4, (18,))],
          {(29, 8, (18,)): "B" + "e" * 7 + "W" + "e" * 24})
    # King takes two pieces on one line; the routes through 18 and 15 merge.
    check("king two on a line", "W:WK29:B22,11",
          [(29, 8, (11, 22)), (29, 4, (11, 22))])
    # Majority rule: 28x10 (two pieces) beats 21x14 (one piece).
    check("majority rule", "W:W21,28:B17,24,15",
          [(28, 10, (15, 24))])
    # Brazilian rule: a man that reaches the far row in the middle of a
    # capture stays a man: 10 x 3 (over 7) must go on x 12 (over 8).
    check("no promotion mid-capture", "W:W10:B7,8",
          [(10, 12, (7, 8))],
          {(10, 12, (7, 8)): "B" + "e" * 11 + "w" + "e" * 20})
    # Promotion when the capture ends on the far row.
    check("promotion on capture", "W:W10:B7",
          [(10, 3, (7,))], {(10, 3, (7,)): "B" + "ee" + "W" + "e" * 29})
    # A man may end on its own starting square: four jumps around 22.
    check("man returns to start", "W:W22:B18,10,9,17",
          [(22, 22, (9, 10, 17, 18))],
          {(22, 22, (9, 10, 17, 18)): "B" + "e" * 21 + "w" + "e" * 10})
    # No legal move at all.
    check("no pieces", "W:W:B1,2", [])
    check("blocked", "B:W9,14:B5", [])
    # Bad input gives an error line, not an exception.
    if "error" not in process_line("W:W33:B1"):
        failures.append("square 33 was accepted")
    if "error" not in process_line("nonsense"):
        failures.append("nonsense was accepted")

    _russian_selftest(check)

    # The speed-up (see set_speedup) must not change any answer.
    sample = [start, "B:W21-32:B1-12", "W:WK29:B22,11", "W:W10:B7,8",
              "W:W18,K31:B14,7,K6,23,27", "B:W6,15,K19,22,30:B2,K4,10,11,25",
              "W:W13,14,22,23,K32:B5,6,9,17,K26", "B:W5,7,K28:BK3,11,K15,24"]
    fast = [process_line(f) for f in sample]
    set_speedup(False)
    slow = [process_line(f) for f in sample]
    set_speedup(True)
    for f, a, b in zip(sample, fast, slow):
        if a != b:
            failures.append(f"speed-up changes the answer for {f}: {a} != {b}")

    if failures:
        sys.stderr.write("pydraughts_oracle selftest FAILED:\n  "
                         + "\n  ".join(failures) + "\n")
        return 1
    print("pydraughts_oracle selftest: all checks passed")
    return 0


def _russian_selftest(check):
    """The Russian rules, checked with the Brazilian checker (`check`) while
    VARIANT is switched to Russian."""
    global VARIANT
    VARIANT = "russian"
    try:
        # Free choice: the one-piece capture stands beside the two-piece one.
        check("russian free choice", "W:W21,28:B17,24,15",
              [(21, 14, (17,)), (28, 10, (15, 24))])
        # Crowned on 2 over 7, the king flies over 6 to take 9.
        check("russian crowned man goes on as a king", "W:W11:B7,9",
              [(11, 13, (7, 9))],
              {(11, 13, (7, 9)): "B" + "e" * 12 + "W" + "e" * 19})
        # Crossing the far row: the same move as in Brazilian, but a king.
        check("russian crowning on the way", "W:W10:B7,8",
              [(10, 12, (7, 8))],
              {(10, 12, (7, 8)): "B" + "e" * 11 + "W" + "e" * 20})
        # A king must land where it can go on capturing (15, then over 10).
        check("russian king completes the sequence", "W:WK29:B22,10",
              [(29, 1, (10, 22)), (29, 6, (10, 22))])
    finally:
        VARIANT = "brazilian"


USAGE = ("usage: pydraughts_oracle.py [--selftest | --plain] "
         "[--variant brazilian|russian] < fens\n")


def main(argv):
    _ORIGINAL["fen_to_variant"] = _import_game().fen_to_variant
    try:
        import importlib.metadata as metadata
        version = metadata.version("pydraughts")
    except Exception:  # noqa: BLE001 - only for a warning
        version = "unknown"
    if version != EXPECTED_VERSION:
        sys.stderr.write(f"pydraughts_oracle: warning: pydraughts {version} "
                         f"installed, written for {EXPECTED_VERSION}\n")
    set_speedup(True)
    args = argv[1:]
    variant = "brazilian"
    if "--variant" in args:
        at = args.index("--variant")
        if at + 1 >= len(args):
            sys.stderr.write(USAGE)
            return 2
        variant = args[at + 1]
        del args[at:at + 2]
    if variant not in ("brazilian", "russian"):
        sys.stderr.write(USAGE)
        return 2
    if args == ["--selftest"]:
        return selftest()
    if args not in ([], ["--plain"]):
        sys.stderr.write(USAGE)
        return 2
    global VARIANT
    VARIANT = variant
    run_filter(sys.stdin, sys.stdout, as_plain=bool(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
