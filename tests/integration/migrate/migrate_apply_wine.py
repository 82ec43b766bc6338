#!/usr/bin/env python3
"""`tfwsl.exe migrate` end to end under Wine: a sample Windows project moves through the wsl.exe
stand-in and the relay into the fake distro, by the real tfwsl-agent (tests/wsl_standin/README.md).

The project, written here on a Wine drive D: (a dosdevices link; the fake distro mounts it at
/mnt/d, bound there in a private mount namespace, so the test needs root, else skipped):
- requirements.txt for TF 2.10 on Windows: tensorflow-gpu==2.10.0, numpy, a stand-in `pillow` the
  venv lacks, pywin32 for win32 only, tensorflow-directml-plugin;
- model.py, a Keras 2 model (tf.keras, fit_generator); train.py, the main module, importable;
- config.yaml naming the dataset by its Windows path, D:\\data\\flowers: 3,006 real files;
- a link MIGRATION.md.tfwsl-new -> ../../.bashrc (the distro user's ~/.bashrc must stay as it is);
- .venv, __pycache__ and .git folders, which are not copied.
The distro is provisioned beforehand (tests/wsl_standin/provisioned_distro.py: the packages in its
dpkg status, a real venv with the stand-in TensorFlow 2.15 wheel), HOME of its user is in the fake
distro, and pip installs only from a local wheel folder (PIP_NO_INDEX, PIP_FIND_LINKS).

It shows:
1. without --force, a TF 2.10 project is native-ok: exit 1, nothing changed;
2. `migrate D:\\work\\flowers --force --yes --json`: exit 0, the JSON validates; provisioning
   checked as root and found done; requirements.wsl.txt written beside requirements.txt (which is
   unchanged) with tensorflow[and-cuda]==2.15.* and directml dropped; the project copied without
   .venv, __pycache__ and .git; the dataset imported and equal to its source byte for byte; pip ran
   in the venv (pillow installed); the GPU check and `import train` passed; tfwsl-paths.json maps
   D:\\data\\flowers to the imported folder; MIGRATION.md and tfwsl.yaml written;
3. the same command again: exit 0, every step kept (each re-checked), and nothing changed: the
   distro's files and the Windows project are identical (bytes and mtimes), and no pip or copy ran;
3b. the user edits train.py in WSL and requirements.txt on Windows: a re-run replaces
   requirements.wsl.txt (no "Windows error 32", no temporary file left), keeps the WSL edit and
   says so; then, model.py deleted in WSL, the next run's re-check restores it;
4. a run killed (SIGKILL) in the middle of a dataset import resumes: the same command finishes with
   only the import (and what follows) run again, the data equal to its source.
Exit 0 ok, 1 a failure, 77 skipped.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "schema"))
sys.path.insert(0, os.path.join(HERE, "..", "push"))
sys.path.insert(0, os.path.join(HERE, "..", "provision"))
import schema_support as ss  # noqa: E402
from provisioned_distro import make_provisioned  # noqa: E402
from push_tree import compare_trees, make_tree, partial_copy_problems  # noqa: E402
from standin_packages import _wheel  # noqa: E402
import wine_drives  # noqa: E402
from wine_drives import mount_drive_in_distro, run_on_wine_drive  # noqa: E402
from wsl_session import WslSession  # noqa: E402

failures = []
BASHRC = "# the distro user's own ~/.bashrc\n"

REQUIREMENTS = """# flowers: trained on Windows with TF 2.10 (the last native GPU release)
tensorflow-gpu==2.10.0
numpy>=1.23,<2
pillow==10.1.0
pywin32==306; sys_platform == "win32"
tensorflow-directml-plugin
"""

MODEL = """import tensorflow as tf


def build_model(classes):
    model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(classes)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


def train(model, batches, steps):
    return model.fit_generator(batches, steps_per_epoch=steps)  # Keras 2 only
"""

TRAIN = """import os

