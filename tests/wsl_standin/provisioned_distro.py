"""A fake distro made to look provisioned, from the files `tfwsl-agent provision --check` reads.

make_provisioned(distro_root, agent) turns a copy of tests/wsl_standin/fake_distro (made by the
test) into one where

    TFWSL_PROBE_ROOT=<distro_root> tfwsl-agent provision --check --platform wsl --user tfuser

reports every step ok. It asks the agent itself for the plan (`provision --dry-run --json` under
the same probe root) and writes what each check reads (linux/provision/distro_step_checks.cpp):
the user in etc/passwd (and `[user] default=` in etc/wsl.conf), dpkg's status with every apt
package of the plan installed, a real venv holding the plan's TensorFlow requirements (stand-in
wheels, tests/integration/provision/standin_packages.py) and the environment file. Then it runs that
check itself and raises unless every step is ok, so a caller starts from a verified distro.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "integration", "provision"))
import standin_packages  # noqa: E402

PLATFORM = "wsl"  # the fake distro is a WSL 2 Ubuntu 22.04


class NotProvisioned(RuntimeError):
    pass


def at(distro_root, distro_path):
    """The build machine's path of a path inside the distro ("/home/tfuser" -> <root>/home/tfuser)."""
    return os.path.join(distro_root, distro_path.lstrip("/"))


def _agent(agent, distro_root, args, env=None):
    run_env = dict(os.environ if env is None else env)
    run_env["TFWSL_PROBE_ROOT"] = distro_root
    return subprocess.run([agent, "provision", *args], env=run_env, capture_output=True, text=True, timeout=300)


def _write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def _write_user(distro_root, user, uid, home):
    passwd = at(distro_root, "/etc/passwd")
    lines = []
    if os.path.exists(passwd):
        with open(passwd) as f:
            lines = [line for line in f.read().splitlines() if line and not line.startswith(user + ":")]
    if not any(line.startswith("root:") for line in lines):
        lines.insert(0, "root:x:0:0:root:/root:/bin/bash")
    lines.append(f"{user}:x:{uid}:{uid}:{user}:{home}:/bin/bash")
    _write(passwd, "\n".join(lines) + "\n")
    _write(at(distro_root, "/etc/group"), f"root:x:0:\n{user}:x:{uid}:\n")
    _write(at(distro_root, "/etc/wsl.conf"), f"[user]\ndefault={user}\n")
    os.makedirs(at(distro_root, home), exist_ok=True)


def _plan(distro_root, agent, user):
    p = _agent(agent, distro_root, ["--dry-run", "--json", "--platform", PLATFORM, "--user", user])
    if p.returncode != 0:
        raise NotProvisioned(f"provision --dry-run failed ({p.returncode}): {p.stderr[-800:]}")
    plan = json.loads(p.stdout)["plan"]
    if not plan["venv"].startswith("/"):
        raise NotProvisioned(f"the plan's venv is {plan['venv']!r}: the agent did not find {user} in the probe root's etc/passwd")
    return plan


def _apt_packages(plan):
    # Every step run as root lists apt packages; tensorflow.install (as the user) lists pip requirements.
    return [p for s in plan["distro_steps"] if s["runs_as"] == "root" for p in s["packages"]]


def _write_dpkg_status(distro_root, packages):
    status = at(distro_root, "/var/lib/dpkg/status")
    text = open(status).read() if os.path.exists(status) else ""
    present = {line[len("Package:"):].strip() for line in text.splitlines() if line.startswith("Package:")}
    for name in packages:
        if name in present:
            continue
        if text and not text.endswith("\n\n"):
            text += "\n"
        text += (f"Package: {name}\nStatus: install ok installed\nPriority: optional\nArchitecture: amd64\n"
                 f"Version: 0-tfwsl-standin\nDescription: stand-in entry for the tfwsl probe-root tests\n\n")
        present.add(name)
    _write(status, text)


def _quiet_pip_env(home):
    env = dict(os.environ)
    # Nothing outside the distro: no pip cache or config of this machine's user, no version check.
    env.update({"HOME": home, "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_CONFIG_FILE": os.devnull,
                "PYTHONNOUSERSITE": "1"})
    env.pop("PIP_INDEX_URL", None)
    return env


