#!/usr/bin/env python3
"""A stand-in for the resource Microsoft.WinGet/Package (get, test, set of {"id": ..., "source":
...}) for dsc_engine_native.py: "installing" tfwsl.tfwsl copies the folder named by
TFWSL_STANDIN_PACKAGE (tfwsl and its DSC manifests) into TFWSL_STANDIN_INSTALL, as winget's
user-scope install puts tfwsl and its manifests in a folder it adds to the user's PATH, which only
processes started afterwards see. Microsoft.WSL is taken as installed."""
import json
import os
import shutil
import sys


def installed(package):
    if package == "tfwsl.tfwsl":
        return os.path.isdir(os.environ["TFWSL_STANDIN_INSTALL"])
    return True


def main():
    operation = sys.argv[1]
    desired = json.loads(sys.stdin.read() or "{}")
    package = desired.get("id", "")
    if operation == "set" and not installed(package):
        shutil.copytree(os.environ["TFWSL_STANDIN_PACKAGE"], os.environ["TFWSL_STANDIN_INSTALL"], symlinks=True)
    state = {"id": package, "source": desired.get("source", "winget"), "_exist": installed(package)}
    if operation == "test":
        print(json.dumps(dict(state, _inDesiredState=state["_exist"])))
        print(json.dumps([] if state["_exist"] else ["_exist"]))
    else:
        print(json.dumps(state))
    return 0


if __name__ == "__main__":
    sys.exit(main())
