#!/usr/bin/env python3
"""Wine as the tests run it starts every time (docs/building.md, "Wine's exit 1 with no output").

1. Why a start can fail: with the loader's heap over 0x7ffe0000 (heap_over_shared_data.so preloaded,
   randomisation off so that the heap starts just above the loader's image), Wine cannot map the user
   shared data page and exits 1, printing nothing under the tests' WINEDEBUG=-all.
2. The tests' wine64 (wine_fixed_layout.sh.in) starts Wine with randomisation off: in every one of
   20 starts the loader's heap begins within 1 MiB above the image (0x7d000000), 48 MiB below that
   page. With randomisation on, the kernel here puts it anywhere in the 1 GiB above the image.

  wine_layout.py --wine WRAPPER --real-wine WINE64 --standin EXE --heap-over LIB
Exit 0 ok, 1 a failure.
"""
import argparse
import os
import subprocess
import sys
import time

IMAGE_END, USER_SHARED_DATA = 0x7D100000, 0x7FFE0000
failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def heap_start(argv, loader):
    """Starts a lingering Windows program; the start of its loader's heap, from /proc/PID/maps once
    the process is Wine's loader (the wrapper execs setarch, which execs the loader)."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = None
    deadline = time.monotonic() + 20
    while start is None and time.monotonic() < deadline and p.poll() is None:
        try:
            if os.readlink(f"/proc/{p.pid}/exe") != loader:
                raise OSError("not Wine's loader yet")
            with open(f"/proc/{p.pid}/maps") as maps:
                start = next((int(l.split("-")[0], 16) for l in maps if l.rstrip().endswith("[heap]")), None)
        except OSError:
            pass
        time.sleep(0.05)
    p.wait(timeout=60)
    return start


def main():
    parser = argparse.ArgumentParser()
    for name in ("--wine", "--real-wine", "--standin", "--heap-over"):
        parser.add_argument(name, required=True)
    a = parser.parse_args()
    arch = os.uname().machine
    forced = subprocess.run(["setarch", arch, "-R", a.real_wine, a.standin, "--standin-linger", "0"],
                            env=dict(os.environ, LD_PRELOAD=a.heap_over), capture_output=True, timeout=120)
    check(forced.returncode == 1 and not forced.stdout and not forced.stderr,
          "with the loader's heap over 0x7ffe0000, Wine exits 1 and prints nothing",
          f"exit {forced.returncode}, stdout {forced.stdout[:200]!r}, stderr {forced.stderr[:200]!r}")
    loader = os.path.realpath(a.real_wine)
    starts = [heap_start([a.wine, a.standin, "--standin-linger", "1500"], loader) for _ in range(20)]
    check(all(s is not None and s < IMAGE_END for s in starts),
          "the tests' wine64: in 20 starts the heap begins just above the loader's image, far below 0x7ffe0000",
          " ".join("none" if s is None else hex(s) for s in starts))
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
