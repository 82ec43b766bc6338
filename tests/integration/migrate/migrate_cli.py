#!/usr/bin/env python3
"""tfwsl migrate through the real binary on real folders.

1. A sample Windows project (a TF 2.10 tensorflow-gpu requirements.txt, a Keras 2 model file, a
   config naming D:\\data\\flowers) and a dataset folder of 2,000 real files on a stand-in drive
   D: (TFWSL_TEST_DRIVE_ROOT): --dry-run --json (native-ok, exit 1) and with --force (exit 0); both
   validate against docs/schema/migrate-plan.schema.json, the dataset's file count and bytes are
   the folder's, the path map and the translation are right, and the text plan says the same.
2. Bad input, each a clear message on stderr, exit 2, the project folder unchanged: a folder that
   does not exist, no requirement file, conflicting pins (ambiguous, with choices), a pyproject.toml
   that is not TOML, a dataset on a drive that is not mounted; and applying (no --dry-run), which
   this build cannot do yet.
3. The route: with a stand-in nvidia-smi (TFWSL_NVIDIA_SMI), a Blackwell GPU plans the container
   route (NVIDIA's image, its size, notes on the pins), an Ada GPU the venv route, and --profile
   ngc-tf-25.02 the container route on any GPU.

Usage: migrate_cli.py --tfwsl BIN --schemas DIR. Exit 0 ok, 1 a failure, 77 jsonschema missing.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

failures = []


def expect(condition, what):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)


def tree_digest(folder):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, folder).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def run(tfwsl, env, *args):
    p = subprocess.run([tfwsl, "migrate", *args], capture_output=True, timeout=120, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def sample_project(tmp):
    project = os.path.join(tmp, "flowers")
    write(os.path.join(project, "requirements.txt"),
          "# Windows GPU (CUDA 11.2)\ntensorflow-gpu==2.10.0\ntensorflow-directml-plugin\npandas>=1.5  # tables\n")
    write(os.path.join(project, "model.py"),
          "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
          "def train(m, g):\n    return m.fit_generator(g)\n")
    write(os.path.join(project, "config.yaml"), "data_dir: \"D:\\\\data\\\\flowers\"\nlabels: 'D:/data/flowers/labels.csv'\n")
    dataset = os.path.join(tmp, "drives", "d", "data", "flowers")
    total = 0
    for i in range(2000):
        body = (b"%05d" % i) * (1 + i % 7)
        write_bytes = os.path.join(dataset, f"class{i % 5}", f"img{i:05d}.jpg")
        os.makedirs(os.path.dirname(write_bytes), exist_ok=True)
        with open(write_bytes, "wb") as f:
            f.write(body)
        total += len(body)
    with open(os.path.join(dataset, "labels.csv"), "wb") as f:
        f.write(b"file,label\n")
    total += len(b"file,label\n")
    os.makedirs(os.path.join(tmp, "drives", "c"))
    return project, 2001, total


def check_plan(schemas, tfwsl, env, project, files, total):
    before = tree_digest(project)
    code, out, err = run(tfwsl, env, project, "--dry-run", "--json")
    plan = json.loads(out)
    expect(code == 1, f"native-ok plan exits 1 (got {code}: {err[:200]})")
    expect(not ss.problems(schemas, "migrate-plan", plan), f"the plan validates: {ss.problems(schemas, 'migrate-plan', plan)[:3]}")
    expect(plan["decision"] == "native-ok" and plan["tensorflow"]["target"] == "2.15", "decision native-ok, --force target 2.15")
    code, out, err = run(tfwsl, env, project, "--dry-run", "--json", "--force")
    plan = json.loads(out)
    expect(code == 0, f"--force plan exits 0 (got {code})")
    expect(not ss.problems(schemas, "migrate-plan", plan), "the forced plan validates")
    ds = plan["datasets"]
    expect(len(ds) == 1 and ds[0]["windows_path"] == "D:\\data\\flowers" and ds[0]["linux_path"] == "~/datasets/flowers",
           f"one dataset D:\\data\\flowers -> ~/datasets/flowers: {ds}")
    expect(ds and ds[0]["files"] == files and ds[0]["bytes"] == total, f"its files and bytes are the folder's ({files}, {total})")
    expect(ds and ds[0]["estimated_seconds"] >= 1, "an estimated import time")
    expect(plan["path_map"]["paths"].get("D:\\data\\flowers\\labels.csv") == "~/datasets/flowers/labels.csv", "the path map maps the file")
    req = plan["requirements"]
    expect({"from": "tensorflow-gpu==2.10.0", "to": "tensorflow[and-cuda]==2.15.*", "file": "requirements.txt", "line": 2} in req["translated"],
           "tensorflow-gpu translated")
    expect(req["dropped"] == ["tensorflow-directml-plugin"] and req["kept"] == ["pandas"], f"dropped/kept: {req['dropped']} {req['kept']}")
    expect("+tensorflow[and-cuda]==2.15.*\n" in req["diff"], "the diff shows the change")
    expect(plan["keras"]["keras2_apis"] and not plan["keras"]["legacy_needed"], "Keras 2 APIs seen, no tf-keras on 2.15")
    code, out, err = run(tfwsl, env, project, "--dry-run", "--force")
    expect(code == 0 and "Decision: native-ok" in out and "D:\\data\\flowers -> ~/datasets/flowers: 2001 files" in out,
           "the text plan says the same")
    expect(tree_digest(project) == before, "dry runs changed nothing in the project")


def bad_inputs(schemas, tfwsl, env, tmp):
    def bad(name, files, args, message, json_error=True):
        project = os.path.join(tmp, name)
        os.makedirs(project, exist_ok=True)
        for rel, text in files.items():
            write(os.path.join(project, rel), text)
        before = tree_digest(project)
        code, out, err = run(tfwsl, env, project, *args)
        expect(code == 2, f"{name}: exit 2 (got {code})")
        said = " ".join((err + " " + out).split())  # the text wraps at 80 columns
        expect(message in said, f"{name}: says {message!r} ({err.strip()[:160]!r})")
        if "--json" in args:
            document = json.loads(out)
            expect(not ss.problems(schemas, "migrate-plan", document), f"{name}: the JSON validates")
            if json_error:
                expect("error" in document, f"{name}: the JSON holds the error")
        expect(tree_digest(project) == before, f"{name}: nothing changed")

    code, out, err = run(tfwsl, env, os.path.join(tmp, "nowhere"), "--dry-run")
    expect(code == 2 and "is not a folder" in err and not os.path.exists(os.path.join(tmp, "nowhere")), "a missing folder: exit 2, said")
    bad("no-requirements", {"train.py": "import tensorflow\n"}, ["--dry-run", "--json"], "no requirement file")
    bad("conflict", {"requirements.txt": "tensorflow>=2.12\n", "environment.yml": "dependencies:\n  - pip:\n    - tensorflow<2.11\n"},
        ["--dry-run"], "together these pins allow no TensorFlow release")
    bad("conflict-json", {"requirements.txt": "tensorflow>=2.12\n", "constraints.txt": "tensorflow<2.11\n"},
        ["--dry-run", "--json"], '"decision": "ambiguous"', json_error=False)
    bad("bad-pyproject", {"pyproject.toml": "[project]\ndependencies = [\n  \"tensorflow\n]\n"}, ["--dry-run", "--json"],
        "pyproject.toml:3:")
    bad("unmounted", {"requirements.txt": "tensorflow==2.15.1\n", "cfg.json": "{\"data\": \"Q:\\\\sets\\\\cats\"}\n"},
        ["--dry-run", "--json"], "drive Q:, which the distro does not mount", json_error=False)
    bad("apply-without-consent", {"requirements.txt": "tensorflow==2.15.1\n"}, [], "nobody can be asked: pass --yes to apply the plan")


def relative_and_dot(schemas, tfwsl, env, project, tmp):
    """PROJECT by its real path: `migrate .` is the folder's own name (not "."), a relative PROJECT
    is copied from its absolute path, and a dataset is copied from its drive mount on Linux."""
    real = os.path.realpath(project)
    for cwd, given in ((project, "."), (os.path.dirname(project), "flowers"), (project, "./")):
        p = subprocess.run([tfwsl, "migrate", given, "--dry-run", "--json", "--force"], capture_output=True, timeout=120, env=env, cwd=cwd)
        plan = json.loads(p.stdout.decode() or "{}")
        expect(p.returncode == 0 and plan.get("project", {}).get("name") == "flowers"
               and plan["project"].get("linux_path") == "~/projects/flowers" and plan["project"].get("source") == real,
               f"migrate {given!r} from {cwd}: the project is 'flowers', copied from {real}: {json.dumps(plan.get('project'))}")
        expect(not ss.problems(schemas, "migrate-plan", plan), f"migrate {given!r}: the JSON validates")
        sources = [d.get("source") for d in plan.get("datasets", [])]
        expect(sources == [os.path.join(tmp, "drives", "d", "data", "flowers")],
               f"migrate {given!r}: the dataset is copied from its drive mount, not from D:\\data\\flowers: {sources}")
    code, out, err = run(tfwsl, env, project, "--dry-run", "--name", "../../escape")
    expect(code == 2 and "--name '../../escape' must be one folder name" in err, f"--name ../../escape: refused, exit 2: {err[:200]}")


def standin_nvidia_smi(tmp, answer):
    """nvidia-smi as the real one answers `--query-gpu=name,compute_cap --format=csv,noheader` (one line a
    GPU, "NAME, MAJOR.MINOR"), anything else refused: what migrate reads natively (TFWSL_NVIDIA_SMI)."""
    path = os.path.join(tmp, "nvidia-smi")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n[ \"$*\" = \"--query-gpu=name,compute_cap --format=csv,noheader\" ] || exit 2\n"
                f"printf '%s\\n' '{answer}'\n")
    os.chmod(path, 0o755)
    return path


def container_route(schemas, tfwsl, env, tmp):
    """A Blackwell GPU plans the container route natively (exit 0, no problem, the image's size); an Ada
    GPU the venv route; --profile ngc-tf-25.02 the container route on any GPU."""
    project = os.path.join(tmp, "keras2")
    write(os.path.join(project, "requirements.txt"), "tensorflow==2.15.1\nnumpy<2\n")
    write(os.path.join(project, "train.py"), "import tensorflow as tf\n")
    for gpu, want in (("NVIDIA GeForce RTX 5090, 12.0", True), ("NVIDIA GeForce RTX 4090, 8.9", False)):
        e = dict(env, TFWSL_NVIDIA_SMI=standin_nvidia_smi(tmp, gpu))
        code, out, err = run(tfwsl, e, project, "--dry-run", "--json")
        plan = json.loads(out or "{}")
        expect(not ss.problems(schemas, "migrate-plan", plan), f"{gpu}: the plan validates")
        route = plan.get("container_route")
        expect(code == 0 and not plan.get("problems") and (route is not None) == want,
               f"{gpu}: exit 0, no problem, {'the container route' if want else 'the venv route'} (got {code}, {route})")
        if want:
            expect(route["profile"] == "ngc-tf-25.02" and route["download_bytes"] == 9000000000
                   and any("Keras 3" in n for n in route["notes"]) and any("2.15.1" in n for n in route["notes"]),
                   f"{gpu}: the image, its size, and notes on the pins and Keras: {route}")
            code, out, err = run(tfwsl, e, project, "--dry-run")
            expect(code == 0 and "Route: container, profile ngc-tf-25.02" in out and "about 8.4 GiB" in out,
                   f"{gpu}: the text plan says the route and the size:\n{out[-800:]}")
    e = dict(env, TFWSL_NVIDIA_SMI=standin_nvidia_smi(tmp, "NVIDIA GeForce RTX 4090, 8.9"))
    code, out, err = run(tfwsl, e, project, "--dry-run", "--json", "--profile", "ngc-tf-25.02")
    route = json.loads(out or "{}").get("container_route") or {}
    expect(code == 0 and route.get("asked") is True, f"--profile ngc-tf-25.02 forces the container route (got {code}, {route})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    parser.add_argument("--schemas", required=True)
    args = parser.parse_args()
    ss.require_jsonschema()
    schemas = ss.load_schemas(args.schemas)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TFWSL_TEST_DRIVE_ROOT=os.path.join(tmp, "drives") + os.sep)
        project, files, total = sample_project(tmp)
        check_plan(schemas, args.tfwsl, env, project, files, total)
        relative_and_dot(schemas, args.tfwsl, env, project, tmp)
        bad_inputs(schemas, args.tfwsl, env, tmp)
        container_route(schemas, args.tfwsl, env, tmp)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
