#!/usr/bin/env python3
"""`tfwsl wslconfig` against hostile and careless files (issue 22, items 12, 13, 15, 16, 17), on real
files and real processes: natively, or the MinGW tfwsl.exe under Wine (--wine WINE64).

Cases (--case, repeatable; default all that apply to the build):
  concurrent  N runs at once (--runs, default 10), each `set` of a different key: every one exits
              0 and says Written, every key is in the file afterwards, each run made its own backup
              (the newest five are kept, and the first, the file as it was before tfwsl wrote it:
              win/tasks/wslconfig_backups.hpp) and no temporary file is left.
  special     --file naming /dev/zero, a FIFO, a folder or a 2 MB file: refused (exit 2) at once,
              naming what it is; nothing is read or written (a timeout is a failure: the old reader grew past 4 GB
              on /dev/zero and blocked forever on a FIFO).
  lint        a UTF-16LE-with-BOM and a UTF-8-with-BOM file rewritten by `set` as UTF-8: exit 0 and
              no encoding finding printed (the old lint was of the bytes read).
  utf16be     a UTF-16BE file without BOM: `set` writes the whole file as UTF-8, the old keys kept.
  mode        (native) a 0600 file stays 0600 after `set`, and its backup is 0600.
  readonly    a read-only file: refused (exit 2) naming the file and the fix; nothing written, no backup.
  link        (native) .wslconfig a link to another file: written through to the target (the output
              says so), the link is still a link.
Exit 0: all passed; 1: a failure (printed).
"""
import argparse
import glob
import os
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wslconfig_cli as base  # noqa: E402  (the Tfwsl runner and the sample file)

SKIPPED_KINDS = []  # --skip-kind: to run the old code without letting it read /dev/zero for ever
failures = base.failures
fail = base.fail

BACKUPS_KEPT = 5  # tfwsl keeps the newest five of its backups of a .wslconfig, and the first

KEYS = ["memory=12GB", "processors=3", "swap=2GB", "localhostForwarding=false", "pageReporting=false",
        "guiApplications=false", "debugConsole=false", "nestedVirtualization=false", "vmIdleTimeout=120000",
        "experimental.sparseVhd=true", "experimental.autoMemoryReclaim=gradual", "safeMode=false"]


def argv_for(tfwsl, *args, file=None):
    argv = ([tfwsl.wine] if tfwsl.wine else []) + [tfwsl.exe, "wslconfig"] + list(args)
    if file is not None:
        argv += ["--file", tfwsl.path(file)]
    return argv


def case_concurrent(tfwsl, work, runs):
    target = base.fresh(work, b"[wsl2]\r\n")
    env = dict(os.environ, TFWSL_TEST_HOST_RAM="32GB")
    keys = KEYS[:runs]
    procs = [subprocess.Popen(argv_for(tfwsl, "set", k, "--yes", file=target), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env) for k in keys]
    for key, p in zip(keys, procs):
        out, err = p.communicate(timeout=600)
        out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        if p.returncode != 0 or "Written" not in out:
            fail(f"concurrent {key}: exit {p.returncode}: {out.strip()[-300:]} {err.strip()[-300:]}")
    with open(target, "rb") as f:
        text = f.read().decode("utf-8")
    lost = [k for k in keys if k.split(".")[-1] not in text]
    if lost:
        fail(f"concurrent: {len(lost)} of {len(keys)} changes lost: {lost}\n{text}")
    backups = glob.glob(target + ".tfwsl-backup-*")
    if len(backups) != min(len(keys), BACKUPS_KEPT + 1):
        fail(f"concurrent: {len(backups)} backups for {len(keys)} runs: {sorted(backups)}")
    folder = os.path.dirname(target)
    leftovers = [n for n in os.listdir(folder) if ".tfwsl-tmp-" in n]
    if leftovers:
        fail(f"concurrent: temporary files left: {leftovers}")
    if not lost:
        print(f"ok: {len(keys)} concurrent runs: every key landed, {len(backups)} backups")


