#!/usr/bin/env python3
"""The folder order of win/ and linux/ (docs/architecture.md, "Layers"): each side's folders stand in
layers, lowest first, and a file may include a file of its own folder or of a folder below it, never
one above (a verb cannot be included by a task, a task by a port). And the verbs stay apart: no
file of win/commands/ or linux/commands/ includes another command's file, only its own header, so a
verb is read, changed and removed on its own.

The order is the link order of the folders' libraries (win/CMakeLists.txt, linux/CMakeLists.txt);
this check reads the includes themselves, which a header-only dependency would slip past the linker.
Usage: check_folder_order.py ROOT [--tree DIR]. Exit 0 in order, 1 with each include out of order
named with its file, line and the fix."""
import pathlib
import re
import sys

LAYERS = {
    "win": ["wsl", "host", "agent_client", "platform", "push", "agent_service", "doctor", "migrate", "profile", "render",
            "tasks", "fleet", "commands", "app"],
    "linux": ["portability", "checks", "dataset", "provision", "venv", "project", "agent", "commands", "app"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(win|linux)/([a-z_]+)/([^"]+)"')


def problems_in(root):
    found = []
    for side, order in LAYERS.items():
        rank = {folder: i for i, folder in enumerate(order)}
        base = root / side
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".cpp", ".hpp") or not path.is_file():
                continue
            folder = path.relative_to(base).parts[0] if len(path.relative_to(base).parts) > 1 else None
            if folder is None:
                found.append(f"{path.relative_to(root)}: a source file directly in {side}/; "
                             f"fix: move it into the folder of its layer ({', '.join(order)})")
                continue
            if folder not in rank:
                found.append(f"{path.relative_to(root)}: folder {side}/{folder} has no layer; fix: add it to "
                             f"LAYERS in tests/layering/check_folder_order.py and to docs/architecture.md")
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match or match.group(1) != side:
                    continue
                target, name = match.group(2), match.group(3)
                where = f"{path.relative_to(root)}:{number}"
                if target not in rank:
                    found.append(f"{where}: includes {side}/{target}/{name}, a folder with no layer")
                elif rank[target] > rank[folder]:
                    found.append(f"{where}: {side}/{folder}/ includes {side}/{target}/{name}, a layer above it; "
                                 f"fix: move what it needs down to {side}/{folder}/ or below, or pass it in")
                elif folder == target == "commands" and pathlib.Path(name).stem != path.stem:
                    found.append(f"{where}: the verb {path.name} includes another command's file {name}; fix: "
                                 f"move what both use into a folder below {side}/commands/, or compose the verbs "
                                 f"in {side}/app/")
    return found


def main(argv):
    root = pathlib.Path(argv[1])
    found = problems_in(root)
    for line in found:
        print(line)
    if found:
        print(f"check_folder_order: {len(found)} include(s) out of the folder order")
        return 1
    print("check_folder_order: every include of win/ and linux/ in the folder order")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
