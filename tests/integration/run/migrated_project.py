"""A migrated project as `tfwsl run` finds it, for run_native.py and tests/windows/run_session.py:
its original (the folder migrate read), its WSL copy, a real venv (python3 -m venv) and an imported
dataset, with the record migrate writes in both folders (.tfwsl/wsl-copy.json,
win/migrate/wsl_copy_record.hpp). `windows_path` turns a folder into the path migrate recorded for
it (itself natively, Z:\\... under Wine)."""
import json
import pathlib
import subprocess
import sys
import time


class MigratedProject:
    def __init__(self, root, windows_path=str, checked_ago=7200):
        self.root = pathlib.Path(root)
        self.original = self.root / "original"  # the project as migrate read it
        self.copy = self.root / "copy"  # its WSL copy
        self.venv = self.root / "venv"
        self.data = self.root / "datasets" / "flowers"
        self.windows_path = windows_path
        self.checked_ago = checked_ago
        for folder in (self.original / "scripts", self.copy / "scripts", self.data):
            folder.mkdir(parents=True)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(self.venv)], check=True)
        (self.copy / "notexec.sh").write_text("#!/bin/sh\necho no\n")
        self.write_record()

    def record(self, **changes):
        r = {"schema": "tfwsl.wsl-copy", "version": 1, "windows_path": self.windows_path(self.original),
             "distro": "Ubuntu-22.04", "linux_path": str(self.copy), "profile": "tf-2.15-cuda-12.2",
             "venv": str(self.venv), "python": "3.11", "env": {"TF_USE_LEGACY_KERAS": "1"},
             "path_map": {"D:\\data\\flowers": str(self.data)},
             "gpu": {"ok": True, "summary": "TensorFlow 2.15.1 sees 1 GPU",
                     "checked_at": int(time.time()) - self.checked_ago}}
        r.update(changes)
        return r

    def write_record(self, **changes):
        for folder in (self.original, self.copy):
            (folder / ".tfwsl").mkdir(exist_ok=True)
            (folder / ".tfwsl" / "wsl-copy.json").write_bytes(json.dumps(self.record(**changes)).encode())