def timed_run(tfwsl, args, file, limit=60):
    started = time.monotonic()
    try:
        p = subprocess.run(argv_for(tfwsl, *args, file=file), capture_output=True, timeout=limit, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", f"still running after {limit} s", limit
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.monotonic() - started


def case_special(tfwsl, work):
    fifo = os.path.join(tempfile.mkdtemp(dir=work), ".wslconfig")
    os.mkfifo(fifo)
    folder = tempfile.mkdtemp(dir=work)
    big = os.path.join(tempfile.mkdtemp(dir=work), ".wslconfig")
    with open(big, "wb") as f:
        f.write(b"[wsl2]\n" + b"# padding\n" * 200000)  # 2 MB: over the 1 MiB cap
    kinds = [("/dev/zero", "/dev/zero", "device"), ("a FIFO", fifo, "FIFO"), ("a folder", folder, "folder"),
             ("a 2 MB file", big, "more than a .wslconfig can be")]
    if tfwsl.wine:
        # Windows has no FIFOs in its filesystems (its named pipes live under \\.\pipe\); under Wine a
        # unix FIFO would be opened by the wineserver itself, which is not the code under test.
        kinds = [k for k in kinds if k[0] != "a FIFO"]
    for what, path, word in kinds:
        if what in SKIPPED_KINDS:
            continue
        for args in (["show"], ["set", "memory=8GB", "--yes"]):
            code, out, err, took = timed_run(tfwsl, args, path)
            if code != 2 or word not in err:
                fail(f"special {what} {args[0]}: exit {code} after {took:.1f} s: {err.strip()[-300:]}")
            else:
                print(f"ok: {args[0]} --file {what}: refused in {took:.1f} s: {err.strip()}")


def utf16le_bom(text):
    return b"\xff\xfe" + text.encode("utf-16-le")


def case_lint(tfwsl, work):
    text = "[wsl2]\r\nmemory=8GB\r\n"
    for name, data in (("utf-16le with BOM", utf16le_bom(text)), ("utf-8 with BOM", b"\xef\xbb\xbf" + text.encode())):
        target = base.fresh(work, data)
        code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target, env={"TFWSL_TEST_HOST_RAM": "32GB"})
        with open(target, "rb") as f:
            written = f.read()
        if code != 0 or "utf-16" in out.lower() or "bom" in out.lower() or written != b"[wsl2]\r\nmemory=16GB\r\n":
            fail(f"lint {name}: exit {code}, written {written!r}: {out.strip()[-300:]}")
        else:
            print(f"ok: {name} rewritten as UTF-8: exit 0, no encoding finding")


def case_utf16be(tfwsl, work):
    text = "# mine\r\n[wsl2]\r\nmemory=8GB\r\nprocessors=4\r\n"
    target = base.fresh(work, text.encode("utf-16-be"))
    code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target, env={"TFWSL_TEST_HOST_RAM": "32GB"})
    with open(target, "rb") as f:
        written = f.read()
    if code != 0 or written != text.replace("8GB", "16GB").encode():
        fail(f"utf16be: exit {code}, written {written!r}: {err.strip()[-300:]}")
    else:
        print("ok: UTF-16BE without BOM read and written whole as UTF-8")


def case_mode(tfwsl, work):
    target = base.fresh(work)
    os.chmod(target, 0o600)
    code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target)
    modes = {"file": stat.S_IMODE(os.stat(target).st_mode)}
    for b in glob.glob(target + ".tfwsl-backup-*"):
        modes["backup"] = stat.S_IMODE(os.stat(b).st_mode)
    if code != 0 or modes != {"file": 0o600, "backup": 0o600}:
        fail(f"mode: exit {code}, modes {({k: oct(v) for k, v in modes.items()})}: {err.strip()}")
    else:
        print("ok: a 0600 file and its backup stay 0600")


def case_readonly(tfwsl, work):
    target = base.fresh(work)
    os.chmod(target, 0o444)
    code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target)
    os.chmod(target, 0o644)
    with open(target, "rb") as f:
        same = f.read() == base.SAMPLE
    backups = glob.glob(target + ".tfwsl-backup-*")
    if code != 2 or "read-only" not in err or ".wslconfig" not in err or not same or backups:
        fail(f"readonly: exit {code}, unchanged {same}, backups {backups}: {err.strip()}")
    else:
        print(f"ok: a read-only file is refused: {err.strip()}")


def case_link(tfwsl, work):
    folder = tempfile.mkdtemp(dir=work)
    real = os.path.join(folder, "dotfiles", "wslconfig.ini")
    os.makedirs(os.path.dirname(real))
    with open(real, "wb") as f:
        f.write(base.SAMPLE)
    link = os.path.join(folder, ".wslconfig")
    os.symlink(os.path.join("dotfiles", "wslconfig.ini"), link)
    code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=link)
    with open(real, "rb") as f:
        changed = b"memory=16GB" in f.read()
    if code != 0 or not os.path.islink(link) or not changed or "written through to" not in " ".join(out.split()):
        fail(f"link: exit {code}, still a link {os.path.islink(link)}, target changed {changed}: {out.strip()} {err.strip()}")
    else:
        print(f"ok: a linked .wslconfig is written through: {out.strip().splitlines()[-1]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--wine")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--case", action="append")
    ap.add_argument("--skip-kind", action="append", default=[], help="special: leave out a kind ('/dev/zero', 'a FIFO', ...)")
    a = ap.parse_args()
    SKIPPED_KINDS.extend(a.skip_kind)
    native_only = {"mode", "link"}
    cases = a.case or [c for c in ("concurrent", "special", "lint", "utf16be", "mode", "readonly", "link")
                       if not (a.wine and c in native_only)]
    tfwsl = base.Tfwsl(a.tfwsl, a.wine)
    with tempfile.TemporaryDirectory(prefix="tfwsl-wslconfig-safety-") as work:
        for case in cases:
            if case == "concurrent":
                case_concurrent(tfwsl, work, a.runs)
            else:
                globals()["case_" + case](tfwsl, work)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
