#!/usr/bin/env python3
"""tfwsl.exe uninstall under Wine, in one stand-in world (tests/wsl_standin: the wsl.exe stand-in, the
relay, the real tfwsl-agent in the fake distro), after earlier commands of the same test made what
it removes:

1. `wslconfig set` twice (two backups beside the .wslconfig; the first is the original) and
   `agent start --yes` (the agent installed in the distro, started, its state files in the home
   folder), and a file of the user's beside that state;
2. `uninstall --dry-run --json` lists exactly those, each to remove or to leave, and changes nothing;
3. `uninstall --yes` removes exactly the ones it listed to remove: the agent stopped, its binary and
   folder, its state files and the newer backup; the .wslconfig, its original backup and the user's
   file stay.

The relay runs the distro's commands on this machine: HOME is a temporary folder and provision's
state folder (--state-dir) another, so nothing of the build machine's own is listed or removed.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

from wsl_session import WslSession

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def tree(wslconfig, *folders):
    """Every path under the folders, and the .wslconfig with its backups, with their sizes: what a dry
    run must leave as it was (not the session's own logs beside them)."""
    folder, name = os.path.split(wslconfig)
    out = {os.path.join(folder, n): os.lstat(os.path.join(folder, n)).st_size
           for n in os.listdir(folder) if n.startswith(name)}
    for top in folders:
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                path = os.path.join(root, name)
                out[path] = os.lstat(path).st_size if name in files else None
    return out


def make_things(s, env, wslconfig):
    for memory in ("6GB", "8GB"):
        r = s.run(["wslconfig", "set", "memory=" + memory, "--yes"], env=env)
        check(r.returncode == 0, f"wslconfig set memory={memory}", r.stderr[-800:])
    r = s.run(["agent", "start", "--yes"], env=env, timeout=300)
    check(r.returncode == 0 and "runs in" in r.stdout, "agent start --yes installs and starts the agent",
          f"exit {r.returncode}\n{r.stdout[-800:]}\n{r.stderr[-800:]}")


def expected(s, home, wslconfig, agent):
    folder = os.path.dirname(wslconfig)
    backups = sorted(n for n in os.listdir(folder) if ".tfwsl-backup-" in n)
    check(len(backups) == 2, "two sets left two backups", backups)
    oldest, newest = (os.path.join(folder, b) for b in backups[:1] + backups[-1:])
    config = os.path.join(home, ".config", "tfwsl")
    made = sorted(n for n in os.listdir(config) if n != "profile.yaml")
    check(set(made) <= {"agent.token", "agent.json", "agent.log", "agent.err"} and "agent.token" in made,
          "agent start made its state files in the home folder", made)
    remove = [("process", ""), ("file", agent), ("folder", os.path.dirname(agent)),
              ("file", s.windows_path(newest))] + [("file", os.path.join(config, n)) for n in made]
    leave = [("file", s.windows_path(wslconfig)), ("file", s.windows_path(oldest)),
             ("file", os.path.join(config, "profile.yaml")), ("folder", config)]
    return sorted([("remove", k, p) for k, p in remove] + [("leave", k, p) for k, p in leave]), newest, oldest


def listed(doc):
    return sorted((e["action"], e["kind"], e.get("path", "") if e["kind"] != "process" else "")
                  for e in doc.get("items", []))


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="tfwsl-uninstall-home-")
    env = {"HOME": home}
    try:
        with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
            s.run(["--version"], env=env)  # builds the world
            wslconfig = str(s.work / "user.wslconfig")
            with open(wslconfig, "wb") as f:
                f.write(b"[wsl2]\r\nmemory=4GB\r\n")
            env["TFWSL_WSLCONFIG"] = s.windows_path(wslconfig)
            agent = str(s.distro / "usr/local/lib/tfwsl/tfwsl-agent")
            uninstall = ["uninstall", "--wslconfig", s.windows_path(wslconfig), "--state-dir",
                         os.path.join(home, "no-provision-state")]
            try:
                make_things(s, env, wslconfig)
                os.makedirs(os.path.join(home, ".config", "tfwsl"), exist_ok=True)
                with open(os.path.join(home, ".config", "tfwsl", "profile.yaml"), "w") as f:
                    f.write("extends: tf-2.15-cuda-12.2\n")  # the user's own, beside tfwsl's
                plan, newest, oldest = expected(s, home, wslconfig, agent)
                before = tree(wslconfig, home, os.path.dirname(agent))
                r = s.run(uninstall + ["--dry-run", "--json"], env=env, timeout=300)
                try:
                    doc = json.loads(r.stdout)
                except json.JSONDecodeError:
                    doc = {}
                check(r.returncode == 0 and listed(doc) == plan,
                      "uninstall --dry-run lists exactly what the earlier commands made, and what it leaves",
                      f"exit {r.returncode}\nlisted:   {listed(doc)}\nexpected: {plan}\n{r.stderr[-800:]}")
                after = tree(wslconfig, home, os.path.dirname(agent))
                # The agent keeps writing its own log while it runs; Wine keeps its prefix in HOME.
                changed = sorted(p for p in set(before) | set(after) if before.get(p, -1) != after.get(p, -1)
                                 and ".wine" not in p and not p.endswith("agent.log"))
                check(os.path.exists(agent) and os.path.exists(newest) and not changed,
                      "... and changes nothing", changed[:10])
                r = s.run(uninstall + ["--yes"], env=env, timeout=300)
                gone = [p for action, kind, p in plan if action == "remove" and kind != "process"]
                gone = [p for p in gone if not p.startswith("Z:")] + [newest]
                check(r.returncode == 0 and not any(os.path.lexists(p) for p in gone),
                      "uninstall --yes removes exactly what it listed",
                      f"exit {r.returncode}\nleft: {[p for p in gone if os.path.lexists(p)]}\n{r.stdout[-1500:]}")
                kept = [wslconfig, oldest, os.path.join(home, ".config", "tfwsl", "profile.yaml")]
                check(all(os.path.exists(p) for p in kept), "... and keeps the .wslconfig, its original backup and "
                      "the user's file", [p for p in kept if not os.path.exists(p)])
                status = s.run(["agent", "status"], env=env)
                check(status.returncode != 0, "... and the agent no longer runs", status.stdout[-400:])
            finally:
                s.run(["agent", "stop"], env=env)  # never leave a server running, whatever failed
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
