#!/usr/bin/env python3
"""`tfwsl wslconfig` end to end on real files: natively, or the MinGW tfwsl.exe under Wine
(--wine WINE64: paths are handed over as Z:\\..., Wine's view of the Linux root).

Cases (--case, repeatable; default all but fixtures):
  fixtures  every .wslconfig fixture of tests/fixtures (--fixtures DIR; part of the repository, so
            its absence fails) as UTF-8, UTF-16LE with BOM, UTF-16LE without BOM and UTF-8 with BOM:
            `set memory=16GB --yes` changes one line (or adds it, with [wsl2] when missing), keeps
            every other line byte for byte (line ends included), writes UTF-8 without BOM, and
            leaves a backup beside it holding exactly the old bytes.
  fault     TFWSL_TEST_REPLACE_FAULT=half-written / before-swap kills the write: the file still
            holds its old bytes (never truncated, never missing); a later run completes.
  refuse    with TFWSL_TEST_HOST_RAM=16GB, `set memory=64TB` is refused (exit 2) with the reason, and
            a size WSL does not accept (16gb) is explained; nothing is written.
  consent   without --yes on a pipe: exit 2, says to pass --yes, nothing written; --dry-run prints
            the diff and writes nothing.
  terminal  (native) on a pseudo-terminal the diff comes before the [y/N] question; y writes,
            Enter writes nothing (exit 2).
  native-apply  (native) --apply is refused off Windows before anything is written.
  schema    show/set/unset --json validate against docs/schema/wslconfig.schema.json (--schemas).
Exit 0: all passed; 1: a failure (printed); 77: skipped (jsonschema absent).
"""
import argparse
import glob
import json
import re
import os
import subprocess
import sys
import tempfile

SKIPPED = 77
failures = []


def fail(what):
    failures.append(what)
    print("FAILED:", what)


class Tfwsl:
    def __init__(self, exe, wine):
        self.exe, self.wine = exe, wine

    def path(self, p):
        return "Z:" + os.path.abspath(p).replace("/", "\\") if self.wine else p

    def run(self, *args, env=None, file=None):
        argv = ([self.wine] if self.wine else []) + [self.exe, "wslconfig"] + list(args)
        if file is not None:
            argv += ["--file", self.path(file)]
        full_env = dict(os.environ)
        full_env.update(env or {})
        for _ in range(3):
            p = subprocess.run(argv, capture_output=True, timeout=300, env=full_env, stdin=subprocess.DEVNULL)
            # Wine never reached its wineserver (one that was exiting): the program did not run.
            if not (self.wine and p.stderr.startswith(b"wine client error:")):
                break
            try:  # bounded: the tests' lasting Wine session (tests/windows/wine_session.sh) never ends
                subprocess.run([os.path.join(os.path.dirname(self.wine), "wineserver"), "-w"], capture_output=True,
                               timeout=30)
            except subprocess.TimeoutExpired:
                pass
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def fixture_body(path):
    with open(path, "rb") as f:
        data = f.read()
    marker = data.find(b"\n---\n")
    return data[marker + 5:] if marker >= 0 else data


def variants(body):
    text = body.decode("utf-8")
    return {
        "utf-8": body,
        "utf-16le-bom": b"\xff\xfe" + text.encode("utf-16-le"),
        "utf-16le": text.encode("utf-16-le"),
        "utf-8-bom": b"\xef\xbb\xbf" + body,
    }


def lines_with_ends(text):
    return text.splitlines(keepends=True)


def same_line(old, new, is_last):
    """Byte for byte, but the old last line without an end may have gained one."""
    return old == new or (is_last and not old.endswith("\n") and new.rstrip("\r\n") == old)


def check_minimal_edit(what, old_text, new_bytes):
    """new is old with one line's value changed to 16GB, or memory=16GB (and [wsl2]) added."""
    if new_bytes.startswith(b"\xef\xbb\xbf") or new_bytes.startswith(b"\xff\xfe"):
        return fail(f"{what}: written with a BOM")
    try:
        new_text = new_bytes.decode("utf-8")
    except UnicodeDecodeError:
        return fail(f"{what}: not written as UTF-8")
    old, new = lines_with_ends(old_text), lines_with_ends(new_text)
    if len(old) == len(new):
        diff = [i for i in range(len(old)) if old[i] != new[i]]
        if len(diff) != 1 or "16GB" not in new[diff[0]] or "memory" not in new[diff[0]].lower():
            fail(f"{what}: not exactly one line changed to memory 16GB: lines {[d + 1 for d in diff]}")
        return None
    i, inserted = 0, []
    for line in new:
        if i < len(old) and same_line(old[i], line, i == len(old) - 1):
            i += 1
        else:
            inserted.append(line.strip())
    if i != len(old) or inserted not in (["memory=16GB"], ["[wsl2]", "memory=16GB"]):
        fail(f"{what}: more than the memory line (and [wsl2]) was added or changed: {inserted}")
    return None


