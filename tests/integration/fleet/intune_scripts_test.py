#!/usr/bin/env python3
"""The Intune scripts' decisions (docs/fleet/intune), checked from their text: PowerShell is not on
the build machine (nor in Debian), so nothing here runs them. The scripts keep every decision in
lines of one fixed form, which this test reads and then plays through a table of cases:

  if ($isSystem) { Write-Output $notSystem; exit N }        a guard: condition, what it prints, exit
  $exitFor = @{ 0 = 0; 1 = 0; 2 = 1; 3 = 1 }                the doctor's exit code -> the script's

Checked, for each script: both guards come before the first `& $tfwsl` (so tfwsl never runs as
SYSTEM, and a missing tfwsl is said, not a CommandNotFound with an empty output); the exits are the
ones Intune's contract wants (below); the account test is the well-known SID S-1-5-18; the shared
preamble (finding tfwsl, the messages) is the same text in the three scripts; tfwsl is looked for
where winget really puts it (a package folder on PATH, never WinGet\\Links: winget-cli
src/AppInstallerCLICore/PortableInstaller.cpp skips the link for ArchiveBinariesDependOnPath).

Intune's contract (Microsoft Learn, "Remediations" and "Custom compliance discovery scripts"):
a detection script's exit 1 runs the remediation, exit 0 does not, and the last line of output is
kept; a remediation's exit 0 is success; a discovery script prints one JSON object whose settings
compliance-rules.json tests.

  intune_scripts_test.py --docs DOCS --source SRC
"""
import argparse
import json
import pathlib
import re
import sys

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[:2000]}"))
    if not condition:
        failures.append(what)


PREAMBLE_START = "# --- tfwsl preamble"
PREAMBLE_END = "# --- end of the tfwsl preamble ---"
GUARD = re.compile(r"^if \((?P<condition>[^)]*\)?)\) \{ (?P<say>Write-Output \$\w+|\[Console\]::Error\.WriteLine\(\$\w+\)); exit (?P<exit>\d+) \}$")
EXIT_TABLE = re.compile(r"^\$exitFor = @\{ (?P<pairs>[^}]*) \}$")

# What each script must do, per Intune's contract:
#   SYSTEM: the user's WSL cannot be judged. detect: exit 0 (a remediation run as SYSTEM could only fail
#   or change SYSTEM's own files); remediate: exit 1 without touching anything; discovery: no JSON and
#   an error (the compliance state becomes an error, never "Not compliant" from SYSTEM's empty state).
#   tfwsl missing: said in words. detect: exit 0 (no remediation can install it: running one would fail
#   every day, the loop); remediate: exit 1; discovery: the facts of a machine without tfwsl (below).
#   Doctor exit codes (docs/fleet.md): 0 healthy, 1 warnings only, 2 a problem, 3 internal error;
#   warnings only is healthy enough: no remediation, no "Recurred".
EXPECTED = {
    "detect.ps1": {"system": ("notSystem", 0), "missing": ("notInstalled", 0), "exits": {0: 0, 1: 0, 2: 1, 3: 1}},
    "remediate.ps1": {"system": ("notSystem", 1), "missing": ("notInstalled", 1), "exits": {0: 0, 1: 0, 2: 1, 3: 1}},
    "discovery.ps1": {"system": ("notSystem", 1), "missing": ("missingFacts", 0), "exits": None},
}


def statements(text):
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def preamble_of(text):
    if PREAMBLE_START not in text or PREAMBLE_END not in text:
        return None
    return text[text.index(PREAMBLE_START):text.index(PREAMBLE_END)]


def guards_of(lines):
    """[(index, condition, variable printed, exit)] of the guard lines."""
    out = []
    for i, line in enumerate(lines):
        m = GUARD.match(line)
        if m:
            out.append((i, m["condition"], re.search(r"\$(\w+)", m["say"]).group(1), int(m["exit"])))
    return out


def exit_table(lines):
    for line in lines:
        m = EXIT_TABLE.match(line)
        if m:
            return {int(k): int(v) for k, v in (p.split("=") for p in m["pairs"].split(";"))}
    return None


