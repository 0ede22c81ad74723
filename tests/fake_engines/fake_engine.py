#!/usr/bin/env python3
"""A scripted Hub engine for the match-runner tests (Python 3 standard library only).

Usage: fake_engine.py MODE ONCA_BINARY

It keeps the position from `pos` and finds legal moves by asking `ONCA_BINARY moves -p FEN`,
then misbehaves as MODE says:
  legal    plays the first legal move (in `onca moves` order) every time
  illegal  answers every `go` with the move 32-1, which is never legal
  crash    plays a legal first move, then exits at its second `go` (mid-game)
  hang     answers the handshake and `init` but never answers `go`
  mute     reads everything and never answers anything, not even `hub`
  junk     prints junk lines (unknown commands, bad quoting, binary bytes) before each answer,
           then plays like `legal`
  optimist plays like `legal` but reports score=5.00 (it thinks it is winning)
  pessimist plays like `legal` but reports score=-5.00

Every engine that plays reports `info depth=1 score=...` (0.00 unless its mode says otherwise)
before its `done`, and writes one line to standard error when it starts.
"""

import shlex
import subprocess
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "legal"
ONCA = sys.argv[2] if len(sys.argv) > 2 else "onca"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def board_from_hub(text):
    """(side, {square: piece char}) from a 33-character Hub position."""
    side = text[0].upper()
    board = {}
    for index, char in enumerate(text[1:33]):
        if char in "wbWB":
            board[index + 1] = char
    return side, board


def apply_move(side, board, move):
    """Plays a Hub move (captured squares listed) and returns the new side to move."""
    capture = "x" in move
    squares = [int(s) for s in move.replace("x", "-").split("-")]
    origin, target, captured = squares[0], squares[1], squares[2:] if capture else []
    piece = board.pop(origin)
    for square in captured:
        board.pop(square, None)
    if piece == "w" and target <= 4:
        piece = "W"
    if piece == "b" and target >= 29:
        piece = "B"
    board[target] = piece
    return "B" if side == "W" else "W"


def fen(side, board):
    def pieces(man, king):
        return ",".join(
            ("K" if board[s] == king else "") + str(s)
            for s in sorted(board)
            if board[s] in (man, king)
        )

    return f"{side}:W{pieces('w', 'W')}:B{pieces('b', 'B')}"


def first_legal_move(side, board):
    result = subprocess.run(
        [ONCA, "moves", "-p", fen(side, board)], capture_output=True, text=True, check=True
    )
    moves = result.stdout.split()
    return moves[0] if moves else None


SCORES = {"optimist": "5.00", "pessimist": "-5.00"}


def main():
    sys.stderr.write(f"fake engine {MODE} starting\n")
    sys.stderr.flush()
    side, board = "W", {}
    searches = 0
    for raw in sys.stdin:
        try:
            words = shlex.split(raw)
        except ValueError:
            continue
        if not words:
            continue
        command, args = words[0], dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if MODE == "mute":
            continue
        if command == "hub":
            send(f"id name=fake-{MODE} version=1 author=tests")
            send("param name=variant value=brazilian type=enum values=\"brazilian\"")
            send("wait")
        elif command == "init":
            send("ready")
        elif command == "pos":
            side, board = board_from_hub(args.get("pos", ""))
            for move in args.get("moves", "").split():
                side = apply_move(side, board, move)
        elif command == "go":
            searches += 1
            if MODE == "hang":
                continue
            if MODE == "crash" and searches >= 2:
                sys.exit(3)
            if MODE == "illegal":
                send("done move=32-1")
                continue
            if MODE == "junk":
                send("hello there, I am not a Hub line")
                send("info depth=\"unterminated")
                send("=== = = ===")
                sys.stdout.buffer.write(b"\xff\xfe\x00 binary junk\n")
                sys.stdout.flush()
                send("donezo move=1-2")
                send("info depth=1 score=0.00 pv=\"\"")
            move = first_legal_move(side, board)
            send(f"info depth=1 score={SCORES.get(MODE, '0.00')} pv=\"{move or ''}\"")
            send(f"done move={move}" if move else "done")
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
