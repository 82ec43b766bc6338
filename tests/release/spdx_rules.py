#!/usr/bin/env python3
"""The rules of SPDX 2.3 (https://spdx.github.io/spdx-spec/v2.3/) that its JSON schema cannot say,
checked on an SPDX JSON document. Debian 12 packages no SPDX validator (spdx-tools is PyPI's), so
these are the ones tfwsl's SBOM could break, each naming its section:

  7.2/8.2   SPDX identifiers are unique, and every relationship (11.1) names elements the document has
  7.8.1     a package with filesAnalyzed false contains no files
  7.9       a package with filesAnalyzed true (or omitted) has a packageVerificationCode: the SHA1 of
            its files' SHA1s, sorted and joined, less its packageVerificationCodeExcludedFiles
  7.13/8.5  licences are SPDX licence expressions (Annex D), and a LicenseRef- is defined in
  and 10.1  hasExtractedLicensingInfos
  8.4       every file has a SHA1 checksum (SHA1 "must be present"), in lowercase hex
and, given the archive (--archive), each file's checksums are those of its bytes. Also tfwsl's own
rule: a file that STATIC_LINKs a package concludes every licence of that package.

  spdx_rules.py DOCUMENT.spdx.json [--archive ZIP]    exit 1 and the broken rules on stdout
"""
import argparse
import hashlib
import json
import re
import sys
import zipfile

HEX = {"SHA1": 40, "SHA256": 64}
IDSTRING = re.compile(r"^(DocumentRef-[A-Za-z0-9.\-]+:)?(LicenseRef-)?[A-Za-z0-9.\-]+\+?$")
TOKEN = re.compile(r"\(|\)|[^\s()]+")


def license_operands(expression):
    """The licence ids (and 'id WITH exception') of an SPDX expression, or raises ValueError where
    Annex D's grammar refuses it: operands and AND/OR alternate, WITH joins an id to an exception,
    parentheses balance."""
    tokens = TOKEN.findall(expression)
    operands, expect_operand, depth, i = [], True, 0, 0
    while i < len(tokens):
        t = tokens[i]
        if expect_operand and t == "(":
            depth += 1
        elif not expect_operand and t == ")":
            depth -= 1
            if depth < 0:
                raise ValueError("an unopened ')'")
        elif not expect_operand and t in ("AND", "OR"):
            expect_operand = True
        elif expect_operand and IDSTRING.match(t) and t not in ("AND", "OR", "WITH"):
            if i + 1 < len(tokens) and tokens[i + 1] == "WITH":
                if i + 2 >= len(tokens) or not IDSTRING.match(tokens[i + 2]):
                    raise ValueError(f"WITH after {t} names no exception")
                operands.append(f"{t} WITH {tokens[i + 2]}")
                i += 2
            else:
                operands.append(t)
            expect_operand = False
        else:
            raise ValueError(f"unexpected {t!r}")
        i += 1
    if expect_operand or depth != 0:
        raise ValueError("it ends early or leaves a '(' open")
    return operands


def check_ids(doc):
    failures, seen = [], {"SPDXRef-DOCUMENT"}
    for element in doc.get("packages", []) + doc.get("files", []) + doc.get("snippets", []):
        if element["SPDXID"] in seen:
            failures.append(f"7.2/8.2: SPDXID {element['SPDXID']} is not unique")
        seen.add(element["SPDXID"])
    for r in doc.get("relationships", []):
        for end in (r["spdxElementId"], r["relatedSpdxElement"]):
            if end not in seen and end not in ("NONE", "NOASSERTION") and not end.startswith("DocumentRef-"):
                failures.append(f"11.1: relationship {r['relationshipType']} names {end}, which the document lacks")
    return failures


def contained_files(doc, package_id):
    by_id = {f["SPDXID"]: f for f in doc.get("files", [])}
    ids = set(next((p.get("hasFiles", []) for p in doc["packages"] if p["SPDXID"] == package_id), []))
    for r in doc.get("relationships", []):
        if r["relationshipType"] == "CONTAINS" and r["spdxElementId"] == package_id:
            ids.add(r["relatedSpdxElement"])
        if r["relationshipType"] == "CONTAINED_BY" and r["relatedSpdxElement"] == package_id:
            ids.add(r["spdxElementId"])
    return [by_id[i] for i in sorted(ids) if i in by_id]


def sha1_of(spdx_file):
    return next((c["checksumValue"] for c in spdx_file.get("checksums", []) if c["algorithm"] == "SHA1"), None)


