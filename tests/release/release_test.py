#!/usr/bin/env python3
"""The release (scripts/release.sh) as CTest's release.* tests run it, reusing the build folders:

  release_test.py --source SRC --windows-build W --linux-build L --work DIR --case CASE
    twice     release.sh twice into DIR/a and DIR/b: the same bytes, SHA256SUMS checks, the listing
    manifests the winget files against winget's schemas (winget-schemas/), Scoop's against its schema, both
              naming the archive's sha256; YAML that PyYAML reads back as written
    sbom      SPDX 2.3 (valid against its schema and the spec's rules of spdx_rules.py): every file of the
              archive with its sha1 and sha256, every component of the inventory with its version and licence
    sign      a throwaway self-signed certificate signs tfwsl.exe (osslsigncode), which then verifies;
              signed twice, the same bytes
The cases after `twice` read DIR/a (CTest fixture release-dist).
"""
import argparse
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import spdx_rules  # noqa: E402
EXPECTED_MEMBERS = ["LICENSE", "README.txt", "THIRD-PARTY-NOTICES.txt", "tfwsl-agent", "tfwsl.exe",
                    "tfwsl.profile.dsc.resource.json", "tfwsl.wslconfig.dsc.resource.json"]


def release(args, out, env=None):
    command = [f"{args.source}/scripts/release.sh", "--no-build", "--allow-dirty", "--windows-build", args.windows_build,
               "--linux-build", args.linux_build, "--out", str(out)]
    r = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, **(env or {})))
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode != 0:
        raise SystemExit(f"FAILED: release.sh exited {r.returncode}")
    return out


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def tree(folder):
    return {str(p.relative_to(folder)): sha256(p) for p in sorted(pathlib.Path(folder).rglob("*")) if p.is_file()}


def archive_of(dist):
    found = sorted(pathlib.Path(dist).glob("tfwsl-*-windows-x64.zip"))
    if len(found) != 1:
        raise SystemExit(f"FAILED: {dist} holds {len(found)} archives")
    return found[0]


def case_twice(args, work):
    failures = []
    shutil.rmtree(work, ignore_errors=True)
    a, b = release(args, work / "a"), release(args, work / "b")
    ta, tb = tree(a), tree(b)
    if ta != tb:
        failures.append("two releases of one commit differ: " +
                        ", ".join(k for k in sorted(set(ta) | set(tb)) if ta.get(k) != tb.get(k)))
    archive = archive_of(a)
    print(f"{archive.name}: sha256 {ta[archive.name]} (first run), {tb.get(archive.name)} (second run)")
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=a, capture_output=True, text=True)
    print(check.stdout, end="")
    if check.returncode != 0:
        failures.append("sha256sum -c SHA256SUMS failed: " + check.stdout + check.stderr)
    with zipfile.ZipFile(archive) as z:
        names = sorted(i.filename for i in z.infolist())
        for i in z.infolist():
            print(f"  {i.file_size:>10}  {i.compress_size:>10}  {oct(i.external_attr >> 16)}  {i.filename}")
        if names != EXPECTED_MEMBERS:
            failures.append(f"the archive holds {names}, not {EXPECTED_MEMBERS}")
        if len({i.date_time for i in z.infolist()}) != 1:
            failures.append("the archive's members do not share one time (SOURCE_DATE_EPOCH)")
        if not (z.getinfo("tfwsl-agent").external_attr >> 16) & 0o111:
            failures.append("tfwsl-agent is not executable in the archive")
    return failures


