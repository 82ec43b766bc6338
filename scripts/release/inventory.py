#!/usr/bin/env python3
"""What a built binary is made of: every file the build used for it, named by component.

  inventory.py --source SRC --deps DEPS --components packaging/components.json \
               --binary BUILD_DIR:TARGET [--binary ...] [--json OUT]
  inventory.py ... --classify PATH...     (name the component of each PATH; for the tests)

For each binary (a ninja build folder and a target in it, e.g. build/windows:win/tfwsl.exe) it reads
  - `ninja -t inputs TARGET`: the sources and data files (profiles/ included) the target is built from,
  - `ninja -t deps` of every object `ninja -t commands TARGET` compiles: the headers each included,
  - TARGET.map, the linker's map: the archive members and objects the linker put in (libstdc++,
    winpthreads, yaml-cpp, the C runtime's startup files).
Each file is named by the first rule of packaging/components.json that matches it: a path rule
(@source/, @deps/ or absolute prefixes), else the Debian package that owns it (dpkg -S). Files of
the source tree and the build folder are tfwsl's own. A file nothing names is listed under
"unnamed" and the exit status is 1: a new dependency cannot be shipped without a notice.
"""
import argparse
import json
import os
import re
import subprocess
import sys

OWN = "tfwsl"


def ninja(build_dir, *args):
    return subprocess.run(["ninja", "-C", build_dir, *args], check=True, capture_output=True, text=True).stdout


def absolute(build_dir, path):
    return os.path.realpath(path if os.path.isabs(path) else os.path.join(build_dir, path))


def compiled_objects(build_dir, target):
    """The object files the target's compile commands write (`-o OBJ` of each compiler call)."""
    objects = []
    for line in ninja(build_dir, "-t", "commands", target).splitlines():
        if " -c " not in line:
            continue
        match = re.search(r"\s-o\s+(\S+)", line)
        if match:
            objects.append(match.group(1))
    return objects


def header_deps(build_dir, objects):
    paths = set()
    for start in range(0, len(objects), 200):
        for line in ninja(build_dir, "-t", "deps", *objects[start:start + 200]).splitlines():
            if line.startswith("    "):
                paths.add(line.strip())
    return paths


def map_members(map_path):
    """Archive members ("lib.a(member.o)") and objects (LOAD x.o) the linker used."""
    if not os.path.exists(map_path):
        raise SystemExit(f"inventory: {map_path} is missing: the target must be linked with -Map (win/CMakeLists.txt)")
    paths = set()
    in_members = False
    with open(map_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("Archive member included"):
                in_members = True
                continue
            if in_members and re.match(r"^(Discarded input sections|Allocating common symbols|Memory Configuration)", line):
                in_members = False
            if in_members:
                match = re.match(r"^(\S+\.a)\(", line)
                if match:
                    paths.add(match.group(1))
            match = re.match(r"^LOAD (\S+\.(?:o|obj))$", line.rstrip())
            if match:
                paths.add(match.group(1))
    return paths


def used_files(build_dir, target):
    files = set(ninja(build_dir, "-t", "inputs", target).split())
    files |= header_deps(build_dir, compiled_objects(build_dir, target))
    files |= map_members(os.path.join(build_dir, target) + ".map")
    return {absolute(build_dir, p) for p in files}


class Classifier:
    def __init__(self, components, source, deps, build_dirs):
        self.components = components
        self.source = os.path.realpath(source)
        self.deps = os.path.realpath(deps)
        self.build_dirs = [os.path.realpath(b) for b in build_dirs]
        self.by_package = {pkg: c["id"] for c in components for pkg in c.get("packages", [])}
        self.rules = [(self.expand(p), c["id"]) for c in components for p in c.get("paths", [])]

    def expand(self, pattern):
        pattern = pattern.replace("@source/", self.source + "/").replace("@deps/", self.deps + "/")
        return pattern

    def by_path(self, path):
        for prefix, cid in self.rules:
            if path.startswith(prefix):
                return cid
        if any(path.startswith(b + "/") for b in self.build_dirs) or path.startswith(self.source + "/"):
            return OWN
        return None

    def classify(self, paths):
        named, rest = {}, []
        for p in sorted(paths):
            cid = self.by_path(p)
            if cid:
                named[p] = cid
            else:
                rest.append(p)
        owners = dpkg_owners(rest)
        unnamed = []
        for p in rest:
            packages = owners.get(p, [])
            cid = next((self.by_package[pkg] for pkg in packages if pkg in self.by_package), None)
            if cid:
                named[p] = cid
            else:
                unnamed.append({"path": p, "debian_package": ", ".join(packages) or None})
        return named, unnamed


def dpkg_owners(paths):
    """{path: [packages]} from dpkg -S; on a merged-/usr system dpkg knows /lib/... for /usr/lib/..."""
    def query(candidates):
        if not candidates:
            return {}
        out = subprocess.run(["dpkg-query", "-S", *candidates], capture_output=True, text=True).stdout
        owners = {}
        for line in out.splitlines():
            if line.startswith("diversion "):
                continue
            pkgs, _, path = line.partition(": ")
            owners[path] = [p.strip().split(":")[0] for p in pkgs.split(",")]
        return owners
    owners = {}
    for start in range(0, len(paths), 500):
        owners.update(query(paths[start:start + 500]))
    missing = [p for p in paths if p not in owners]
    aliases = {}
    for p in missing:
        for usr in ("/usr/lib/", "/usr/bin/", "/usr/sbin/"):
            if p.startswith(usr):
                aliases[p[len("/usr"):]] = p
    for alias, path in query(sorted(aliases)).items():
        owners[aliases[alias]] = path
    return owners


def inventory(args):
    comps = json.load(open(args.components))["components"]
    binaries = [b.split(":", 1) for b in args.binary]
    classifier = Classifier(comps, args.source, args.deps, [b for b, _ in binaries])
    if args.classify:
        named, unnamed = classifier.classify({os.path.realpath(p) for p in args.classify})
        return {"named": named, "unnamed": unnamed}
    result = {"binaries": {}, "unnamed": []}
    for build_dir, target in binaries:
        named, unnamed = classifier.classify(used_files(build_dir, target))
        counts = {}
        for cid in named.values():
            counts[cid] = counts.get(cid, 0) + 1
        name = os.path.basename(target)
        result["binaries"][name] = {"build": build_dir, "target": target, "components": dict(sorted(counts.items()))}
        result["unnamed"] += [dict(u, binary=name) for u in unnamed]
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", required=True)
    ap.add_argument("--deps", required=True)
    ap.add_argument("--components", required=True)
    ap.add_argument("--binary", action="append", default=[], help="BUILD_DIR:TARGET")
    ap.add_argument("--json", help="write the inventory here")
    ap.add_argument("--classify", nargs="+")
    args = ap.parse_args()
    result = inventory(args)
    text = json.dumps(result, indent=2, sort_keys=True) + "\n"
    if args.json:
        with open(args.json, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for u in result["unnamed"]:
        owner = f" (Debian package {u['debian_package']})" if u["debian_package"] else " (no Debian package owns it)"
        print(f"inventory: {u['path']}{owner} is built into {u.get('binary', 'the binary')} but no component of "
              f"{args.components} names it: add it there, with its licence", file=sys.stderr)
    return 1 if result["unnamed"] else 0


if __name__ == "__main__":
    sys.exit(main())
