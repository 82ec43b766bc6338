"""The package manifests of a release: winget's three files (version, installer, defaultLocale;
schema 1.12.0, as microsoft/winget-pkgs holds zipped portable CLIs such as BurntSushi.ripgrep.MSVC)
and Scoop's (as ScoopInstaller/Main's bucket/ripgrep.json and bucket/1password-cli.json). PROJECT
says where the project lives (its URL read from project(HOMEPAGE_URL) in the top CMakeLists.txt,
the one place it is written, which tfwsl's exit-3 message and --help footer print too) and its winget
identifier (set(TFWSL_WINGET_ID) there, which `tfwsl --version` prints in its upgrade command); the
release's download URL is derived from the URL."""
import datetime
import json
import os
import re

import yaml


def top_cmakelists():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "CMakeLists.txt")
    with open(path, encoding="utf-8") as f:
        return f.read()


def project_url():
    return re.search(r'HOMEPAGE_URL\s+"([^"]+)"', top_cmakelists()).group(1)


def winget_identifier():
    """set(TFWSL_WINGET_ID ...): the one place for it; `tfwsl --version` names it in its upgrade command."""
    return re.search(r'set\(TFWSL_WINGET_ID\s+"([^"]+)"\)', top_cmakelists()).group(1)


PROJECT = {
    "identifier": winget_identifier(),
    "name": "tfwsl",
    "publisher": "tfwsl project",
    "url": project_url(),
    "license": "Apache-2.0",
    "short": "TensorFlow on your NVIDIA GPU from Windows, through WSL 2: checks, sets up and keeps a WSL distro ready",
    "description": ("tfwsl doctor checks WSL 2, the GPU driver on both sides, .wslconfig and the distro's "
                    "CUDA/TensorFlow stack without changing anything, and points at the one thing to fix first. "
                    "tfwsl provision turns a profile into a working distro; tfwsl migrate moves a Windows "
                    "TensorFlow project into WSL; tfwsl explain says what a pasted error means."),
    "tags": ["cuda", "gpu", "nvidia", "tensorflow", "wsl", "wsl2"],
    "minimum_os": "10.0.19041.0",  # Windows 10 2004: the first with WSL 2
    # Shown at install: neither package manager can run `tfwsl uninstall` for the user (winget has no
    # hook before it removes a portable package; Scoop's uninstaller and pre_uninstall scripts also
    # run on every `scoop update`, and would remove without asking), so the notes say it
    # (docs/uninstall.md).
    "uninstall_note": ("Before removing tfwsl, run `tfwsl uninstall` (try --dry-run first): it removes what tfwsl "
                       "made in your WSL distributions (the agent, its state, provision's venvs, state and logs) "
                       "and beside .wslconfig, and lists what it leaves alone. Removing the package alone leaves "
                       "them behind (docs/uninstall.md)."),
}
# The newest version microsoft/winget-pkgs' validation takes (what its merged manifests carry, such as
# BurntSushi.ripgrep.MSVC 15.2.0: 1.12.0); winget-cli publishes newer schemas (1.28.0) before the
# community repository accepts them. tests/release/winget-schemas keeps this version's schemas.
MANIFEST_VERSION = "1.12.0"


def download_url(version):
    return f"{PROJECT['url']}/releases/download/v{version}/tfwsl-{version}-windows-x64.zip"


def release_date(epoch):
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).date().isoformat()


def winget_version(release):
    return {"PackageIdentifier": PROJECT["identifier"], "PackageVersion": release["version"],
            "DefaultLocale": "en-US", "ManifestType": "version", "ManifestVersion": MANIFEST_VERSION}


