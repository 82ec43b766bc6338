#!/usr/bin/env python3
"""tfwsl.exe migrate --dry-run under Wine, in the stand-in world (tfwsl_wsl_session):

1. a project with a TF 2.15 requirements.txt and no Windows paths: needs-wsl, exit 0, the JSON
   validates against docs/schema/migrate-plan.schema.json;
2. a TF 2.10 tensorflow-gpu project whose config names a dataset folder of 1,500 real files by its
   Windows path (Z:\\..., Wine's drive for the Linux root): Windows itself counts the folder (files
   and bytes as written), and the distro, asked through wsl.exe for its /proc/mounts (the fake
   distro's: C: only), mounts no Z: drive, so the plan names that problem and exits 2 (with --force:
   still 2, the problem stands);
3. nothing in either project changed, and the only command run in the distro is that read;
4. the GPU, read through nvidia-smi.exe's own `--query-gpu=name,compute_cap` query (the stand-in
   answers as the real one does): the healthy world's RTX 3080 (8.6) lets the plain project go
   ahead; an RTX 5090 (12.0, Blackwell) plans the container route instead (NVIDIA's image by
   digest, its size, why; exit 0, no problem), text and JSON, and an RTX 4090 (8.9) the venv route; an old driver's nvidia-smi that rejects the field leaves the GPU not checked
   and the plan goes on (exit 0).

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


def answer_compute_cap(s, out, code):
    """The world's nvidia-smi.exe answers the compute_cap query with `out` and exit `code`."""
    (s.work / "scenario" / "nvidia-smi-cc.txt").write_text(out)
    table = s.work / "scenario" / "scenario.txt"
    lines = [line for line in table.read_text().splitlines() if "compute_cap" not in line]
    lines.append(f"nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader = nvidia-smi-cc.txt {code}")
    table.write_text("\n".join(lines) + "\n")


def blackwell_dry_runs(s, schemas, plain):
    answer_compute_cap(s, "NVIDIA GeForce RTX 5090, 12.0\n", 0)  # a real RTX 5090's answer
    r = s.run(["migrate", s.windows_path(plain), "--dry-run", "--json"])
    plan = json.loads(r.stdout or "{}")
    gpu = plan.get("gpu", {})
    route = plan.get("container_route") or {}
    expect(not ss.problems(schemas, "migrate-plan", plan), f"Blackwell: the plan validates {ss.problems(schemas, 'migrate-plan', plan)[:3]}")
    expect(r.returncode == 0 and gpu.get("stock_wheels") == "refused" and not plan.get("problems"),
           f"Blackwell: the dry run plans instead of refusing, exit 0, no problem (got {r.returncode}: {plan.get('problems')})")
    expect(route.get("profile") == "ngc-tf-25.02" and "@sha256:" in route.get("pinned", "")
           and route.get("download_bytes") == 9000000000 and "RTX 5090 (12.0)" in route.get("why", ""),
           f"Blackwell: the container route, its image by digest, its size and why: {route}")
    r = s.run(["migrate", s.windows_path(plain), "--dry-run"])
    expect(r.returncode == 0 and "GPU: NVIDIA GeForce RTX 5090, compute capability 12.0" in r.stdout
           and "Route: container, profile ngc-tf-25.02" in r.stdout and "downloads about 8.4 GiB" in r.stdout
           and "Problem:" not in r.stdout,
           f"Blackwell: the text plan says the route and the image's size, exit 0 (got {r.returncode}):\n{r.stdout[-900:]}")
    answer_compute_cap(s, "NVIDIA GeForce RTX 4090, 8.9\n", 0)  # Ada: the stock wheels run there
    r = s.run(["migrate", s.windows_path(plain), "--dry-run", "--json"])
    plan = json.loads(r.stdout or "{}")
    expect(r.returncode == 0 and plan.get("container_route") is None and plan.get("gpu", {}).get("stock_wheels") == "ok",
           f"Ada: the venv route as before (got {r.returncode}: {plan.get('container_route')})")
    asked = [line for line in s.standin_log().splitlines() if line.startswith("nvidia-smi.exe")]
    expect(asked and all(line.endswith("--query-gpu=name,compute_cap --format=csv,noheader") for line in asked),
           f"nvidia-smi.exe was asked only the compute_cap query: {asked[-3:]}")
    answer_compute_cap(s, 'Field "compute_cap" is not a valid field to query.\n\n', 2)  # a 470 driver's answer
    r = s.run(["migrate", s.windows_path(plain), "--dry-run", "--json"])
    gpu = json.loads(r.stdout or "{}").get("gpu", {})
    expect(r.returncode == 0 and gpu.get("checked") is False and "compute_cap" in (gpu.get("not_checked") or ""),
           f"an old driver: the GPU not checked, the plan goes on, exit 0 (got {r.returncode}: {gpu})")


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
        gpu = plan.get("gpu", {})
        expect(gpu.get("checked") and gpu.get("devices") == [{"name": "NVIDIA GeForce RTX 3080", "compute_capability": "8.6"}]
               and gpu.get("stock_wheels") == "ok", f"plain project: the RTX 3080 read through nvidia-smi.exe, 8.6, ok: {gpu}")

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
        blackwell_dry_runs(s, schemas, plain)
        expect((digest(plain), digest(legacy), digest(data)) == before, "nothing changed in the projects or the data")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
