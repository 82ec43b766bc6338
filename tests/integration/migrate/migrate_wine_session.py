#!/usr/bin/env python3
"""tfwsl.exe migrate --dry-run under Wine, in the stand-in world (tfwsl_wsl_session):

1. a project with a TF 2.15 requirements.txt and no Windows paths: needs-wsl, exit 0, the JSON
   validates against docs/schema/migrate-plan.schema.json;
2. a TF 2.10 tensorflow-gpu project whose config names a dataset folder of 1,500 real files by its
   Windows path (Z:\\..., Wine's drive for the Linux root): Windows itself counts the folder (files
   and bytes as written), and the distro, asked through wsl.exe for its /proc/mounts (the fake
   distro's: C: only), mounts no Z: drive, so the plan names that problem and exits 2 (with --force:
   still 2, the problem stands);
3. nothing in either project changed, and the only command run in the distro is that read.

Exit 0 ok, 1 a failure, 77 jsonschema missing.
"""
import argparse
import hashlib
import json
import os
import sys
import tempfile

from wsl_session import WslSession

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

failures = []


def expect(condition, what):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)


def digest(folder):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                h.update(name.encode() + f.read())
    return h.hexdigest()


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--schemas", required=True)
    args = parser.parse_args()
    ss.require_jsonschema()
    schemas = ss.load_schemas(args.schemas)
    with tempfile.TemporaryDirectory() as tmp, WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        plain = os.path.join(tmp, "plain")
        os.makedirs(plain)
        with open(os.path.join(plain, "requirements.txt"), "w") as f:
            f.write("tensorflow==2.15.1\nnumpy<2\n")
        data = os.path.join(tmp, "data", "flowers")
        total = 0
        for i in range(1500):
            os.makedirs(os.path.join(data, f"c{i % 3}"), exist_ok=True)
            with open(os.path.join(data, f"c{i % 3}", f"{i}.jpg"), "wb") as f:
                f.write(b"x" * (i % 50))
            total += i % 50
        legacy = os.path.join(tmp, "legacy")
        os.makedirs(legacy)
        with open(os.path.join(legacy, "requirements.txt"), "w") as f:
            f.write("tensorflow-gpu==2.10.0\n")
        windows_data = s.windows_path(data)
        with open(os.path.join(legacy, "config.yaml"), "w") as f:
            f.write(f"data_dir: '{windows_data}'\n")
        before = (digest(plain), digest(legacy), digest(data))

        r = s.run(["migrate", s.windows_path(plain), "--dry-run", "--json"])
        plan = json.loads(r.stdout or "{}")
        expect(r.returncode == 0, f"plain project: exit 0 (got {r.returncode}: {r.stderr[-300:]})")
        expect(not ss.problems(schemas, "migrate-plan", plan), f"plain project: the plan validates {ss.problems(schemas, 'migrate-plan', plan)[:3]}")
        expect(plan.get("decision") == "needs-wsl" and plan.get("tensorflow", {}).get("target") == "2.15", "plain project: needs-wsl, 2.15")

        r = s.run(["migrate", s.windows_path(legacy), "--dry-run", "--json", "--force"])
        plan = json.loads(r.stdout or "{}")
        expect(not ss.problems(schemas, "migrate-plan", plan), "legacy project: the plan validates")
        ds = plan.get("datasets", [])
        expect(len(ds) == 1 and ds[0]["files"] == 1500 and ds[0]["bytes"] == total,
               f"legacy project: Windows counted the dataset (1500 files, {total} bytes): {ds}")
        expect(ds and ds[0]["windows_path"].lower() == windows_data.lower(), "legacy project: the dataset is the configured path")
        problems = plan.get("problems", [])
        expect(r.returncode == 2 and any("drive Z:" in p for p in problems),
               f"legacy project: the distro does not mount Z:, exit 2 (got {r.returncode}, {problems})")
        asked = [line for line in s.standin_log().splitlines() if "--exec" in line]
        expect(any("/proc/mounts" in line for line in asked), f"wsl.exe was asked for the distro's mounts: {asked[-3:]}")
        expect(all("/proc/mounts" in line for line in asked), f"nothing else ran in the distro: {asked}")
        expect((digest(plain), digest(legacy), digest(data)) == before, "nothing changed in the projects or the data")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