def load_yaml(path):
    import yaml
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def case_manifests(args, work):
    import jsonschema
    failures = []
    dist = work / "a"
    digest = sha256(archive_of(dist))
    schemas = HERE / "winget-schemas"
    files = sorted((dist / "winget").rglob("*.yaml"))
    kinds = {"version": "version", "installer": "installer", "defaultLocale": "defaultLocale"}
    # The one version kept there: the one microsoft/winget-pkgs takes (SOURCES.md).
    version = next(schemas.glob("manifest.version.*.json")).name[len("manifest.version."):-len(".json")]
    if len(files) != 3:
        failures.append(f"expected the three winget files, found {[f.name for f in files]}")
    for f in files:
        doc = load_yaml(f)
        kind = kinds.get(doc.get("ManifestType"))
        if not kind:
            failures.append(f"{f.name}: ManifestType {doc.get('ManifestType')!r}")
            continue
        schema = json.loads((schemas / f"manifest.{kind}.{version}.json").read_text())
        errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=str)
        failures += [f"{f.name}: {e.message} at {list(e.path)}" for e in errors]
        print(f"--- {f.relative_to(dist)} ({'valid' if not errors else 'INVALID'} against manifest.{kind}.{version}.json)")
        print(f.read_text(encoding="utf-8"), end="")
        if kind == "installer":
            # The validator bites: an installer type winget does not know is refused.
            if not list(jsonschema.Draft7Validator(schema).iter_errors(dict(doc, InstallerType="tarball"))):
                failures.append("winget's installer schema accepted InstallerType: tarball")
            inst = doc["Installers"][0]
            if inst["InstallerSha256"] != digest.upper():
                failures.append("the installer manifest's InstallerSha256 is not the archive's")
            nested = doc.get("NestedInstallerFiles", [])
            if doc.get("InstallerType") != "zip" or doc.get("NestedInstallerType") != "portable" or \
               nested != [{"RelativeFilePath": "tfwsl.exe", "PortableCommandAlias": "tfwsl"}]:
                failures.append(f"not a zipped portable tfwsl.exe with the alias tfwsl: {doc}")
    scoop_file = dist / "scoop" / "tfwsl.json"
    scoop = json.loads(scoop_file.read_text())
    print(f"--- scoop/tfwsl.json\n{scoop_file.read_text()}", end="")
    schema = json.loads((HERE / "scoop-schema" / "schema.json").read_text())
    failures += [f"scoop: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(scoop)]
    if scoop["architecture"]["64bit"]["hash"] != digest:
        failures.append("the Scoop manifest's hash is not the archive's")
    for key in ("url", "hash", "env_add_path", "checkver", "autoupdate"):
        if key not in json.dumps(scoop):
            failures.append(f"the Scoop manifest lacks {key}")
    return failures


def case_sbom(args, work):
    failures = []
    dist = work / "a"
    docs = sorted(dist.glob("*.spdx.json"))
    sbom = json.loads(docs[0].read_text())
    import jsonschema
    schema = json.loads((HERE / "spdx-schema" / "spdx-schema.json").read_text())
    failures += [f"SBOM: {e.message} at {list(e.path)}" for e in jsonschema.Draft7Validator(schema).iter_errors(sbom)]
    if sbom.get("spdxVersion") != "SPDX-2.3" or sbom.get("dataLicense") != "CC0-1.0":
        failures.append("not an SPDX 2.3 document")
    with zipfile.ZipFile(archive_of(dist)) as z:
        archive = {i.filename: z.read(i) for i in z.infolist()}
    members = {name: hashlib.sha256(data).hexdigest() for name, data in archive.items()}
    failures += [f"SBOM: {f}" for f in spdx_rules.check(sbom, archive)]
    files = {f["fileName"][2:]: next(c["checksumValue"] for c in f["checksums"] if c["algorithm"] == "SHA256")
             for f in sbom["files"]}
    if files != members:
        failures.append(f"the SBOM's files {files} are not the archive's {members}")
    packages = {p["name"]: p for p in sbom["packages"]}
    for p in sbom["packages"]:
        if not p.get("versionInfo") or not p.get("licenseDeclared") or p["licenseDeclared"] == "NOASSERTION":
            failures.append(f"SBOM package {p['name']} lacks a version or a licence")
        print(f"  {p['name']} {p['versionInfo']}  {p['licenseDeclared']}")
    components = json.loads((pathlib.Path(args.source) / "packaging/components.json").read_text())["components"]
    expected = {"Boost", "CLI11", "cpp-httplib", "{fmt}", "spdlog", "yaml-cpp", "xxHash", "tl::expected"}
    names = {c["name"] for c in components if c["id"] in {"nlohmann-json", "gcc-runtime", "winpthreads", "wsl-messages"}}
    for name in expected | names:
        if name not in packages:
            failures.append(f"the SBOM does not name {name}")
    links = {(r["spdxElementId"], r["relatedSpdxElement"]) for r in sbom["relationships"] if r["relationshipType"] == "STATIC_LINK"}
    if ("SPDXRef-File-tfwsl.exe", "SPDXRef-Package-winpthreads") not in links:
        failures.append("the SBOM does not say tfwsl.exe links winpthreads statically")
    return failures


def case_sign(args, work):
    failures = []
    keys = pathlib.Path(tempfile.mkdtemp(prefix="tfwsl-sign-"))
    try:
        cert, key = keys / "cert.pem", keys / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=tfwsl throwaway test signer", "-addext", "extendedKeyUsage=codeSigning",
                        "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
        # No timestamp server can be reached here: TFWSL_SIGN_TIMESTAMP_URL stays unset.
        signing = {"TFWSL_SIGN_CERT": str(cert), "TFWSL_SIGN_KEY": str(key)}
        dist = release(args, work / "signed", signing)
        again = release(args, work / "signed-again", signing)
        if sha256(archive_of(dist)) != sha256(archive_of(again)):
            failures.append("two signed releases of one commit differ (the signing time is SOURCE_DATE_EPOCH)")
        with zipfile.ZipFile(archive_of(dist)) as z:
            (keys / "tfwsl.exe").write_bytes(z.read("tfwsl.exe"))
        verify = subprocess.run(["osslsigncode", "verify", "-in", str(keys / "tfwsl.exe"), "-CAfile", str(cert)],
                                capture_output=True, text=True)
        print(verify.stdout[-1500:], verify.stderr[-500:])
        if verify.returncode != 0 or "Signature verification: ok" not in verify.stdout:
            failures.append("osslsigncode verify did not accept the signed tfwsl.exe")
        unsigned = subprocess.run(["osslsigncode", "verify", "-in", str(pathlib.Path(args.windows_build) / "win/tfwsl.exe")],
                                  capture_output=True, text=True)
        if unsigned.returncode == 0:
            failures.append("the unsigned build verified: the check cannot tell signed from unsigned")
    finally:
        shutil.rmtree(keys, ignore_errors=True)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("source", "windows-build", "linux-build", "work"):
        ap.add_argument("--" + name, required=True)
    ap.add_argument("--case", required=True, choices=["twice", "manifests", "sbom", "sign"])
    args = ap.parse_args()
    work = pathlib.Path(args.work)
    failures = globals()["case_" + args.case](args, work)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
