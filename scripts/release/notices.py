#!/usr/bin/env python3
"""Writes THIRD-PARTY-NOTICES.txt: the copyright and licence text of every component of
packaging/components.json that is built into tfwsl.exe or tfwsl-agent (those without "notice": false).

  notices.py --components packaging/components.json --source SRC --deps DEPS [--out FILE | --check FILE]

The texts come from the Debian copyright files of the installed packages (and of the Debian source
packages in the dependency cache): from a machine-readable one (deb822), the paragraphs whose Files
field lists one of the component's `files`, each followed by the standalone License paragraph it only
names; from GCC's (free text), the sections named, then the GPL text Debian keeps in common-licenses.
A paragraph that only points at /usr/share/common-licenses/NAME gets that text instead of the pointer:
the notices are read on Windows, where no such path exists.
--check FILE exits 1 when FILE differs from what would be written (the release.notices test).
"""
import argparse
import json
import os
import re
import subprocess
import sys

import components_data


def deb822_paragraphs(text):
    """[{field: value}] with continuation lines kept (" ." becomes an empty line)."""
    paragraphs, current, field = [], {}, None
    for line in text.splitlines():
        if not line.strip():
            if current:
                paragraphs.append(current)
            current, field = {}, None
        elif line[0] in " \t" and field:
            current[field] += "\n" + ("" if line.strip() == "." else line.strip())
        elif ":" in line:
            field, _, value = line.partition(":")
            current[field] = value.strip()
    if current:
        paragraphs.append(current)
    return paragraphs


# Debian's pointer to a licence text it keeps once for the whole system ("On Debian systems, the
# complete text ... /usr/share/common-licenses/CC0-1.0."): a path a Windows reader has not got.
DEBIAN_LICENCE_POINTER = re.compile(r"On Debian[^\n]*?(?:\n[^\n]*?)??<?(?:file://)?(/usr/share/common-licenses/[\w.+-]+?)>?\.?$",
                                    re.MULTILINE)


def with_licence_texts(body):
    """body with each Debian pointer replaced by the text it points to, read from this machine."""
    def text_of(match):
        path = match.group(1)
        with open(path, encoding="utf-8") as f:
            return f"The full text of {os.path.basename(path)} follows.\n\n{f.read().strip()}"
    return DEBIAN_LICENCE_POINTER.sub(text_of, body)


def files_of(paragraph):
    return paragraph.get("Files", "").split()


def from_deb822(path, wanted):
    paragraphs = deb822_paragraphs(open(path, encoding="utf-8").read())
    standalone = {p["License"].split("\n")[0].strip(): p["License"] for p in paragraphs
                  if "License" in p and "Files" not in p}
    out = []
    for want in wanted:
        para = next((p for p in paragraphs if want in files_of(p)), None)
        if para is None:
            raise SystemExit(f"notices: {path} has no paragraph for Files: {want} (packaging/components.json)")
        licence = para.get("License", "")
        name, _, body = licence.partition("\n")
        if not body.strip() and name.strip() in standalone:
            body = standalone[name.strip()].partition("\n")[2]
        files = "\n       ".join(files_of(para))
        out.append(f"Files: {files}\nCopyright: {para.get('Copyright', '')}\n"
                   f"License: {name.strip()}\n{with_licence_texts(body.strip())}\n")
    return "\n".join(out)


def between(path, sections, then):
    text = open(path, encoding="utf-8").read()
    parts = []
    for start, end in sections:
        i = text.index(start)
        j = text.index(end, i) + len(end)
        parts.append(text[i:j].strip() + "\n")
    if then:
        parts.append(open(then, encoding="utf-8").read().strip() + "\n")
    return "\n".join(parts)


def notice_text(component, paths):
    c = component["copyright"]
    if "debian" in c:
        return from_deb822(paths.expand(c["debian"]), c["files"])
    if "text_between" in c:
        return between(c["text_between"], c["sections"], c.get("then"))
    return open(paths.expand(c["text"]), encoding="utf-8").read().strip() + "\n"


def render(components, paths):
    shipped = [c for c in components if c.get("notice", True)]
    head = ("THIRD-PARTY NOTICES for tfwsl (tfwsl.exe and tfwsl-agent)\n\n"
            "tfwsl is licensed under the Apache License 2.0 (LICENSE). The binaries also contain the\n"
            "third-party components below, each under its own licence, whose copyright notices and licence\n"
            "texts follow (taken from the Debian packages the release is built from). This file is generated\n"
            "by scripts/release/notices.py from packaging/components.json: do not edit it.\n\n")
    index = "".join(f"  - {c['name']} {components_data.version(c, paths)} ({c['license']}), {c['homepage']}\n"
                    for c in shipped)
    body = ""
    for c in shipped:
        rule = "=" * 78
        body += (f"\n{rule}\n{c['name']} {components_data.version(c, paths)}\n{c['homepage']}\n"
                 f"SPDX-License-Identifier: {c['license']}\n{rule}\n\n{notice_text(c, paths)}")
    return head + index + body


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--components", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--deps", required=True)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--out")
    group.add_argument("--check")
    args = ap.parse_args()
    paths = components_data.Paths(args.source, args.deps)
    text = render(json.load(open(args.components))["components"], paths)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        return 0
    current = open(args.check, encoding="utf-8").read()
    if current != text:
        diff = subprocess.run(["diff", "-u", args.check, "-"], input=text, capture_output=True, text=True).stdout
        sys.stderr.write(diff[:4000])
        print(f"notices: {args.check} is not what packaging/components.json and the installed packages give: "
              f"run scripts/release/notices.py --out {args.check} (same arguments)", file=sys.stderr)
        return 1
    print(f"ok: {args.check} names every component of {args.components}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
