"""The release's SBOM, SPDX 2.3 JSON: the archive's files (with their SHA-256), tfwsl itself and
every third-party component the inventory found in each binary, with its version and licence, and
how each binary holds it (STATIC_LINK, or DYNAMIC_LINK for the distro's C library)."""
import datetime

import components_data
import manifests

EXTRACTED = {
    "LicenseRef-public-domain": "Public domain (mingw-w64: the files marked public-domain in /usr/share/doc/mingw-w64-common/copyright).",
    "LicenseRef-Lucent-gdtoa": "The Lucent/David M. Gay licence of mingw-w64-crt/gdtoa (THIRD-PARTY-NOTICES.txt).",
}
BINARIES = ("tfwsl.exe", "tfwsl-agent")


def spdx_id(text):
    return "".join(c if c.isalnum() or c in ".-" else "-" for c in text)


def file_entry(name, digest, licence):
    return {"SPDXID": f"SPDXRef-File-{spdx_id(name)}", "fileName": f"./{name}",
            "checksums": [{"algorithm": "SHA256", "checksumValue": digest}],
            "licenseConcluded": licence, "copyrightText": "NOASSERTION"}


def package(component, version):
    return {"SPDXID": f"SPDXRef-Package-{spdx_id(component['id'])}", "name": component["name"],
            "versionInfo": version, "downloadLocation": "NOASSERTION", "homepage": component["homepage"],
            "filesAnalyzed": False, "licenseConcluded": component["license"],
            "licenseDeclared": component["license"], "copyrightText": "NOASSERTION",
            "supplier": "NOASSERTION"}


def tfwsl_package(release):
    return {"SPDXID": "SPDXRef-Package-tfwsl", "name": "tfwsl", "versionInfo": release["version"],
            "downloadLocation": manifests.download_url(release["version"]), "homepage": manifests.PROJECT["url"],
            "filesAnalyzed": False, "licenseConcluded": "Apache-2.0", "licenseDeclared": "Apache-2.0",
            "copyrightText": "NOASSERTION", "supplier": "Organization: " + manifests.PROJECT["publisher"],
            "sourceInfo": f"built from commit {release['commit']}",
            "checksums": [{"algorithm": "SHA256", "checksumValue": release["sha256"]}],
            "packageFileName": release["archive"]}


def document(release, files, inventory, components, source, deps):
    paths = components_data.Paths(source, deps)
    created = datetime.datetime.fromtimestamp(release["epoch"], datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    used = {}
    for binary, entry in inventory["binaries"].items():
        for cid in entry["components"]:
            if cid != "tfwsl":
                used.setdefault(cid, []).append(binary)
    by_id = {c["id"]: c for c in components}
    packages = [tfwsl_package(release)] + [package(by_id[cid], components_data.version(by_id[cid], paths))
                                           for cid in sorted(used)]
    relationships = [{"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                      "relatedSpdxElement": "SPDXRef-Package-tfwsl"}]
    spdx_files = []
    for name, digest in files:
        licence = "Apache-2.0" if name in BINARIES or name == "README.txt" or name.endswith(".dsc.resource.json") else "NOASSERTION"
        spdx_files.append(file_entry(name, digest, licence))
        relationships.append({"spdxElementId": "SPDXRef-Package-tfwsl", "relationshipType": "CONTAINS",
                              "relatedSpdxElement": f"SPDXRef-File-{spdx_id(name)}"})
    for cid in sorted(used):
        for binary in sorted(used[cid]):
            link = "DYNAMIC_LINK" if by_id[cid].get("notice", True) is False else "STATIC_LINK"
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
