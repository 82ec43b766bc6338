#!/usr/bin/env python3
"""The folder-order checker on made-up trees: a task including a verb, a port including a task and
a verb including another verb are each named; a tree in order passes.
Usage: check_folder_order_test.py CHECKER. Exit 0 when the checker behaves, 1 otherwise."""
import importlib.util
import pathlib
import sys
import tempfile

spec = importlib.util.spec_from_file_location("check_folder_order", sys.argv[1])
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)


def tree(files):
    root = pathlib.Path(tempfile.mkdtemp())
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


IN_ORDER = {
    "win/commands/doctor_command.cpp": '#include "win/commands/doctor_command.hpp"\n#include "win/tasks/doctor_fix.hpp"\n',
    "win/tasks/doctor_fix.cpp": '#include "win/render/doctor_header.hpp"\n#include "win/host/registry.hpp"\n',
    "win/app/command_registry.cpp": '#include "win/commands/doctor_command.hpp"\n',
    "linux/commands/serve_command.cpp": '#include "linux/agent/http_server.hpp"\n',
}
CASES = [
    ("in order", IN_ORDER, []),
    ("a task includes a verb", {"win/tasks/push_setup.cpp": '#include "win/commands/data_command.hpp"\n'},
     ["win/tasks/push_setup.cpp:1"]),
    ("a port includes a task", {"win/platform/install_places.cpp": '#include "win/tasks/agent_upgrade.hpp"\n'},
     ["win/platform/install_places.cpp:1"]),
    ("a verb includes a verb", {"win/commands/profile_command.cpp": '\n#include "win/commands/doctor_command.hpp"\n'},
     ["win/commands/profile_command.cpp:2"]),
    ("the agent's service includes its verbs", {"linux/agent/router.cpp": '#include "linux/commands/serve_command.hpp"\n'},
     ["linux/agent/router.cpp:1"]),
    ("a folder with no layer", {"win/tools/x.cpp": "\n"}, ["win/tools/x.cpp"]),
]

failed = 0
for name, files, expected in CASES:
    found = checker.problems_in(tree(files))
    named = [line.split(": ")[0] for line in found]
    if named != expected:
        failed += 1
        print(f"FAIL {name}: expected {expected}, found {found}")
    else:
        print(f"ok   {name}")
sys.exit(1 if failed else 0)
