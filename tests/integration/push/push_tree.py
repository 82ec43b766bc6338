"""Shared by the push tests (native and under Wine): a real tree of thousands of files generated in
a temp folder, and a byte-for-byte comparison of a pushed copy with its source."""
import hashlib
import os
import random


def make_tree(root, files=3000, big=6, seed=15):
    """`files` small files (0..24 KiB) in nested folders, plus `big` files of 1-3 MiB; returns the
    total bytes."""
    rng = random.Random(seed)
    total = 0
    for i in range(files):
        folder = os.path.join(root, f"d{i % 40:02d}", f"e{i % 7}")
        os.makedirs(folder, exist_ok=True)
        data = rng.randbytes(rng.randint(0, 24 * 1024))
        with open(os.path.join(folder, f"f{i:05d}.bin"), "wb") as f:
            f.write(data)
        total += len(data)
    for i in range(big):
        data = rng.randbytes(rng.randint(1, 3) << 20)
        with open(os.path.join(root, f"big{i}.bin"), "wb") as f:
            f.write(data)
        total += len(data)
    return total


def digest_tree(root, skip_state=True):
    """{relative path: sha256} of every regular file, without the import's state folder."""
    out = {}
    for folder, dirs, names in os.walk(root):
        if skip_state and folder == root and ".tfwsl-import" in dirs:
            dirs.remove(".tfwsl-import")
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


def compare_trees(source, target):
    """Problems, as lines: files missing, extra or different in target."""
    a, b = digest_tree(source), digest_tree(target)
    problems = [f"missing in target: {p}" for p in sorted(a.keys() - b.keys())[:5]]
    problems += [f"extra in target: {p}" for p in sorted(b.keys() - a.keys())[:5]]
    problems += [f"differs: {p}" for p in sorted(p for p in a.keys() & b.keys() if a[p] != b[p])[:5]]
    return problems


def partial_copy_problems(source, target):
    """After an interruption: every file in the target is whole (equal to its source), none extra."""
    a, b = digest_tree(source), digest_tree(target)
    problems = [f"extra in target: {p}" for p in sorted(b.keys() - a.keys())[:5]]
    problems += [f"partial or wrong: {p}" for p in sorted(p for p in b.keys() & a.keys() if a[p] != b[p])[:5]]
    return problems, len(b)
