"""packaging/components.json's placeholders and versions, shared by notices.py and make_release.py."""
import re
import subprocess


class Paths:
    def __init__(self, source, deps):
        self.source = source.rstrip("/")
        self.deps = deps.rstrip("/")

    def expand(self, path):
        return path.replace("@source/", self.source + "/").replace("@deps/", self.deps + "/")


def upstream(debian_version):
    """'1:1.10.0+ds-0.4' -> '1.10.0': no epoch, Debian revision or repack suffix (+ds, +dfsg, ~dfsg)."""
    v = debian_version.strip()
    v = v.split(":", 1)[1] if ":" in v else v
    v = v.rsplit("-", 1)[0] if "-" in v else v
    return re.split(r"[+~]", v)[0]


def version(component, paths):
    v = component["version"]
    if "fixed" in v:
        return v["fixed"]
    if "debian_version_file" in v:
        return upstream(open(paths.expand(v["debian_version_file"])).read())
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", v["dpkg"]], capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout:
        raise SystemExit(f"components: the Debian package {v['dpkg']} is not installed (scripts/install-deps.sh)")
    return upstream(out.stdout)
