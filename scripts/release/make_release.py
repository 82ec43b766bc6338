#!/usr/bin/env python3
"""Writes a tfwsl release into OUT from two built binaries (scripts/release.sh calls it):

  OUT/tfwsl-VERSION-windows-x64.zip     tfwsl.exe, tfwsl-agent, the DSC manifests, README.txt, LICENSE,
                                        THIRD-PARTY-NOTICES.txt
  OUT/tfwsl-VERSION.spdx.json           the SBOM (SPDX 2.3): the archive's files and every component in them
  OUT/winget/manifests/t/tfwsl/tfwsl/VERSION/tfwsl.tfwsl{,.installer,.locale.en-US}.yaml
  OUT/scoop/tfwsl.json
  OUT/SHA256SUMS                        sha256sum's format, of everything above

The same inputs give the same bytes: names in a fixed order, every time SOURCE_DATE_EPOCH
(--epoch), fixed permissions, no build paths. The YAML comes from PyYAML's emitter and the JSON from
the json module, never from formatted strings.
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import manifests
import sbom

EXECUTABLE = 0o100755
REGULAR = 0o100644


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def zip_time(epoch):
    t = datetime.datetime.fromtimestamp(max(epoch, 315532800), datetime.timezone.utc)  # zip starts at 1980
    return (t.year, t.month, t.day, t.hour, t.minute, t.second)


def write_zip(path, members, epoch):
    """members: [(name in the archive, file, mode)], written in name order with one time."""
    with zipfile.ZipFile(path, "w") as z:
        for name, source, mode in sorted(members):
            info = zipfile.ZipInfo(name, date_time=zip_time(epoch))
            info.create_system = 3  # Unix: unzip keeps tfwsl-agent executable
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(source, "rb") as f:
                z.writestr(info, f.read(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


def sign(exe, cert, key, timestamp_url, epoch, out):
    """Authenticode with osslsigncode: SHA-256, the project's name and URL, the signing time
    SOURCE_DATE_EPOCH (so a signed release is reproducible too, until a timestamp server's token is
    added: each one differs)."""
    command = ["osslsigncode", "sign", "-certs", cert, "-key", key, "-h", "sha256", "-n", "tfwsl",
               "-i", manifests.PROJECT["url"], "-time", str(epoch), "-in", exe, "-out", out]
    if timestamp_url:
        command[2:2] = ["-ts", timestamp_url]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def readme(template, version):
    with open(template, encoding="utf-8") as f:
        return f.read().replace("@VERSION@", version).replace("@URL@", manifests.PROJECT["url"])


def stage(args, work):
    """The archive's files in `work`: [(name, path, mode)]."""
    exe = os.path.join(work, "tfwsl.exe")
    if args.sign_cert:
        sign(args.exe, args.sign_cert, args.sign_key, args.timestamp_url, args.epoch, exe)
    else:
        shutil.copyfile(args.exe, exe)
    agent = os.path.join(work, "tfwsl-agent")
    shutil.copyfile(args.agent, agent)
    text = os.path.join(work, "README.txt")
    with open(text, "w", encoding="utf-8", newline="\r\n") as f:  # Notepad-friendly line ends
        f.write(readme(args.readme, args.version))
    members = [("tfwsl.exe", exe, EXECUTABLE), ("tfwsl-agent", agent, EXECUTABLE), ("README.txt", text, REGULAR),
               ("LICENSE", args.license, REGULAR), ("THIRD-PARTY-NOTICES.txt", args.notices, REGULAR)]
    # The DSC v3 resource manifests beside tfwsl.exe, where DSC finds them on PATH (docs/fleet.md).
    for name in sorted(os.listdir(args.dsc_manifests)) if args.dsc_manifests else []:
        if name.endswith(".dsc.resource.json"):
            members.append((name, os.path.join(args.dsc_manifests, name), REGULAR))
    return members


def write_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")


def write_sums(out):
    lines = []
    for root, _, files in os.walk(out):
        for name in files:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, out).replace(os.sep, "/")
            if rel != "SHA256SUMS":
                lines.append(f"{sha256(p)}  {rel}\n")
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        f.writelines(sorted(lines, key=lambda l: l.split("  ", 1)[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("out", "version", "commit", "exe", "agent", "readme", "license", "notices", "inventory",
                 "components", "source", "deps"):
        ap.add_argument("--" + name, required=True)
    ap.add_argument("--epoch", type=int, required=True)
    ap.add_argument("--sign-cert")
    ap.add_argument("--sign-key")
    ap.add_argument("--timestamp-url")
    ap.add_argument("--dsc-manifests", help="a folder of *.dsc.resource.json files (tfwsl dsc manifest)")
    args = ap.parse_args()
    if bool(args.sign_cert) != bool(args.sign_key):
        sys.exit("release: signing needs both TFWSL_SIGN_CERT and TFWSL_SIGN_KEY")
    os.makedirs(args.out, exist_ok=True)
    archive_name = f"tfwsl-{args.version}-windows-x64.zip"
    archive = os.path.join(args.out, archive_name)
    with tempfile.TemporaryDirectory() as work:
        members = stage(args, work)
        write_zip(archive, members, args.epoch)
        files = [(name, sbom.file_checksums(path)) for name, path, _ in sorted(members)]
    digest = sha256(archive)
    release = {"version": args.version, "commit": args.commit, "epoch": args.epoch,
               "archive": archive_name, "sha256": digest}
    with open(args.inventory) as f:
        inventory = json.load(f)
    with open(args.components) as f:
        components = json.load(f)["components"]
    write_json(os.path.join(args.out, f"tfwsl-{args.version}.spdx.json"),
               sbom.document(release, files, inventory, components, args.source, args.deps))
    manifests.write_winget(args.out, release)
    manifests.write_scoop(args.out, release)
    write_sums(args.out)
    print(f"release: {archive} ({os.path.getsize(archive)} bytes, sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