def check_package_files(doc):
    failures = []
    for p in doc.get("packages", []):
        files, name = contained_files(doc, p["SPDXID"]), p["SPDXID"]
        if p.get("filesAnalyzed", True) is False:
            if files:
                failures.append(f"7.8.1: {name} has filesAnalyzed false yet contains {len(files)} files")
            if "packageVerificationCode" in p:
                failures.append(f"7.9: {name} has filesAnalyzed false yet a packageVerificationCode")
            continue
        code = p.get("packageVerificationCode")
        if not code:
            failures.append(f"7.9: {name} has filesAnalyzed true (or omitted) but no packageVerificationCode")
            continue
        excluded = set(code.get("packageVerificationCodeExcludedFiles", []))
        sha1s = sorted(sha1_of(f) or "" for f in files if f["fileName"] not in excluded)
        want = hashlib.sha1("".join(sha1s).encode("ascii")).hexdigest()
        if code.get("packageVerificationCodeValue") != want:
            failures.append(f"7.9: {name}'s packageVerificationCode {code.get('packageVerificationCodeValue')} is not {want}")
    return failures


def check_file_checksums(doc, archive):
    failures = []
    for f in doc.get("files", []):
        sums = {c["algorithm"]: c["checksumValue"] for c in f.get("checksums", [])}
        if "SHA1" not in sums:
            failures.append(f"8.4: file {f['fileName']} has no SHA1 checksum")
        for algorithm, value in sums.items():
            if algorithm in HEX and not re.fullmatch(f"[0-9a-f]{{{HEX[algorithm]}}}", value):
                failures.append(f"8.4: file {f['fileName']}'s {algorithm} {value!r} is not lowercase hex")
            if archive is not None and algorithm in HEX:
                data = archive.get(f["fileName"].removeprefix("./"))
                if data is None or hashlib.new(algorithm.lower(), data).hexdigest() != value:
                    failures.append(f"8.4: file {f['fileName']}'s {algorithm} is not that of the archive's bytes")
    return failures


def licence_fields(doc):
    for element in doc.get("packages", []) + doc.get("files", []):
        for key in ("licenseConcluded", "licenseDeclared"):
            if key in element:
                yield element["SPDXID"], key, element[key]
        for value in element.get("licenseInfoFromFiles", []) + element.get("licenseInfoInFiles", []):
            yield element["SPDXID"], "licenseInfo", value


def check_licences(doc):
    failures, defined = [], {e["licenseId"] for e in doc.get("hasExtractedLicensingInfos", [])}
    for element, key, value in licence_fields(doc):
        if value in ("NOASSERTION", "NONE"):
            continue
        try:
            operands = license_operands(value)
        except ValueError as e:
            failures.append(f"7.13/Annex D: {element} {key} {value!r} is no licence expression: {e}")
            continue
        for ref in {w for o in operands for w in o.split(" WITH ") if w.startswith("LicenseRef-")}:
            if ref not in defined:
                failures.append(f"10.1: {element} {key} uses {ref}, which hasExtractedLicensingInfos lacks")
    return failures


def check_static_links(doc):
    """tfwsl's rule: what a file links statically is in it, so its concluded licence includes that licence."""
    failures, elements = [], {e["SPDXID"]: e for e in doc.get("packages", []) + doc.get("files", [])}
    for r in doc.get("relationships", []):
        if r["relationshipType"] != "STATIC_LINK" or r["spdxElementId"] not in elements:
            continue
        holder, linked = elements[r["spdxElementId"]], elements.get(r["relatedSpdxElement"], {})
        try:
            have = set(license_operands(holder.get("licenseConcluded", "NOASSERTION")))
            need = set(license_operands(linked.get("licenseConcluded", "NOASSERTION")))
        except ValueError:
            continue  # check_licences names it
        if need - have:
            failures.append(f"{holder['SPDXID']} links {linked.get('SPDXID')} statically but concludes "
                            f"{holder.get('licenseConcluded')!r}, without {sorted(need - have)}")
    return failures


def check(doc, archive=None):
    """The broken rules of an SPDX 2.3 JSON document; archive: {member name: bytes} or None."""
    return (check_ids(doc) + check_package_files(doc) + check_file_checksums(doc, archive) + check_licences(doc) +
            check_static_links(doc))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("document")
    ap.add_argument("--archive")
    args = ap.parse_args()
    with open(args.document) as f:
        doc = json.load(f)
    archive = None
    if args.archive:
        with zipfile.ZipFile(args.archive) as z:
            archive = {i.filename: z.read(i) for i in z.infolist()}
    failures = check(doc, archive)
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