def winget_installer(release):
    return {
        "PackageIdentifier": PROJECT["identifier"],
        "PackageVersion": release["version"],
        "MinimumOSVersion": PROJECT["minimum_os"],
        "InstallerType": "zip",
        "NestedInstallerType": "portable",
        # Only tfwsl.exe gets a command; tfwsl-agent stays beside it in the package folder, where
        # tfwsl.exe looks for it.
        "NestedInstallerFiles": [{"RelativeFilePath": "tfwsl.exe", "PortableCommandAlias": "tfwsl"}],
        # tfwsl.exe finds tfwsl-agent beside itself: winget puts the package folder on PATH rather than
        # linking tfwsl.exe elsewhere.
        "ArchiveBinariesDependOnPath": True,
        "ReleaseDate": release_date(release["epoch"]),
        "Installers": [{"Architecture": "x64", "InstallerUrl": download_url(release["version"]),
                        "InstallerSha256": release["sha256"].upper()}],
        "ManifestType": "installer",
        "ManifestVersion": MANIFEST_VERSION,
    }


def winget_locale(release):
    return {
        "PackageIdentifier": PROJECT["identifier"],
        "PackageVersion": release["version"],
        "PackageLocale": "en-US",
        "Publisher": PROJECT["publisher"],
        "PublisherUrl": PROJECT["url"],
        "PublisherSupportUrl": PROJECT["url"] + "/issues",
        "PackageName": PROJECT["name"],
        "PackageUrl": PROJECT["url"],
        "License": PROJECT["license"],
        "LicenseUrl": PROJECT["url"] + "/blob/v" + release["version"] + "/LICENSE",
        "ShortDescription": PROJECT["short"],
        "Description": PROJECT["description"],
        "Moniker": "tfwsl",
        "Tags": PROJECT["tags"],
        "ReleaseNotesUrl": PROJECT["url"] + "/releases/tag/v" + release["version"],
        "InstallationNotes": PROJECT["uninstall_note"],
        "ManifestType": "defaultLocale",
        "ManifestVersion": MANIFEST_VERSION,
    }


def winget_files(release):
    """{file name: (schema kind, document)}: the multi-file manifest, named as winget-pkgs names them."""
    ident = PROJECT["identifier"]
    return {f"{ident}.yaml": ("version", winget_version(release)),
            f"{ident}.installer.yaml": ("installer", winget_installer(release)),
            f"{ident}.locale.en-US.yaml": ("defaultLocale", winget_locale(release))}


def winget_folder(out, version):
    publisher, package = PROJECT["identifier"].split(".", 1)
    return os.path.join(out, "winget", "manifests", publisher[0].lower(), publisher, package, version)


def write_winget(out, release):
    folder = winget_folder(out, release["version"])
    os.makedirs(folder, exist_ok=True)
    for name, (kind, document) in winget_files(release).items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            # The comment winget-pkgs' files carry, for editors; the document itself is PyYAML's.
            f.write(f"# yaml-language-server: $schema=https://aka.ms/winget-manifest.{kind}.{MANIFEST_VERSION}.schema.json\n\n")
            yaml.safe_dump(document, f, sort_keys=False, allow_unicode=True, width=100)


def scoop(release):
    version = release["version"]
    return {
        "version": version,
        "description": PROJECT["short"],
        "homepage": PROJECT["url"],
        "license": PROJECT["license"],
        "architecture": {"64bit": {"url": download_url(version), "hash": release["sha256"]}},
        # The app's folder itself on PATH, not a shim of tfwsl.exe: DSC finds the resource manifests
        # beside tfwsl.exe by searching PATH (docs/fleet.md), and a shim folder holds none.
        "env_add_path": ".",
        "notes": PROJECT["uninstall_note"],
        "checkver": {"github": PROJECT["url"]},
        "autoupdate": {"architecture": {"64bit": {
            "url": f"{PROJECT['url']}/releases/download/v$version/tfwsl-$version-windows-x64.zip",
            # The release's SHA256SUMS holds the archive's line.
            "hash": {"url": "$baseurl/SHA256SUMS"}}}},
    }


def write_scoop(out, release):
    """scoop/tfwsl.json, indented by 4 spaces as ScoopInstaller's buckets are (their .editorconfig)."""
    path = os.path.join(out, "scoop", "tfwsl.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scoop(release), f, indent=4, ensure_ascii=False)
        f.write("\n")
