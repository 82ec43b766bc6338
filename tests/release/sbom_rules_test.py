#!/usr/bin/env python3
"""The SBOM scripts/release/sbom.py makes passes the SPDX 2.3 rules of spdx_rules.py and the SPDX 2.3
schema, on a fixture small enough to need no build: the archive's seven members as a few bytes each, the real
packaging/components.json with fixed versions (no dpkg), an inventory where tfwsl.exe links the
MinGW runtimes and tfwsl-agent links glibc dynamically. The rule checker is shown to catch each
rule it checks on a copy broken by hand. release.sbom runs the same rules on the real release.

  sbom_rules_test.py --source SRC
"""
import argparse
import copy
import hashlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import spdx_rules  # noqa: E402

k_members = ["LICENSE", "README.txt", "THIRD-PARTY-NOTICES.txt", "tfwsl-agent", "tfwsl.exe",
             "tfwsl.profile.dsc.resource.json", "tfwsl.wslconfig.dsc.resource.json"]
k_exe_links = ["boost", "gcc-runtime", "mingw-w64-runtime", "winpthreads", "yaml-cpp", "tfwsl"]
k_agent_links = ["boost", "gcc-runtime", "glibc", "nlohmann-json", "tfwsl"]


def fixture_sbom(source):
    sys.path.insert(0, str(pathlib.Path(source) / "scripts" / "release"))
    import sbom
    archive = {name: f"{name} of the fixture\n".encode() for name in k_members}
    files = [(name, {"SHA1": hashlib.sha1(data).hexdigest(), "SHA256": hashlib.sha256(data).hexdigest()})
             for name, data in archive.items()]
    components = json.loads((pathlib.Path(source) / "packaging/components.json").read_text())["components"]
    for c in components:
        c["version"] = {"fixed": "1.0-fixture"}
    inventory = {"binaries": {"tfwsl.exe": {"components": k_exe_links}, "tfwsl-agent": {"components": k_agent_links}}}
    release = {"version": "0.0.1", "commit": "0" * 40, "epoch": 0, "archive": "tfwsl-0.0.1-windows-x64.zip",
               "sha256": "0" * 64}
    return sbom.document(release, files, inventory, components, source, "/nonexistent-deps"), archive


def broken_copies(doc):
    """One copy per rule, each breaking only that rule, with the text its failure must hold."""
    def edit(change):
        broken = copy.deepcopy(doc)
        change(broken)
        return broken
    tfwsl = 0  # the first package is tfwsl's
    exe = next(i for i, f in enumerate(doc["files"]) if f["fileName"] == "./tfwsl.exe")
    return {
        "7.8.1": edit(lambda d: d["packages"][tfwsl].update(filesAnalyzed=False) or
                      d["packages"][tfwsl].pop("packageVerificationCode")),
        "7.9": edit(lambda d: d["packages"][tfwsl]["packageVerificationCode"].update(
            packageVerificationCodeValue="0" * 40)),
        "8.4": edit(lambda d: d["files"][exe].update(checksums=d["files"][exe]["checksums"][1:])),
        "Annex D": edit(lambda d: d["files"][exe].update(licenseConcluded="MIT AND AND BSL-1.0")),
        "10.1": edit(lambda d: d.update(hasExtractedLicensingInfos=[])),
        "links SPDXRef-Package-gcc-runtime statically": edit(lambda d: d["files"][exe].update(
            licenseConcluded="Apache-2.0")),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    doc, archive = fixture_sbom(args.source)
    failures = [f"the fixture SBOM breaks {f}" for f in spdx_rules.check(doc, archive)]
    import jsonschema  # python3-jsonschema (scripts/install-deps.sh)
    schema = json.loads((HERE / "spdx-schema" / "spdx-schema.json").read_text())
    failures += [f"the fixture SBOM: {e.message} at {list(e.path)}" for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]
    exe = next(f for f in doc["files"] if f["fileName"] == "./tfwsl.exe")
    print("tfwsl.exe concludes:", exe["licenseConcluded"])
    for want in ("GPL-3.0-or-later WITH GCC-exception-3.1", "BSL-1.0", "ZPL-2.1", "Apache-2.0"):
        if want not in spdx_rules.license_operands(exe["licenseConcluded"]):
            failures.append(f"tfwsl.exe does not conclude {want}: {exe['licenseConcluded']}")
    agent = next(f for f in doc["files"] if f["fileName"] == "./tfwsl-agent")
    if "LGPL-2.1-or-later" in agent["licenseConcluded"]:
        failures.append(f"tfwsl-agent concludes glibc's licence, which it links dynamically: {agent['licenseConcluded']}")
    for rule, broken in broken_copies(doc).items():
        found = spdx_rules.check(broken, archive)
        if not any(rule in f for f in found):
            failures.append(f"the rule checker missed a broken {rule}: it said {found}")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
