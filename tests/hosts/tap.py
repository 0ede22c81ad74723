#!/usr/bin/env python3
"""A transparent pipe between a Hub host and an engine that records the traffic.

    python tests/hosts/tap.py LOG -- ENGINE ARGS...

The host starts this instead of the engine. Every line either way is relayed at once and written
to LOG with the seconds since the start and its direction (`host`, `engine`, `stderr`). The first
line of LOG is `pid N` (the engine's process, for a stack dump when it hangs); the last is
`exit CODE maxrss KB` (the engine's exit status and peak memory); the tap ends with the engine. The soak harness
(tests/hosts/soak.py) reads these logs.
"""

import os
import resource
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: tap.py LOG -- ENGINE ARGS...")
    log_path, command = sys.argv[1], sys.argv[3:]
    started = time.monotonic()
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1, encoding="utf-8")

    def record(who, line):
        with lock:
            log.write(f"{time.monotonic() - started:10.4f} {who:<6} {line}\n")

    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, bufsize=0)
    record("tap", f"pid {engine.pid}")

    def finish():
        """Records the engine's end and leaves with its status (the host may keep our input
        open after `quit`: the engine's end is ours)."""
        code = engine.wait()
        errors.join(5)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        record("tap", f"exit {code} maxrss {peak}")
        log.close()
        os._exit(0 if code == 0 else 1)

    def relay_output():
        for raw in iter(engine.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            record("engine", line)
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                break
        finish()

    def relay_errors():
        for raw in iter(engine.stderr.readline, b""):
            record("stderr", raw.decode("utf-8", "replace").rstrip("\r\n"))

    errors = threading.Thread(target=relay_errors, daemon=True)
    errors.start()
    threading.Thread(target=relay_output, daemon=True).start()
    for raw in iter(sys.stdin.buffer.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        record("host", line)
        try:
            engine.stdin.write(raw)
            engine.stdin.flush()
        except (BrokenPipeError, ValueError):
            break
    record("tap", "host closed its input")
    try:
        engine.stdin.close()
    except (BrokenPipeError, ValueError):
        pass
    # The output relay ends the process once the engine has gone.
    threading.Event().wait()


if __name__ == "__main__":
    main()
