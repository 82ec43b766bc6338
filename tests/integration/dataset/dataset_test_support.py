"""Shared helpers for the dataset import integration tests: tree generation, an independent
content snapshot (sha256 via hashlib, not the importer's XXH3), and running the importer."""

import hashlib
import os
import random
import stat
import subprocess

STATE_DIR = b".tfwsl-import"


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                break
            h.update(chunk)
    return h.hexdigest()


def snapshot(root, with_mtime=False):
    """{relative path (bytes): ('file', sha256[, mtime_ns]) | ('link', target bytes)} under root,
    leaving out the importer's state folder at the top."""
    root = os.fsencode(root)
    result = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == b".":
            rel_dir = b""
            if STATE_DIR in dirnames:
                dirnames.remove(STATE_DIR)
        for name in list(dirnames):
            full = os.path.join(dirpath, name)
            if os.path.islink(full):  # os.walk lists symlinks to folders as folders
                dirnames.remove(name)
                filenames.append(name)
        for name in filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.join(rel_dir, name) if rel_dir else name
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                result[rel] = ("link", os.readlink(full))
            elif stat.S_ISREG(st.st_mode):
                entry = ("file", sha256_file(full))
                result[rel] = entry + (st.st_mtime_ns,) if with_mtime else entry
    return result


def make_tree(root, seed, files=5000, big_files=2, big_mb=64, dirs=60):
    """A mixed tree: many small files (most under 8 KiB, some up to 1 MiB), a few large files of
    big_mb MiB and more, nested folders, and a few symlinks (inside, outside, a loop)."""
    rng = random.Random(seed)
    os.makedirs(root, exist_ok=True)
    folders = [""]
    for i in range(dirs):
        parent = rng.choice(folders)
        folders.append(os.path.join(parent, f"d{i:03d}") if parent else f"d{i:03d}")
    for folder in folders[1:]:
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    pool = os.urandom(4 << 20)
    for i in range(files):
        r = rng.random()
        size = rng.randint(0, 8 << 10) if r < 0.80 else rng.randint(8 << 10, 64 << 10) if r < 0.98 else \
            rng.randint(64 << 10, 1 << 20)
        start = rng.randint(0, len(pool) - size)
        with open(os.path.join(root, rng.choice(folders), f"f{i:05d}.bin"), "wb") as f:
            f.write(pool[start:start + size])
    for i in range(big_files):
        size = (big_mb << 20) + i * 12345
        with open(os.path.join(root, rng.choice(folders), f"big{i}.dat"), "wb") as f:
            left = size
            while left:
                n = min(left, 8 << 20)
                f.write(os.urandom(n))
                left -= n
    os.symlink("f00000.bin", os.path.join(root, "inside-link"))
    os.symlink("/etc/passwd", os.path.join(root, "outside-link"))
    os.symlink("loop-b", os.path.join(root, "loop-a"))
    os.symlink("loop-a", os.path.join(root, "loop-b"))
    os.symlink(".", os.path.join(root, "self-loop"))


def import_command(agent, source, target, *extra):
    return [agent, "dataset", "import", "--source", source, "--target", target, *extra]


def run_import(agent, source, target, *extra, as_user=None):
    cmd = import_command(agent, source, target, *extra)
    if as_user is not None:
        cmd = ["setpriv", f"--reuid={as_user}", f"--regid={as_user}", "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True)


def check(condition, message):
    if not condition:
        raise AssertionError(message)
