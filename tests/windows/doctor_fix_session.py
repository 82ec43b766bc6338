#!/usr/bin/env python3
"""`tfwsl.exe doctor --fix` under Wine, from "no distro" to a healthy report through tfwsl's own
commands, in one stand-in world (tests/wsl_standin, tfwsl_wsl_session).

The world: the healthy scenario without Ubuntu-22.04 in `wsl -l -v`, a wsl.exe stand-in that fakes
--install and --set-version (`install = fake`), and the fake distro made to look provisioned
(tests/wsl_standin/provisioned_distro.py), since the relayed agent observes a probe root and only
checks there. It shows:
1. `doctor`: exit 2, the root cause wsl.distro with `tfwsl provision` as its fix (also in the JSON's
   fix_command), at most 80 columns a line;
2. `doctor --fix --dry-run`: names `tfwsl provision` and runs nothing (no --install in the log);
3. `doctor --fix` with stdin not a terminal and no --yes: exit 2, says to pass --yes, runs nothing;
4. `doctor --fix --yes`: runs `tfwsl provision --yes` (the distro installed through the stand-in,
   the distro half checked as root and found done), runs the doctor again, says what changed
   (wsl.distro fail -> ok) and ends with the healthy report: exit 0;
5. `doctor --fix --yes` again: nothing to fix, nothing run.
"""
import argparse
import json
import sys

from provisioned_distro import make_provisioned
from wsl_session import WslSession

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def without_the_distro(s):
    scenario = s.work / "scenario"
    with open(scenario / "scenario.txt", "a") as f:
        f.write("install = fake\n")
    listing = (scenario / "list.bin").read_bytes().decode("utf-16-le")
    kept = "".join(line for line in listing.splitlines(keepends=True) if "Ubuntu-22.04" not in line)
    (scenario / "list.bin").write_bytes(kept.encode("utf-16-le"))
    (scenario / "default-user.txt").write_text("tfuser\n")


def installs(s):
    return s.standin_log().count("--install")


def broken_report(s):
    r = s.run(["doctor"])
    out = r.stdout.replace("\r\n", "\n")
    # The compact text: the root cause under its category, then the summary naming it first.
    check(r.returncode == 2 and "] WSL: no Linux distribution is installed\n" in out and "Fix first: wsl.distro" in out,
          "doctor without a distro: exit 2, wsl.distro is the root cause", f"exit {r.returncode}\n{out[-1500:]}")
    check("fix: tfwsl provision installs" in out, "... and its fix is tfwsl's own command", out[-1500:])
    check(all(len(line) <= 80 for line in out.splitlines()), "... every line within 80 columns",
          "\n".join(line for line in out.splitlines() if len(line) > 80))
    j = s.run(["doctor", "--json"])
    doc = json.loads(j.stdout)
    distro = next(c for c in doc["checks"] if c["id"] == "wsl.distro")
    check(distro.get("fix_command") == ["provision"], "... and in the JSON: fix_command [provision]", json.dumps(distro))


def dry_run_and_consent(s):
    before = installs(s)
    r = s.run(["doctor", "--fix", "--dry-run"])
    check(r.returncode == 2 and "  tfwsl provision" in r.stdout and installs(s) == before,
          "--fix --dry-run shows tfwsl provision and runs nothing", f"exit {r.returncode}\n{r.stdout[-800:]}")
    r = s.run(["doctor", "--fix"])
    check(r.returncode == 2 and "pass --yes" in r.stderr and installs(s) == before,
          "--fix without a terminal and without --yes runs nothing and says to pass --yes",
          f"exit {r.returncode}\n{r.stderr[-800:]}")


def fixed(s):
    r = s.run(["doctor", "--fix", "--yes"], timeout=900)
    out = r.stdout.replace("\r\n", "\n")
    log = s.standin_log()
    check("wsl.exe --install -d Ubuntu-22.04 --no-launch" in log, "--fix --yes installs the distro (the stand-in's log)",
          log[-1200:])
    check("$ tfwsl provision --yes" in out, "... through tfwsl provision", out[-2500:])
    check("-d Ubuntu-22.04 -u root --exec" in log and "provision" in log, "... whose distro half ran in the distro as root")
    check("What changed:" in out and "wsl.distro: \u2717 fail -> \u2713 ok" in out,
          "the doctor ran again and says what changed", out[-2500:])
    tail = out[out.rfind("What changed:"):]
    check(r.returncode == 0 and "No issues found." in tail, "... and ends healthy: exit 0",
          f"exit {r.returncode}\n{out[-2500:]}\n{r.stderr[-1500:]}")
    check(all(len(line) <= 80 for line in tail.splitlines()), "... the report again within 80 columns a line",
          "\n".join(line for line in tail.splitlines() if len(line) > 80))
    before = installs(s)
    again = s.run(["doctor", "--fix", "--yes"], timeout=600)
    check(again.returncode == 0 and "$ tfwsl" not in again.stdout and installs(s) == before,
          "a second --fix --yes finds nothing to fix and runs nothing", again.stdout[-1200:])


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    args = parser.parse_args()
    with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        first = s.run(["--version"])  # builds the world
        check(first.returncode == 0, "the world is built", first.stderr[-400:])
        make_provisioned(str(s.distro), str(s.distro / "usr/local/lib/tfwsl/tfwsl-agent"))
        without_the_distro(s)
        broken_report(s)
        dry_run_and_consent(s)
        fixed(s)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