def case_fixtures(tfwsl, fixtures_dir, work):
    files = sorted(glob.glob(os.path.join(fixtures_dir, "wslconfig-*.txt")))
    if not files:
        fail(f"no wslconfig-*.txt in {fixtures_dir}")
    for fixture in files:
        for name, data in variants(fixture_body(fixture)).items():
            what = f"{os.path.basename(fixture)} as {name}"
            folder = tempfile.mkdtemp(dir=work)
            target = os.path.join(folder, ".wslconfig")
            with open(target, "wb") as f:
                f.write(data)
            code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target)
            if code not in (0, 1):
                fail(f"{what}: exit {code}: {err.strip()}")
                continue
            with open(target, "rb") as f:
                new = f.read()
            old_text = fixture_body(fixture).decode("utf-8")
            check_minimal_edit(what, old_text, new)
            backups = glob.glob(target + ".tfwsl-backup-*")
            if len(backups) != 1:
                fail(f"{what}: {len(backups)} backups beside it")
            else:
                with open(backups[0], "rb") as f:
                    if f.read() != data:
                        fail(f"{what}: the backup does not hold the old bytes")
            leftovers = [n for n in os.listdir(folder) if ".tfwsl-tmp-" in n]
            if leftovers:
                fail(f"{what}: temporary files left: {leftovers}")
            print(f"ok: {what}")


SAMPLE = b"# my settings\r\n[wsl2]\r\nmemory=8GB\r\nprocessors=4\r\n\r\n[experimental]\r\nsparseVhd=true\r\n"


def fresh(work, data=SAMPLE):
    folder = tempfile.mkdtemp(dir=work)
    target = os.path.join(folder, ".wslconfig")
    with open(target, "wb") as f:
        f.write(data)
    return target


def case_fault(tfwsl, work):
    for stage in ("half-written", "before-swap"):
        before = len(failures)
        target = fresh(work, SAMPLE * 200)  # big enough that half a write is a real cut
        code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target,
                                   env={"TFWSL_TEST_REPLACE_FAULT": stage})
        with open(target, "rb") as f:
            now = f.read()
        if code != 137:
            fail(f"fault {stage}: exit {code}, expected 137 (killed): {err.strip()}")
        if now != SAMPLE * 200:
            fail(f"fault {stage}: the file changed ({len(now)} bytes, was {len(SAMPLE) * 200})")
        code, out, err = tfwsl.run("set", "memory=16GB", "--yes", file=target)
        with open(target, "rb") as f:
            after = f.read()
        if code not in (0, 1) or b"memory=16GB" not in after:
            fail(f"fault {stage}: the run after the fault did not complete (exit {code}): {err.strip()}")
        if len(failures) == before:
            print(f"ok: fault {stage}: the old bytes stayed whole; a later run completed")


def case_refuse(tfwsl, work):
    target = fresh(work)
    code, out, err = tfwsl.run("set", "memory=64TB", "--yes", file=target, env={"TFWSL_TEST_HOST_RAM": "16GB"})
    if code != 2 or "more than this machine's 16.0 GiB" not in " ".join(err.split()):  # wrapped at 80 columns
        fail(f"refuse 64TB: exit {code}, stderr {err.strip()!r}")
    code, out, err = tfwsl.run("set", "memory=16gb", "--yes", file=target)
    if code != 2 or "upper-case unit" not in err:
        fail(f"refuse 16gb: exit {code}, stderr {err.strip()!r}")
    with open(target, "rb") as f:
        if f.read() != SAMPLE:
            fail("refuse: the file changed")
    if glob.glob(target + ".tfwsl-backup-*"):
        fail("refuse: a backup was written")
    print("ok: refusals")


def case_consent(tfwsl, work):
    target = fresh(work)
    code, out, err = tfwsl.run("set", "memory=16GB", file=target)
    if code != 2 or "pass --yes" not in err:
        fail(f"consent: exit {code}, stderr {err.strip()!r}")
    code, out, err = tfwsl.run("set", "memory=16GB", "--dry-run", file=target)
    if code != 0 or "-3: memory=8GB" not in out or "+3: memory=16GB" not in out:
        fail(f"dry run: exit {code}, stdout {out!r}")
    with open(target, "rb") as f:
        if f.read() != SAMPLE:
            fail("consent/dry run: the file changed")
    print("ok: consent and dry run")