def _set_venv_version(venv_host, python_version):
    # The distro's Python (the profile's python3.10) cannot exist on the build machine: the venv is
    # made by this machine's python3, and pyvenv.cfg, which the agent's python.venv check reads, is
    # made to say the distro's version. CPython itself ignores that line (it reads `home`).
    cfg = os.path.join(venv_host, "pyvenv.cfg")
    lines = []
    for line in open(cfg).read().splitlines():
        key = line.split("=", 1)[0].strip()
        if key in ("version", "version_info"):
            line = f"{key} = {python_version}"
        lines.append(line)
    _write(cfg, "\n".join(lines) + "\n")


def _make_venv(plan, venv_host, home_host, wheels, python_version):
    env = _quiet_pip_env(home_host)
    shutil.rmtree(venv_host, ignore_errors=True)
    # This machine's python3 (the one running this helper), pip included (Debian: python3-venv).
    subprocess.run([sys.executable, "-m", "venv", venv_host], check=True, capture_output=True, env=env, timeout=300)
    requirements = next(s["packages"] for s in plan["distro_steps"] if s["id"] == "tensorflow.install")
    subprocess.run([os.path.join(venv_host, "bin", "python"), "-m", "pip", "install", "-q", "--no-index", "--find-links", wheels,
                    *requirements], check=True, capture_output=True, env=env, timeout=300)
    _set_venv_version(venv_host, python_version)


def env_file_text(plan):
    """The bytes the agent's env.file check expects (env_file_text in linux/provision/distro_step_checks.cpp).

    The plan JSON's env is an object, so its order is the JSON's: right for one variable (the
    built-in profiles), and the final check below says so if a profile's order differs."""
    out = f"# Written by tfwsl provision (profile {plan['profile']}); source it before running TensorFlow.\n"
    for name, value in plan["env"].items():
        out += "export {}='{}'\n".format(name, value.replace("'", "'\\''"))
    fixups = plan["env_file"] + ".fixups"
    out += f"if [ -r '{fixups}' ]; then . '{fixups}'; fi\n"
    return out


def check_recap(distro_root, agent, user, env=None):
    """`provision --check --json` under the probe root: (exit status, the JSON document or None, stderr)."""
    p = _agent(agent, distro_root, ["--check", "--json", "--platform", PLATFORM, "--user", user], env)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p.returncode, doc, p.stderr


def make_provisioned(distro_root, agent, user="tfuser", uid=1000, python_version="3.10.12", wheels=None):
    """Makes distro_root (a copy of fake_distro) provisioned for the default profile; see the module's doc.

    wheels: a folder of wheels for the plan's requirements; None builds the stand-ins
    (standin_packages.build_wheels) into <distro_root>/srv/wheels. The stand-in TensorFlow answers
    the agent's probe as a CUDA build seeing one GPU: it needs no library of the distro, and only the
    chroot test's flag files (absolute /etc/standin-tf-needs-*, absent on a build machine) change that.
    Returns {"user", "uid", "home", "venv" (the distro's path), "venv_host" (this machine's),
    "env_file", "env_file_host", "wheels", "plan"}."""
    distro_root = os.path.abspath(distro_root)
    home = f"/home/{user}"
    _write_user(distro_root, user, uid, home)
    plan = _plan(distro_root, agent, user)
    _write_dpkg_status(distro_root, _apt_packages(plan))
    if wheels is None:
        standin_packages.build_wheels(distro_root)
        wheels = at(distro_root, "/srv/wheels")
    venv_host = at(distro_root, plan["venv"])
    _make_venv(plan, venv_host, at(distro_root, home), wheels, python_version)
    env_file_host = at(distro_root, plan["env_file"])
    _write(env_file_host, env_file_text(plan), "w")
    code, doc, stderr = check_recap(distro_root, agent, user)
    not_ok = [s for s in (doc or {}).get("recap", {}).get("steps", []) if s["result"] != "ok"]
    if code != 0 or doc is None or not_ok:
        raise NotProvisioned(f"provision --check still finds work (exit {code}): {not_ok or stderr[-800:]}")
    return {"user": user, "uid": uid, "home": home, "venv": plan["venv"], "venv_host": venv_host, "env_file": plan["env_file"],
            "env_file_host": env_file_host, "wheels": wheels, "plan": plan}
