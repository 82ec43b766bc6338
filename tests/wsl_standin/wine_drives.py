"""A folder of the test as a Windows drive both sides see (tests/wsl_standin/README.md):

- wine_drive(): a free drive letter of the Wine prefix linked to the folder (dosdevices), so
  tfwsl.exe sees it as X:\\;
- enter_private_mounts(): this script again in a private mount namespace (unshare -m, needs root)
  with the folder bound at /mnt/<letter>, where the relayed agent finds it as WSL's drvfs mount;
- mount_drive_in_distro(): the drvfs line in the fake distro's /proc/mounts that says so.

Without root, unshare or a free letter the test is skipped (77)."""
import os
import shutil
import subprocess
import sys

SKIPPED = 77


def add_arguments(parser):
    """The arguments the run inside the namespace gets (--inside --work DIR --drive LETTER)."""
    parser.add_argument("--inside", action="store_true")
    parser.add_argument("--work")
    parser.add_argument("--drive")


def enter_private_mounts(work, letter):
    """Re-runs this script in a private mount namespace with `work` bound at /mnt/<letter>; inside
    it (--inside on the command line), binds and returns."""
    if "--inside" in sys.argv:
        steps = [["mount", "-t", "tmpfs", "tfwsl-test-mnt", "/mnt"], ["mkdir", f"/mnt/{letter}"],
                 ["mount", "--bind", work, f"/mnt/{letter}"]]
        for step in steps:
            if subprocess.run(step, capture_output=True).returncode != 0:
                print(f"skipped: '{' '.join(step)}' failed in the private mount namespace")
                sys.exit(SKIPPED)
        return
    if os.geteuid() != 0 or not shutil.which("unshare") or not os.path.isdir("/mnt"):
        print("skipped: needs root, unshare and /mnt (a private mount namespace binds the test's folder at /mnt/<drive>)")
        sys.exit(SKIPPED)
    r = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, *sys.argv, "--inside",
                        "--work", work, "--drive", letter])
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(r.returncode)


def wine_drive(work, letters="yxwvu"):
    """The first free letter of `letters` in the Wine prefix, linked to `work`: (letter, the link)."""
    dosdevices = os.path.join(os.environ.get("WINEPREFIX", os.path.expanduser("~/.wine")), "dosdevices")
    if not os.path.isdir(dosdevices):
        print(f"skipped: no Wine prefix at {dosdevices}")
        sys.exit(SKIPPED)
    for letter in letters:
        link = os.path.join(dosdevices, f"{letter}:")
        if not os.path.lexists(link):
            os.symlink(work, link)
            return letter, link
    print(f"skipped: no free Wine drive letter among {', '.join(l.upper() + ':' for l in letters)}")
    sys.exit(SKIPPED)


def run_on_wine_drive(work, letters="yxwvu", inside_letter=None):
    """Outside the namespace: links the first free of `letters` to `work` and runs this script again
    inside one (never returns). Inside (--inside, with the letter as inside_letter): binds `work` at
    /mnt/<letter> and returns."""
    if "--inside" in sys.argv:
        enter_private_mounts(work, inside_letter)
        return
    letter, link = wine_drive(work, letters)
    try:
        enter_private_mounts(work, letter)
    finally:
        os.unlink(link)


def mount_drive_in_distro(s, letter):
    upper = letter.upper()
    with open(s.distro / "proc" / "mounts", "a") as f:
        f.write(f"{upper}:\\134 /mnt/{letter} 9p rw,noatime,dirsync,aname=drvfs;path={upper}:\\;uid=0;gid=0;"
                "symlinkroot=/mnt/,mmap,access=client,msize=65536,trans=fd,rfd=5,wfd=5 0 0\n")
