#!/usr/bin/env python3
"""tfwsl_wsl_session keeps one world across commands: two `tfwsl.exe doctor --json` runs in the
healthy scenario both pass, the second reuses the first one's work folder (its stand-in log grows,
its fake distro is the same folder), and the relayed agent ran inside that distro."""
import argparse
import json
import sys

from wsl_session import WslSession


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    args = parser.parse_args()
    failures = []
    with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        first = s.run(["doctor", "--json"])
        if first.returncode != 0:
            failures.append(f"first doctor exited {first.returncode}: {first.stderr}")
        log_after_first = s.standin_log().count("\n")
        marker = s.distro / "tmp" / "session-marker"
        marker.write_text("kept")
        second = s.run(["doctor", "--json"])
        if second.returncode != 0:
            failures.append(f"second doctor exited {second.returncode}: {second.stderr}")
        if not s.standin_log().count("\n") > log_after_first > 0:
            failures.append("the stand-in log did not grow across the two runs: the world was not kept")
        if not marker.exists():
            failures.append("the fake distro was rebuilt between runs")
        report = json.loads(second.stdout or "{}")
        if report.get("summary", {}).get("issues") != 0:
            failures.append(f"healthy world reports issues: {report.get('summary')}")
        if not any("tfwsl-agent" in line for line in s.relayed()):
            failures.append("no relayed command started the agent")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
