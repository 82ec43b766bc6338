#!/usr/bin/env python3
"""The agent's dataset API over a real loopback socket (`tfwsl-agent serve --root ROOT`): a --move
request whose source lies inside its target is refused (400) with the tree untouched, and a symlink
that a first import planted in a target (copied as a symlink, correctly) is never followed by a
second import into that target: nothing is written outside the target, or outside every --root.

  api_safety.py --agent build/linux/tfwsl-agent
"""

import argparse
import os
import shutil
import sys

from agent_server import run_with_agent
from dataset_test_support import check, snapshot


def source_inside_target(agent, root):
    # The request: {"source": ROOT+"/srcC", "target": ROOT} with --move semantics.
    src = os.path.join(root, "srcC")
    os.makedirs(os.path.join(src, "srcC"))
    with open(os.path.join(src, "zz.txt"), "wb") as f:
        f.write(b"ORIGINAL precious\n")
    with open(os.path.join(src, "srcC", "zz.txt"), "wb") as f:
        f.write(os.urandom(1 << 20))
    for i in range(50):
        with open(os.path.join(src, f"a{i:03d}"), "wb") as f:
            f.write(b"%d\n" % i)
    before = snapshot(root)
    for body in ({"source": src, "target": root, "mode": "move"},
                 {"source": src, "target": root},
                 {"source": os.path.join(src, "srcC"), "target": root, "mode": "move"},
                 {"source": src, "target": os.path.join(src, "srcC", "..", ".."), "mode": "move"}):
        status, answer = agent.request("POST", "/v1/datasets", body)
        check(status == 400, f"{body}: expected 400, got {status} {answer}")
        message = answer["error"]["message"]
        check(answer["error"]["code"] == "invalid_input" and "inside" in message, f"{body}: unclear refusal: {answer}")
    check(snapshot(root) == before, "a refused request touched the tree")
    check(not os.path.exists(os.path.join(root, ".tfwsl-import")), "a refused request created the state folder")
    print(f"ok: source inside target refused over HTTP (400): {message[:140]}")
    shutil.rmtree(src)


def planted_symlink(agent, root, outside):
    plant, payload, target = (os.path.join(root, n) for n in ("plant", "payload", "target"))
    os.makedirs(plant)
    os.makedirs(os.path.join(payload, "evil", "deeper"))
    os.symlink(outside, os.path.join(plant, "evil"))  # points outside every --root
    for rel, data in [("evil/pwn.txt", b"X\n"), ("evil/deeper/pwn2.txt", b"Y\n"), ("ok.txt", b"fine\n")]:
        with open(os.path.join(payload, rel), "wb") as f:
            f.write(data)
    status, job = agent.run_job({"source": plant, "target": target})
    check(status == 202 and job["state"] == "succeeded", f"the planting import failed: {status} {job}")
    check(os.path.islink(os.path.join(target, "evil")), "the symlink was not copied as a symlink")

    status, job = agent.run_job({"source": payload, "target": target, "mode": "move"})
    check(status == 202, f"second import: {status} {job}")
    check(os.listdir(outside) == [], f"the second import wrote outside the roots: {os.listdir(outside)}")
    check(job["state"] == "succeeded", f"expected per-file problems, not a stop: {job}")
    problems = {p["path"]: p for p in job["result"]["problems"]}
    check(set(problems) == {"evil/pwn.txt", "evil/deeper/pwn2.txt"}, f"unexpected problems: {problems}")
    for p in problems.values():
        check(p["kind"] == "target-symlink", f"not reported as a target symlink: {p}")
    check(os.path.exists(os.path.join(payload, "evil", "pwn.txt")), "--move deleted a file it did not import")
    with open(os.path.join(target, "ok.txt"), "rb") as f:
        check(f.read() == b"fine\n", "the rest of the payload was not imported")
    print("ok: a symlink planted by a first job is reported, never followed, by a second one")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    args = parser.parse_args()

    def cases(agent, work, root):
        outside = os.path.join(work, "outside")
        os.makedirs(outside)
        source_inside_target(agent, root)
        planted_symlink(agent, root, outside)

    return run_with_agent(args.agent, "tfwsl-api-safety-", cases)

if __name__ == "__main__":
    sys.exit(main())
