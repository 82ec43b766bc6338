#!/usr/bin/env python3
"""One machine, built once (docs/architecture.md, "The machine"): the real ports (the system's process
runners, wsl.exe's client, the registry, the agent's launcher and loopback connector) are constructed only where each program builds its machine
(win/app/system_machine.cpp for tfwsl, linux/app/agent_program.cpp for tfwsl-agent) and, for the
factories, where they are defined; every verb, task, probe and step takes the machine's port or wraps
it. A test stands in for a port by building the machine with its own.
Usage: check_one_machine.py ROOT. Exit 0 when no port is built elsewhere in win/ or linux/; 1 naming
each construction with its file and line."""
import pathlib
import re
import sys

BUILDERS = {"win/app/system_machine.hpp", "win/app/system_machine.cpp", "linux/app/agent_program.cpp"}
CONSTRUCTIONS = [
    # (what, how it is built, where else it may be written: its definition)
    ("a process runner", re.compile(r"\b(SystemProcessRunner|StoppableProcessRunner|SystemAttachedRunner)\b\s*(\w+\s*[({;]|[({]|>)"), set()),
    ("wsl.exe's client", re.compile(r"\bwsl::WslClient\s+\w+\s*[({]|\bWslClient\s+m_\w+\s*;"), set()),
    ("the agent's launcher or connector",
     re.compile(r"\b(SystemChildLauncher|HttpLoopbackConnector)\s+\w+\s*[({;]|make_(unique|shared)<agent_client::"
                r"(SystemChildLauncher|HttpLoopbackConnector)>"), set()),
    ("the system registry", re.compile(r"\bmake_system_registry\s*\("),
     {"win/platform/host_platform.hpp", "win/platform/host_platform_posix.cpp", "win/platform/host_platform_windows.cpp"}),
]
COMMENT = re.compile(r"//.*$")


def constructions(root):
    found = []
    for side in ("win", "linux"):
        for path in sorted((root / side).rglob("*")):
            if path.suffix not in (".cpp", ".hpp") or not path.is_file():
                continue
            name = str(path.relative_to(root))
            if name in BUILDERS:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                code = COMMENT.sub("", line)
                for what, pattern, defined_in in CONSTRUCTIONS:
                    if name not in defined_in and pattern.search(code):
                        found.append(f"{name}:{number}: builds {what} of its own: {code.strip()}; fix: take "
                                     f"the machine's (win/tasks/machine.hpp, linux/agent/agent_machine.hpp), "
                                     f"passed down from the registry")
    return found


def main(argv):
    found = constructions(pathlib.Path(argv[1]))
    for line in found:
        print(line)
    if found:
        print(f"check_one_machine: {len(found)} port(s) built outside the machine's construction")
        return 1
    print("check_one_machine: every port of win/ and linux/ is built with the machine, once")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
