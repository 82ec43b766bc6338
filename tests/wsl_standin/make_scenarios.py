#!/usr/bin/env python3
"""Writes the wsl.exe stand-in's scenario outputs (scenarios/*/*.bin) byte for byte as wsl.exe does:
UTF-16LE without BOM, CRLF line ends (what wsl.exe writes to a pipe without WSL_UTF8; the decoder
must cope with it because old builds ignore the variable). Formats follow microsoft/WSL's source
(ListDistributionsHelper's "%s %-<N>s%-16s%s\\n", MessagePackageVersions, MessageStatusDefault*,
MessageNoDefaultDistro, the usage text). Run it after changing a scenario; the .bin files are committed."""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")

def wsl_bytes(text):
    return text.replace("\n", "\r\n").encode("utf-16-le")

def list_verbose(distros):
    width = max([4] + [len(d[0]) for d in distros]) + 4
    lines = ["%s %-*s%-16s%s" % (" ", width, "NAME", "STATE", "VERSION")]
    for name, state, version, default in distros:
        lines.append("%s %-*s%-16s%s" % ("*" if default else " ", width, name, state, version))
    return "\n".join(lines) + "\n"

def version(wsl="2.1.5.0", kernel="5.15.146.1-2", windows="10.0.22631.2861"):
    return ("WSL version: %s\nKernel version: %s\nWSLg version: 1.0.60\nMSRDC version: 1.2.5105\n"
            "Direct3D version: 1.611.1-81528511\nDXCore version: 10.0.25131.1002-220531-1700.rs-onecore-base2-hyp\n"
            "Windows version: %s\n") % (wsl, kernel, windows)

def status(distro="Ubuntu-22.04", version=2):
    return "Default Distribution: %s\nDefault Version: %d\n" % (distro, version)

NO_DISTRO = ("Windows Subsystem for Linux has no installed distributions.\n"
             "You can resolve this by installing a distribution with the instructions below:\n\n"
             "Use 'wsl.exe --list --online' to list available distributions\n"
             "and 'wsl.exe --install <Distro>' to install.\n")

USAGE = ("Copyright (c) Microsoft Corporation. All rights reserved.\n\n"
         "Usage: wsl.exe [Argument] [Options...] [CommandLine]\n\n"
         "Arguments for running Linux binaries:\n\n"
         "    If no command line is provided, wsl.exe launches the default shell.\n\n"
         "    --exec, -e <CommandLine>\n"
         "        Execute the specified command without using the default Linux shell.\n\n"
         "    --\n        Pass the remaining command line as is.\n")

def old_inbox_invalid(option):
    return "Invalid command line option: %s\n" % option + USAGE

def write(scenario, name, text):
    os.makedirs(os.path.join(HERE, scenario), exist_ok=True)
    with open(os.path.join(HERE, scenario, name), "wb") as f:
        f.write(wsl_bytes(text))

UBUNTU = [("Ubuntu-22.04", "Running", 2, True)]
for s in ["healthy", "driver-parity", "tcc-gpu", "localhost-blocked", "blackwell-gpu", "driver-pair-570",
          "policy-override", "mirrored-networking"]:
    write(s, "list.bin", list_verbose(UBUNTU))
    write(s, "version.bin", version())
    write(s, "status.bin", status())
write("wsl1-default", "list.bin", list_verbose([("Ubuntu-18.04", "Running", 1, True), ("Ubuntu-22.04", "Stopped", 2, False)]))
write("wsl1-default", "version.bin", version())
write("wsl1-default", "status.bin", status("Ubuntu-18.04", 1))
write("no-distro", "list.bin", NO_DISTRO)
write("no-distro", "version.bin", version())
write("no-distro", "status.bin", NO_DISTRO)
write("old-inbox", "list.bin", list_verbose(UBUNTU))
write("old-inbox", "version.bin", old_inbox_invalid("--version"))
write("old-inbox", "status.bin", old_inbox_invalid("--status"))
# Issue 26: the default distro of a plain `wsl --install` now, Ubuntu 26.04, named "Ubuntu".
write("ubuntu-26.04-default", "list.bin", list_verbose([("Ubuntu", "Running", 2, True)]))
write("ubuntu-26.04-default", "version.bin", version())
write("ubuntu-26.04-default", "status.bin", status("Ubuntu"))
