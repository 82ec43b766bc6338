"""The release's SBOM, SPDX 2.3 JSON: the archive's files (with their SHA-1 and SHA-256), tfwsl itself and
every third-party component the inventory found in each binary, with its version and licence, and
how each binary holds it (STATIC_LINK, or DYNAMIC_LINK for the distro's C library).

tfwsl's package CONTAINS the archive's files, so it is analysed (filesAnalyzed true: SPDX 2.3 section
7.8.1 forbids files in a package that is not) and carries the package verification code of section
7.9. A binary's concluded licence is Apache-2.0 AND the licence of everything it links statically:
the file holds that code. tests/release/spdx_rules.py checks these rules."""
import datetime
import hashlib

import components_data
import manifests

EXTRACTED = {
    "LicenseRef-public-domain": "Public domain (mingw-w64: the files marked public-domain in /usr/share/doc/mingw-w64-common/copyright).",
    "LicenseRef-Lucent-gdtoa": "The Lucent/David M. Gay licence of mingw-w64-crt/gdtoa (THIRD-PARTY-NOTICES.txt).",
}
BINARIES = ("tfwsl.exe", "tfwsl-agent")


def spdx_id(text):
    return "".join(c if c.isalnum() or c in ".-" else "-" for c in text)


def file_checksums(path):
    """SHA1 (which SPDX 2.3 section 8.4 requires of every file) and SHA256 of a file's bytes."""
    digests = {"SHA1": hashlib.sha1(), "SHA256": hashlib.sha256()}
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            for h in digests.values():
                h.update(block)
    return {algorithm: h.hexdigest() for algorithm, h in digests.items()}


def verification_code(sha1s):
    """SPDX 2.3 section 7.9: the SHA1 of the files' lowercase hex SHA1s, sorted, joined with nothing.
    The SBOM is beside the archive, not in it, so no file is excluded."""
    return hashlib.sha1("".join(sorted(sha1s)).encode("ascii")).hexdigest()


def license_terms(expression):
    """The operands of an expression's top-level AND; one with OR stays whole, in parentheses (AND binds
    tighter than OR: SPDX 2.3 Annex D.4)."""
    if " OR " in expression or "(" in expression:
        return [f"({expression})"]
    return expression.split(" AND ")


def conjunction(expressions):
    """Licences that all apply, as one SPDX expression: each term once, sorted (reproducible)."""
    terms = sorted({t for e in expressions if e != "NOASSERTION" for t in license_terms(e)})
    return " AND ".join(terms) if terms else "NOASSERTION"


def file_entry(name, checksums, licence):
    return {"SPDXID": f"SPDXRef-File-{spdx_id(name)}", "fileName": f"./{name}",
            "checksums": [{"algorithm": a, "checksumValue": checksums[a]} for a in ("SHA1", "SHA256")],
            "licenseConcluded": licence, "copyrightText": "NOASSERTION"}


def package(component, version):
    return {"SPDXID": f"SPDXRef-Package-{spdx_id(component['id'])}", "name": component["name"],
            "versionInfo": version, "downloadLocation": "NOASSERTION", "homepage": component["homepage"],
            "filesAnalyzed": False, "licenseConcluded": component["license"],
            "licenseDeclared": component["license"], "copyrightText": "NOASSERTION",
            "supplier": "NOASSERTION"}


def tfwsl_package(release, spdx_files):
    return {"SPDXID": "SPDXRef-Package-tfwsl", "name": "tfwsl", "versionInfo": release["version"],
            "downloadLocation": manifests.download_url(release["version"]), "homepage": manifests.PROJECT["url"],
            "filesAnalyzed": True,
            "packageVerificationCode": {"packageVerificationCodeValue": verification_code(
                c["checksumValue"] for f in spdx_files for c in f["checksums"] if c["algorithm"] == "SHA1")},
            "licenseConcluded": conjunction(f["licenseConcluded"] for f in spdx_files),
            "licenseDeclared": "Apache-2.0", "copyrightText": "NOASSERTION", "supplier": "Organization: " + manifests.PROJECT["publisher"],
            "sourceInfo": f"built from commit {release['commit']}",
            "checksums": [{"algorithm": "SHA256", "checksumValue": release["sha256"]}],
            "packageFileName": release["archive"]}


def statically_linked(component):
    """glibc is the distro's own, called dynamically (components.json "notice": false)."""
    return component.get("notice", True) is not False


def file_licence(name, linked):
    """A binary holds tfwsl's code and all it links statically; README.txt and the DSC manifests are tfwsl's."""
    if name in BINARIES:
        return conjunction(["Apache-2.0"] + [c["license"] for c in linked.get(name, []) if statically_linked(c)])
    return "Apache-2.0" if name == "README.txt" or name.endswith(".dsc.resource.json") else "NOASSERTION"


def document(release, files, inventory, components, source, deps):
    """files: (name in the archive, file_checksums of its bytes), in the archive's order."""
    paths = components_data.Paths(source, deps)
    created = datetime.datetime.fromtimestamp(release["epoch"], datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    used = {}
    for binary, entry in inventory["binaries"].items():
        for cid in entry["components"]:
            if cid != "tfwsl":
                used.setdefault(cid, []).append(binary)
    by_id = {c["id"]: c for c in components}
    linked = {binary: [by_id[cid] for cid in sorted(used) if binary in used[cid]] for binary in BINARIES}
    spdx_files = [file_entry(name, checksums, file_licence(name, linked)) for name, checksums in files]
    packages = [tfwsl_package(release, spdx_files)] + [package(by_id[cid], components_data.version(by_id[cid], paths))
                                                       for cid in sorted(used)]
    relationships = [{"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                      "relatedSpdxElement": "SPDXRef-Package-tfwsl"}]
    for name, _ in files:
        relationships.append({"spdxElementId": "SPDXRef-Package-tfwsl", "relationshipType": "CONTAINS",
                              "relatedSpdxElement": f"SPDXRef-File-{spdx_id(name)}"})
    for cid in sorted(used):
        for binary in sorted(used[cid]):
            link = "STATIC_LINK" if statically_linked(by_id[cid]) else "DYNAMIC_LINK"
            relationships.append({"spdxElementId": f"SPDXRef-File-{spdx_id(binary)}", "relationshipType": link,
                                  "relatedSpdxElement": f"SPDXRef-Package-{spdx_id(cid)}"})
    refs = sorted({r for c in used for r in EXTRACTED if r in by_id[c]["license"]})
    return {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": f"tfwsl-{release['version']}-windows-x64",
        "documentNamespace": f"{manifests.PROJECT['url']}/releases/v{release['version']}/spdx/{release['sha256']}",
        "creationInfo": {"created": created, "creators": ["Tool: tfwsl scripts/release/make_release.py"]},
        "packages": packages,
        "files": spdx_files,
        "relationships": relationships,
        "hasExtractedLicensingInfos": [{"licenseId": r, "extractedText": EXTRACTED[r]} for r in refs],
    }