def play(guards, table, case):
    """The script's exit for one case: {'system': bool, 'installed': bool, 'doctor': int}."""
    for _, condition, say, code in guards:
        if (condition == "$isSystem" and case["system"]) or (condition == "-not $tfwsl" and not case["installed"]):
            return say, code
    return "doctor", (table or {}).get(case["doctor"], 1)


def one_script(path, expected):
    name = path.name
    lines = statements(path.read_text(encoding="utf-8"))
    guards = guards_of(lines)
    first_run = next((i for i, l in enumerate(lines) if "& $tfwsl" in l), len(lines))
    system_guard = [g for g in guards if g[1] == "$isSystem"]
    missing_guard = [g for g in guards if g[1] == "-not $tfwsl"]
    check(system_guard and system_guard[0][0] < first_run, f"{name}: the SYSTEM guard comes before tfwsl runs", guards)
    check(missing_guard and missing_guard[0][0] < first_run, f"{name}: the missing-tfwsl guard comes before tfwsl runs", guards)
    table = exit_table(lines)
    cases = [{"system": True, "installed": True, "doctor": 0}, {"system": False, "installed": False, "doctor": 0}]
    cases += [{"system": False, "installed": True, "doctor": d} for d in (0, 1, 2, 3)]
    for case in cases:
        got = play(guards, table, case)
        if case["system"]:
            want = expected["system"]
        elif not case["installed"]:
            want = expected["missing"]
        elif expected["exits"] is None:
            continue  # discovery prints the doctor's facts whatever its exit: the rules judge them
        else:
            want = ("doctor", expected["exits"][case["doctor"]])
        check(got == want, f"{name}: {case} -> prints {want[0]}, exits {want[1]}", f"got {got}")


def preamble(scripts, identifier):
    texts = {p.name: preamble_of(p.read_text(encoding="utf-8")) for p in scripts}
    check(all(texts.values()) and len(set(texts.values())) == 1, "the three scripts share one preamble, the same text",
          {k: (v or "")[:80] for k, v in texts.items()})
    text = next(iter(texts.values())) or ""
    check("[Security.Principal.WindowsIdentity]::GetCurrent().User.Value -eq 'S-1-5-18'" in text,
          "the preamble tells SYSTEM by its well-known SID S-1-5-18")
    check("WinGet\\Links" not in "\n".join(statements(text)), "no WinGet\\Links path: ArchiveBinariesDependOnPath makes no link there")
    for root in ("$env:LOCALAPPDATA\\Microsoft\\WinGet\\Packages", "$env:ProgramFiles\\WinGet\\Packages"):
        check(f"{root}\\{identifier}_*\\tfwsl.exe" in text, f"tfwsl is looked for in {root}\\{identifier}_* (winget's package folder)")
    check("Get-Command -Name 'tfwsl.exe' -CommandType Application" in text, "... after PATH, where winget adds that folder")
    check(re.search(r"\$notInstalled = '[^']*tfwsl is not installed", text), "the missing-tfwsl message says 'tfwsl is not installed'")


def discovery_missing_facts(path, rules):
    """Without tfwsl the discovery script prints a fixed JSON object: every rule's setting, each false."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^\$missingFacts = '(\{.*\})'$", text, re.MULTILINE)
    facts = json.loads(m.group(1)) if m else {}
    settings = {r["SettingName"] for r in rules["Rules"]}
    check(m and settings <= set(facts) and not any(facts[s] for s in settings) and facts.get("tfwsl_installed") is False,
          "discovery.ps1 without tfwsl: every rule's setting false, and tfwsl_installed false", facts)
    check(any(r["SettingName"] == "tfwsl_installed" for r in rules["Rules"]), "compliance-rules.json tests tfwsl_installed")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    folder = pathlib.Path(args.docs) / "fleet" / "intune"
    sys.path.insert(0, str(pathlib.Path(args.source) / "scripts" / "release"))
    import manifests  # winget's PackageIdentifier names the package folder

    scripts = [folder / name for name in EXPECTED]
    for path in scripts:
        one_script(path, EXPECTED[path.name])
    preamble(scripts, manifests.PROJECT["identifier"])
    rules = json.loads((folder / "compliance-rules.json").read_text(encoding="utf-8"))
    discovery_missing_facts(folder / "discovery.ps1", rules)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