def case_terminal(tfwsl, work):
    """Native only: on a pseudo-terminal the change is shown, then asked; 'y' writes, Enter does not."""
    import pty
    import select
    for answer, expect_written in ((b"y\n", True), (b"\n", False)):
        target = fresh(work)
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(tfwsl.exe, [tfwsl.exe, "wslconfig", "set", "memory=16GB", "--file", target])
        seen, answered = b"", False
        while True:
            ready, _, _ = select.select([fd], [], [], 30)
            if not ready:
                fail("terminal: no output for 30 s")
                break
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if not answered and b"[y/N]" in seen:
                os.write(fd, answer)
                answered = True
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        with open(target, "rb") as f:
            written = b"memory=16GB" in f.read()
        text = seen.decode("utf-8", "replace")
        if not answered or "+3: memory=16GB" not in text.split("[y/N]")[0]:
            fail(f"terminal: the diff was not shown before the question: {text!r}")
        if written != expect_written or code != (0 if expect_written else 2):
            fail(f"terminal answer {answer!r}: exit {code}, written {written}: {text!r}")
    print("ok: terminal: the diff, then the question; y writes, Enter does not")


def case_native_apply(tfwsl, work):
    target = fresh(work)
    code, out, err = tfwsl.run("set", "memory=16GB", "--apply", "--yes", file=target)
    if code != 2 or "--apply restarts WSL" not in err:
        fail(f"native --apply: exit {code}, stderr {err.strip()!r}")
    with open(target, "rb") as f:
        if f.read() != SAMPLE:
            fail("native --apply: the file changed")
    print("ok: natively --apply is refused before anything is written")


def case_schema(tfwsl, work, schemas_dir):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
    import schema_support as ss
    ss.require_jsonschema()
    schemas = ss.load_schemas(schemas_dir)
    target = fresh(work)
    missing = os.path.join(tempfile.mkdtemp(dir=work), ".wslconfig")
    runs = [("show", ["show", "--json"], target), ("show of a missing file", ["show", "--json"], missing),
            ("set --dry-run", ["set", "memory=16GB", "--json", "--dry-run"], target),
            ("set", ["set", "memory=16GB", "swap=4GB", "--json", "--yes"], target),
            ("unset", ["unset", "swap", "--json", "--yes"], target)]
    for what, args, path in runs:
        code, out, err = tfwsl.run(*args, file=path, env={"TFWSL_TEST_HOST_RAM": "32GB"})
        try:
            document = json.loads(out)
        except json.JSONDecodeError as e:
            fail(f"schema {what}: no JSON ({e}; exit {code}): {err.strip()}")
            continue
        found = ss.problems(schemas, "wslconfig", document)
        if ss.schema_key_of(document) != "wslconfig":
            found.insert(0, f"envelope names {document.get('schema')}")
        if found:
            fail(f"schema {what}: " + "; ".join(found[:10]))
        else:
            print(f"ok: {what} --json validates against wslconfig.schema.json")
        if what == "show of a missing file":  # every value a default: each worked out says its rule
            # Which defaults are worked out depends on what the program knows of the machine: the
            # shipped tfwsl natively on Linux knows no Windows RAM (memory stays the rule in words).
            worked_out = [v for v in document.get("values", []) if v["bytes"] is not None or v["count"] is not None]
            missing = [v["key"] for v in worked_out if v["key"] in ("memory", "swap", "processors") and not v["default_rule"]]
            if not worked_out or missing:
                fail(f"show --json: a worked-out default without its rule: {missing or 'none worked out'}")
            else:
                rules = {v["key"]: v["default_rule"] for v in worked_out if v["default_rule"]}
                print(f"ok: show --json gives each worked-out default's rule: {rules}")
    bad = dict(document)
    bad["unexpected"] = 1
    if not ss.problems(schemas, "wslconfig", bad):
        fail("schema: a document with an unknown field validates")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--wine")
    ap.add_argument("--fixtures")
    ap.add_argument("--schemas")
    ap.add_argument("--case", action="append")
    a = ap.parse_args()
    cases = a.case or ["fault", "refuse", "consent", "schema"]
    tfwsl = Tfwsl(a.tfwsl, a.wine)
    with tempfile.TemporaryDirectory(prefix="tfwsl-wslconfig-") as work:
        if "fixtures" in cases:
            if not a.fixtures or not os.path.isdir(a.fixtures):
                fail(f"the fixtures folder is absent ({a.fixtures}): it is part of the repository (tests/fixtures)")
            else:
                case_fixtures(tfwsl, a.fixtures, work)
        if "fault" in cases:
            case_fault(tfwsl, work)
        if "refuse" in cases:
            case_refuse(tfwsl, work)
        if "consent" in cases:
            case_consent(tfwsl, work)
        if "terminal" in cases:
            case_terminal(tfwsl, work)
        if "native-apply" in cases:
            case_native_apply(tfwsl, work)
        if "schema" in cases:
            case_schema(tfwsl, work, a.schemas)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