import tensorflow as tf

from model import build_model, train

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config.yaml")


def main():
    print(tf.config.list_physical_devices("GPU"))
    train(build_model(5), None, 10)


if __name__ == "__main__":
    main()
"""


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def snapshot(*folders):
    """{path: (sha256, mtime_ns, mode)} of every file and folder below the folders."""
    out = {}
    for top in folders:
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                path = os.path.join(root, name)
                st = os.lstat(path)
                digest = ""
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()
                out[path] = (digest, st.st_mtime_ns, st.st_mode)
    return out


def write_project(drive):
    project = os.path.join(drive, "work", "flowers")
    for folder in (".venv/Lib/site-packages", "__pycache__", ".git/objects/ab", "notebooks"):
        os.makedirs(os.path.join(project, folder), exist_ok=True)
    files = {"requirements.txt": REQUIREMENTS, "model.py": MODEL, "train.py": TRAIN,
             "config.yaml": "data_dir: 'D:\\data\\flowers'\nepochs: 10\n",
             ".venv/pyvenv.cfg": "home = C:\\Python310\n", ".venv/Lib/site-packages/x.py": "x = 1\n",
             "__pycache__/model.cpython-310.pyc": "\0pyc", ".git/HEAD": "ref: refs/heads/main\n",
             ".git/objects/ab/cdef": "blob", "notebooks/explore.py": "print('look')\n"}
    for path, text in files.items():
        with open(os.path.join(project, path), "w", newline="") as f:
            f.write(text)
    # A project may ship links: the old write of MIGRATION.md went through "MIGRATION.md.tfwsl-new"
    # (cat > NAME.tfwsl-new && mv), so this one overwrote the distro user's ~/.bashrc.
    os.symlink("../../.bashrc", os.path.join(project, "MIGRATION.md.tfwsl-new"))
    data = os.path.join(drive, "data", "flowers")
    os.makedirs(data)
    make_tree(data, files=3000, big=6)
    return project, data


def session_env(s, venv_home, wheels):
    return {"HOME": venv_home, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": wheels, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def first_run(s, env, project, data, home, schemas, world):
    before = snapshot(project, data)
    r = s.run(["migrate", "D:\\work\\flowers", "--dry-run"], env=env)
    check(r.returncode == 1 and "native-ok" in (r.stdout + r.stderr), "without --force a TF 2.10 project is native-ok: exit 1",
          f"exit {r.returncode}: {r.stdout[-600:]} {r.stderr[-600:]}")
    r = s.run(["migrate", "D:\\work\\flowers", "--force", "--yes", "--json"], env=env, timeout=900)
    doc = json.loads(r.stdout or "{}") if r.stdout.strip().startswith("{") else {}
    check(r.returncode == 0, "migrate --force --yes: exit 0", f"exit {r.returncode}\n{r.stdout[-2500:]}\n{r.stderr[-2500:]}")
    check(doc and not ss.problems(schemas, "migrate-plan", doc), "its JSON validates against the schema",
          "; ".join(ss.problems(schemas, "migrate-plan", doc)[:5]) if doc else r.stdout[:400])
    steps = [(x["step"], x["ran"]) for x in doc.get("applied", {}).get("steps", [])]
    check(steps == [("provision", True), ("write-requirements", True), ("copy-project", True), (f"import:~/datasets/flowers", True),
                    ("install", True), ("check", True), ("write-files", True)], "every step ran, in order", json.dumps(steps))
    details = {x["step"]: x["detail"] for x in doc.get("applied", {}).get("steps", [])}
    for step, detail in details.items():
        print(f"  {step}: {detail}")
    check("already provisioned" in details.get("provision", ""), "provisioning was checked and found done", details.get("provision", ""))
    check(any("provision" in l and "--check" in l and "-u root" in l for l in s.standin_log().splitlines()),
          "... by the agent's provision --check, as root")
    translated = open(os.path.join(project, "requirements.wsl.txt")).read()
    check("tensorflow[and-cuda]==2.15.*" in translated and "# dropped by tfwsl migrate: tensorflow-directml-plugin" in translated
          and 'pywin32==306; sys_platform == "win32"' in translated and "pillow==10.1.0" in translated,
          "requirements.wsl.txt beside requirements.txt: TF translated, directml dropped, the rest kept", translated)
    check(open(os.path.join(project, "requirements.txt")).read() == REQUIREMENTS, "requirements.txt is unchanged")
    copied = os.path.join(home, "projects", "flowers")
    check(all(os.path.isfile(os.path.join(copied, f)) for f in ("train.py", "model.py", "config.yaml", "requirements.wsl.txt",
                                                               "notebooks/explore.py")), "the project is copied")
    check(not any(os.path.exists(os.path.join(copied, f)) for f in (".venv", "__pycache__", ".git")),
          "... without .venv, __pycache__ and .git", str(sorted(os.listdir(copied))) if os.path.isdir(copied) else "no copy")
    imported = os.path.join(home, "datasets", "flowers")
    problems = compare_trees(data, imported)
    check(not problems, "the dataset is imported, equal to its source byte for byte", "; ".join(problems))
    venv = world["venv_host"]
    check(any(n.startswith("pillow-10.1.0.dist-info") for n in os.listdir(venv_site(venv))), "pip installed pillow into the venv")
    check("import train ok" in details.get("check", "") and "GPU" in details.get("check", ""), "the GPU check and `import train` passed",
          details.get("check", ""))
    paths = json.load(open(os.path.join(copied, "tfwsl-paths.json")))
    check(paths == {"D:\\data\\flowers": imported}, "tfwsl-paths.json maps D:\\data\\flowers to the imported folder", json.dumps(paths))
    report = open(os.path.join(copied, "MIGRATION.md")).read()
    check("`tensorflow-gpu==2.10.0` -> `tensorflow[and-cuda]==2.15.*`" in report and f"--cd {copied}" in report
          and f"code --remote wsl+Ubuntu-22.04 {copied}" in report, "MIGRATION.md says what changed and how to run it", report[-900:])
    check(open(os.path.join(home, ".bashrc")).read() == BASHRC and os.path.islink(os.path.join(copied, "MIGRATION.md.tfwsl-new")),
          "a link the project ships (MIGRATION.md.tfwsl-new -> ../../.bashrc) is copied as a link and written through by nothing",
          open(os.path.join(home, ".bashrc")).read()[:200])
    profile = open(os.path.join(copied, "tfwsl.yaml")).read()
    check("extends: builtin:tf-2.15-cuda-12.2" in profile and "D:\\data\\flowers" in profile, "tfwsl.yaml is the project's profile", profile)
    after = snapshot(project, data)
    record_file = os.path.join(project, ".tfwsl", "wsl-copy.json")
    changed = [p for p in after if before.get(p) != after[p] and not p.endswith("requirements.wsl.txt")
               and p not in (record_file, os.path.dirname(record_file))]
    check(not changed and set(after) - set(before) == {os.path.join(project, "requirements.wsl.txt"),
                                                      os.path.dirname(record_file), record_file},
          "on Windows only requirements.wsl.txt and the run record (.tfwsl\\wsl-copy.json) were added", str(changed[:5]))
    record = json.load(open(record_file)) if os.path.isfile(record_file) else {}
    check(record.get("distro") == "Ubuntu-22.04" and record.get("linux_path") == copied
          and record.get("venv", "").endswith("/.venvs/tf-2.15") and record.get("gpu", {}).get("ok") is True,
          "the run record says where the project runs: the distro, the copy, the venv, the GPU verdict", json.dumps(record))
    # The day after: tfwsl run finds the copy from the Windows folder migrate wrote the record in.
    r = s.run(["run", "--project", "D:\\work\\flowers", "-q", "--", "python", "-c",
               "import os; print(os.getcwd()); print(os.environ['VIRTUAL_ENV'])"], env=env)
    check(r.returncode == 0 and r.stdout.split() == [copied, record.get("venv")],
          "tfwsl run from the Windows project runs in its WSL copy with its venv", f"{r.returncode} {r.stdout!r} {r.stderr[-400:]!r}")


def venv_site(venv):
    lib = os.path.join(venv, "lib")
    return os.path.join(lib, next(n for n in os.listdir(lib) if n.startswith("python")), "site-packages")


def second_run(s, env, project, data, home, world):
    watched = (project, data, os.path.join(home, "projects"), os.path.join(home, "datasets"), world["venv_host"])
    before = snapshot(*watched)
    relayed = len(s.relayed())
    r = s.run(["migrate", "D:\\work\\flowers", "--force", "--yes"], env=env, timeout=600)
    check(r.returncode == 0, "the second run: exit 0", f"exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    print("  " + r.stdout[r.stdout.find("kept "):].replace("\n", "\n  ").rstrip())
    kept = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("kept ")]
    check(len(kept) == 7 and not any(l.startswith("done ") for l in r.stdout.splitlines()), "... keeps every step", r.stdout[-1500:])
    printed = re.sub(r" `\n +", " ", r.stdout)  # a command continued at the terminal's width, joined back
    check(f"wsl -d Ubuntu-22.04 --cd {home}/projects/flowers --exec bash -lc '~/.venvs/tf-2.15/bin/python -m train'" in printed,
          "... and says how to run the project from Windows, with an absolute --cd", r.stdout[-400:])
    check(snapshot(*watched) == before, "... and changes nothing: the distro's files, the venv and the Windows project are identical")
    new = s.relayed()[relayed:]
    # The agent's status is read before (is an older one installed or serving?): a read, not a start.
    ran = [l for l in new if ("venv install" in l and "--check" not in l) or " -m pip" in l
           or ("serve" in l and "grep -q" not in l)]
    check(not ran, "... no pip and no copy ran (the steps were re-checked: venv install --check, the manifest, the GPU check)",
          "\n".join(ran[-5:]))


def rerun_after_edits(s, env, project, home):
    """The user works in WSL and changes a requirement on Windows; migrate runs again (as it says to)."""
    copied = os.path.join(home, "projects", "flowers")
    edited = TRAIN + "\n# tuned in WSL\n"
    with open(os.path.join(copied, "train.py"), "w") as f:
        f.write(edited)
    with open(os.path.join(project, "requirements.txt"), "a", newline="") as f:
        f.write("# numpy stays below 2 (the model's pickles)\n")
    r = s.run(["migrate", "D:\\work\\flowers", "--force", "--yes"], env=env, timeout=600)
    check(r.returncode == 0, "a re-run after editing requirements.txt: exit 0 (requirements.wsl.txt replaced, not 'Windows error 32')",
          f"exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    translated = open(os.path.join(project, "requirements.wsl.txt")).read()
    check("# numpy stays below 2" in translated and translated.startswith("# Written by tfwsl migrate from requirements.txt"),
          "... requirements.wsl.txt is the new translation, with migrate's mark", translated[:300])
    leftovers = [n for n in os.listdir(project) if n.endswith(".tmp") or ".tfwsl-tmp" in n]
    check(not leftovers, "... and no temporary file is left beside it", str(leftovers))
    check(open(os.path.join(copied, "train.py")).read() == edited, "... the WSL edit of train.py survives")
    check("kept (changed in WSL): train.py" in r.stdout, "... and the run says it kept it", r.stdout[-1500:])
    os.remove(os.path.join(copied, "model.py"))
    r = s.run(["migrate", "D:\\work\\flowers", "--force", "--yes"], env=env, timeout=600)
    check(r.returncode == 0 and os.path.isfile(os.path.join(copied, "model.py")),
          "a deleted file of the WSL copy is found by the re-check of a kept step and restored",
          f"exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    check("redone (missing in the WSL copy: model.py)" in r.stdout, "... and the run says so", r.stdout[-1500:])
    check(open(os.path.join(copied, "train.py")).read() == edited, "... the WSL edit still there")


def killed_import(s, env, project, data, home):
    """A run into other folders, killed once the dataset import has committed part of the data."""
    argv = ["migrate", "D:\\work\\flowers", "--force", "--yes", "--name", "flowers-b", "--data-to", "~/datasets-b", "--jobs", "1"]
    target = os.path.join(home, "datasets-b", "flowers")
    manifest = os.path.join(target, ".tfwsl-import", "manifest")
    p = s.start(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and p.poll() is None:
        if os.path.exists(manifest) and os.path.getsize(manifest) > 200:
            break
        time.sleep(0.01)
    if p.poll() is not None:
        check(False, "the run was killed in the middle of the import", f"it ended first: exit {p.returncode} {p.stderr.read()[-600:]!r}")
        return
    os.killpg(p.pid, signal.SIGKILL)
    p.wait(timeout=60)
    problems, count = partial_copy_problems(data, target)
    check(not problems and 0 < count < 3006, f"killed mid-import: {count} whole files in the target", "; ".join(problems))
    time.sleep(1)
    r = s.run(argv, env=env, timeout=900)
    ran = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("done ")]
    kept = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("kept ")]
    check(r.returncode == 0 and kept == ["provision", "write-requirements", "copy-project"] and ran[0] == "import:~/datasets-b/flowers",
          "the same command resumes after the last finished step", f"exit {r.returncode} kept {kept} ran {ran}\n{r.stderr[-1200:]}")
    check(not compare_trees(data, target), "... and the data is complete, equal to its source")


def build_world(args, work):
    drive = work  # D:\ to Windows, /mnt/d to the distro
    project, data = write_project(drive)
    scenario = os.path.join(work, "scenario")
    shutil.copytree(os.path.join(args.scenarios, "healthy"), scenario)
    # WSL decides the distro's default user (`--exec id -un`), not its files: the stand-in's answer.
    with open(os.path.join(scenario, "scenario.txt"), "a") as f:
        f.write("install = fake\n")
    with open(os.path.join(scenario, "default-user.txt"), "w") as f:
        f.write("tfuser\n")
    return drive, project, data, scenario


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--schemas", required=True)
    wine_drives.add_arguments(parser)
    args = parser.parse_args()
    ss.require_jsonschema()
    if not args.inside:
        run_on_wine_drive(tempfile.mkdtemp(prefix="tfwsl-migrate-wine-"), "d")
    run_on_wine_drive(args.work, inside_letter=args.drive)  # inside: binds the folder at /mnt/d
    schemas = ss.load_schemas(args.schemas)
    drive, project, data, scenario = build_world(args, args.work)
    with WslSession.from_args(args, scenario, os.path.join(args.work, "session")) as s:
        first = s.run(["--version"])  # builds the world
        check(first.returncode == 0, "the world is built", first.stderr[-400:])
        mount_drive_in_distro(s, args.drive)
        world = make_provisioned(str(s.distro), str(s.distro / "usr/local/lib/tfwsl/tfwsl-agent"))
        _wheel(world["wheels"], "pillow", "10.1.0", {"PIL/__init__.py": "__version__ = '10.1.0'\n"})
        home = os.path.join(str(s.distro), "home", world["user"])
        with open(os.path.join(home, ".bashrc"), "w") as f:
            f.write(BASHRC)
        env = session_env(s, home, world["wheels"])
        first_run(s, env, project, data, home, schemas, world)
        second_run(s, env, project, data, home, world)
        rerun_after_edits(s, env, project, home)
        killed_import(s, env, project, data, home)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
