#!/usr/bin/env python3
"""`tfwsl.exe wslconfig set ... --apply` under Wine, in one stand-in world (tfwsl_wsl_session):
the stand-in plays WSL's VM (tests/wsl_standin/standin_vm_windows.hpp: it reads the .wslconfig at
boot and shows the fake distro's MemTotal/SwapTotal/nproc accordingly).

1. On a 16 GB machine (TFWSL_TEST_HOST_RAM) `set memory=64TB` is refused with the reason, and
   `set memory=12GB swap=2GB processors=2 --apply --yes --json` writes the file, runs
   `wsl --shutdown`, polls `wsl --list --running` until nothing runs (more than one poll: the VM
   takes a moment), starts the distro, and reports MemTotal about 12 GB, 2 GB swap and 2 processors,
   each took-effect, exit 0; the JSON validates against docs/schema/wslconfig.schema.json.
2. A VM that boots without the new values (tfwsl edits a file WSL does not read) is told apart:
   the memory check says it did not take effect, exit 2.
"""
import argparse
import json
import os
import sys

from wsl_session import WslSession

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

GIB = 1 << 30
failures = []


def fail(what):
    failures.append(what)
    print("FAILED:", what)


def check_apply_took_effect(s, env, schemas):
    refused = s.run(["wslconfig", "set", "memory=64TB", "--yes"], env=env)
    if refused.returncode != 2 or "more than this machine's 16.0 GiB" not in " ".join(refused.stderr.split()):
        fail(f"64TB on a 16 GB machine: exit {refused.returncode}, stderr {refused.stderr.strip()!r}")
    log_before = s.standin_log().count("\n")
    r = s.run(["wslconfig", "set", "memory=12GB", "swap=2GB", "processors=2", "--apply", "--yes", "--json"], env=env)
    print(r.stderr[-2000:])
    if r.returncode != 0:
        fail(f"--apply exited {r.returncode}: {r.stderr.strip()}")
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError as e:
        return fail(f"--apply printed no JSON: {e}")
    if schemas is not None:
        problems = ss.problems(schemas, "wslconfig", report)
        if problems:
            fail("--apply JSON does not validate: " + "; ".join(problems[:10]))
    apply = report.get("apply") or {}
    print(json.dumps(apply, indent=1))
    verdicts = {c["key"]: c["verdict"] for c in apply.get("checks", [])}
    if verdicts != {"memory": "took-effect", "processors": "took-effect", "swap": "took-effect"}:
        fail(f"verdicts: {verdicts}")
    mem = (apply.get("observed") or {}).get("mem_total_bytes") or 0
    if not 11 * GIB < mem <= 12 * GIB:
        fail(f"MemTotal reported {mem}, expected about 12 GB")
    if apply.get("running_polls", 0) < 2:
        fail(f"polled `wsl --list --running` {apply.get('running_polls')} time(s): the wait was not exercised")
    calls = s.standin_log().splitlines()[log_before:]
    order = [c for c in calls if "--shutdown" in c or "--running" in c or "/proc/meminfo" in c]
    if not order or "--shutdown" not in order[0] or "/proc/meminfo" not in order[-1] or \
            sum("--running" in c for c in order) < 2:
        fail(f"stand-in calls out of order: {order}")
    if (s.distro / "proc" / "meminfo").read_text().split()[1] != str(mem // 1024):
        fail("the fake distro's MemTotal is not what tfwsl reported")
    print("ok: --apply: shutdown, wait, MemTotal", mem, "took effect")


def check_not_in_effect(s, env, home):
    # The file tfwsl edits is not the one WSL reads (saved in the wrong folder, as in
    # microsoft/WSL#10985): the VM boots with the old values, and the check says so.
    other = home / "elsewhere.wslconfig"
    other.write_bytes(b"[wsl2]\r\nmemory=4GB\r\n")
    r = s.run(["wslconfig", "set", "memory=8GB", "--file", s.windows_path(other), "--apply", "--yes"], env=env)
    print(r.stdout[-2000:], r.stderr[-1000:])
    if r.returncode != 2 or "memory=8GB did not take effect" not in r.stdout:
        fail(f"wrong file: exit {r.returncode}, stdout {r.stdout.strip()!r}")
    else:
        print("ok: a value that did not take effect is named")


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--schemas")
    args = parser.parse_args()
    schemas = None
    if args.schemas and ss.jsonschema is not None:
        schemas = ss.load_schemas(args.schemas)
    with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        home = s.work.parent / (s.work.name + "-home")
        home.mkdir()
        wslconfig = home / ".wslconfig"
        wslconfig.write_bytes(b"# team settings\r\n[wsl2]\r\nmemory=4GB\r\n")
        env = {"TFWSL_WSLCONFIG": s.windows_path(wslconfig), "TFWSL_TEST_HOST_RAM": "16GB",
               "TFWSL_TEST_HOST_PROCESSORS": "8"}
        try:
            check_apply_took_effect(s, env, schemas)
            check_not_in_effect(s, env, home)
        finally:
            for p in home.iterdir():
                p.unlink()
            home.rmdir()
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
