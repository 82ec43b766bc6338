#!/usr/bin/env python3
"""The release's package files as the package managers' own rules read them, without a build
(CTest release.package-files; release.manifests checks the same files inside a real release):

- winget: the three manifests validate against the schemas kept in winget-schemas/, which are the
  version microsoft/winget-pkgs takes today (tests/release/SOURCES.md says why), and their
  ManifestVersion and `# yaml-language-server` header name that version;
- Scoop: the manifest validates against Scoop's schema; `env_add_path` puts the app's folder itself
  on PATH (a `bin` shim alone leaves the DSC resource manifests off PATH, where DSC looks for them:
  ScoopInstaller/Scoop lib/install.ps1 env_add_path), and it is written with 4-space indentation as
  ScoopInstaller/Main's .editorconfig (indent_size = 4) and its manifests are;
- packaging/README.txt and docs/building.md name every member of the archive, and README.txt's
  `scoop install` names a manifest Scoop can reach (a URL, which ScoopInstaller/Scoop's
  libexec/scoop-install.ps1 takes, or a bucket the README adds first: buckets.json's known buckets
  hold no tfwsl);
- THIRD-PARTY-NOTICES.txt points at no file that exists only on Debian (the archive is read on Windows).

  package_files_test.py --source SRC
"""
import argparse
import json
import pathlib
import re
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[:2000]}"))
    if not condition:
        failures.append(what)


RELEASE = {"version": "0.2.0", "commit": "abc1234", "epoch": 1700000000, "archive": "tfwsl-0.2.0-windows-x64.zip",
           "sha256": "0123456789abcdef" * 4}


def kept_winget_version():
    """The one version of winget's schemas kept in winget-schemas/ (manifest.version.X.json)."""
    found = sorted(p.name[len("manifest.version."):-len(".json")] for p in (HERE / "winget-schemas").glob("manifest.version.*.json"))
    if len(found) != 1:
        raise SystemExit(f"FAILED: winget-schemas/ should keep one schema version, holds {found}")
    return found[0]


def winget(manifests, jsonschema, yaml):
    version = kept_winget_version()
    check(manifests.MANIFEST_VERSION == version, f"winget: ManifestVersion {manifests.MANIFEST_VERSION} is the kept schemas' {version}")
    with tempfile.TemporaryDirectory() as out:
        manifests.write_winget(out, RELEASE)
        files = sorted(pathlib.Path(out).rglob("*.yaml"))
        check(len(files) == 3, "winget: three files", [f.name for f in files])
        for f in files:
            text = f.read_text(encoding="utf-8")
            doc = yaml.safe_load(text)
            kind = doc.get("ManifestType", "")
            schema_file = HERE / "winget-schemas" / f"manifest.{kind}.{version}.json"
            schema = json.loads(schema_file.read_text(encoding="utf-8")) if schema_file.exists() else {"not": {}}
            errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]
            check(not errors, f"winget: {f.name} is valid against manifest.{kind}.{version}.json", errors)
            header = f"# yaml-language-server: $schema=https://aka.ms/winget-manifest.{kind}.{version}.schema.json"
            check(text.splitlines()[0] == header, f"winget: {f.name}'s header names schema {version}", text.splitlines()[0])
            if kind == "defaultLocale":
                # winget runs nothing before it removes a portable package: the notes shown at install say it.
                check("tfwsl uninstall" in (doc.get("InstallationNotes") or ""),
                      "winget: InstallationNotes say to run tfwsl uninstall before winget uninstall", doc.get("InstallationNotes"))


def scoop(manifests, jsonschema):
    schema = json.loads((HERE / "scoop-schema" / "schema.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as out:
        manifests.write_scoop(out, RELEASE)
        text = (pathlib.Path(out) / "scoop" / "tfwsl.json").read_text(encoding="utf-8")
    document = json.loads(text)
    errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(document)]
    check(not errors, "scoop: valid against Scoop's schema", errors)
    # Must fail on a manifest Scoop refuses, or the check above proves nothing.
    check(list(jsonschema.Draft7Validator(schema).iter_errors(dict(document, env_add_path=7))), "scoop: the schema refuses a bad env_add_path")
    check(document.get("env_add_path") == ".", "scoop: env_add_path '.' puts tfwsl's folder (and its DSC manifests) on PATH",
          document.get("env_add_path"))
    check("bin" not in document, "scoop: no bin shim beside env_add_path (tfwsl.exe would be on PATH twice)")
    notes = document.get("notes", "")
    check("tfwsl uninstall" in (notes if isinstance(notes, str) else " ".join(notes)),
          "scoop: notes say to run tfwsl uninstall before scoop uninstall", notes)
    check(not {"uninstaller", "pre_uninstall"} & set(document),
          "scoop: no uninstall hook (it runs on every scoop update too, and without the user's say)")
    check(text == json.dumps(document, indent=4, ensure_ascii=False) + "\n", "scoop: written with 4-space indentation, as buckets are",
          text[:300])


def members_named(text, members, where):
    missing = [m for m in members if m not in text]
    check(not missing, f"{where} names every member of the archive", f"missing: {missing}")


def readme_scoop(readme, where):
    commands = re.findall(r"scoop install (\S+)", readme)
    added = set(re.findall(r"scoop bucket add (\S+)", readme))
    reachable = [c for c in commands if c.startswith(("https://", "@URL@/")) or ("/" in c and c.split("/")[0] in added)]
    check(commands and reachable == commands,
          f"{where}: each `scoop install` names a manifest URL or a bucket it adds first (tfwsl is in no known bucket)", commands)


def notices(source):
    text = (source / "THIRD-PARTY-NOTICES.txt").read_text(encoding="utf-8")
    debian_only = sorted(set(re.findall(r"(?:file://)?/usr/share/[\w./+-]+", text)))
    check(not debian_only, "THIRD-PARTY-NOTICES.txt points at no Debian-only path (it is read on Windows)", debian_only)
    check("To the extent possible under law" in text and "Statement of Purpose" in text,
          "THIRD-PARTY-NOTICES.txt holds CC0-1.0's full text, which tl::expected's notice refers to")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    source = pathlib.Path(args.source)
    try:
        import jsonschema
        import yaml
    except ImportError as e:
        print(f"skipped: {e.name} is missing (Debian: python3-jsonschema, python3-yaml)")
        return 77
    sys.path[:0] = [str(source / "scripts" / "release"), str(HERE)]
    import manifests
    from release_test import EXPECTED_MEMBERS

    for section, arguments in ((winget, (manifests, jsonschema, yaml)), (scoop, (manifests, jsonschema))):
        try:
            section(*arguments)
        except Exception as e:  # one broken section must not hide the others' verdicts
            check(False, f"{section.__name__}: {type(e).__name__}: {e}")
    readme = (source / "packaging" / "README.txt").read_text(encoding="utf-8")
    members_named(readme, EXPECTED_MEMBERS, "packaging/README.txt")
    readme_scoop(readme, "packaging/README.txt")
    front = (source / "README.md").read_text(encoding="utf-8")
    readme_scoop(front, "README.md")
    building = (source / "docs" / "building.md").read_text(encoding="utf-8")
    zip_entry = building[building.index("- `tfwsl-VERSION-windows-x64.zip`"):building.index("- `tfwsl-VERSION.spdx.json`")]
    members_named(zip_entry, EXPECTED_MEMBERS, "docs/building.md's archive entry")
    notices(source)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
