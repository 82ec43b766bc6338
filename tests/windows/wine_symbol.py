#!/usr/bin/env python3
"""wine_symbol.py ADDRESS... : names the Wine module and export an address of a Wine crash falls in.

Wine loads its own PE modules (ntdll.dll, ntoskrnl.exe, ...) at the image base each was linked at,
so "wine: Unhandled page fault ... at address 000000031CAA2391" can be read without the crashed
process: the module whose [ImageBase, ImageBase + SizeOfImage) holds the address, and the nearest
export below it (ntoskrnl.exe!IoCreateDevice+0x261). Prints one line per address; "unknown" for an
address outside every module (a program's own code: every .exe shares one base, or a relocated
module).

--wine-dir DIR: Wine's PE modules (default: the x86_64-windows folder Debian's wine64 installs).
--address-of MODULE!EXPORT: prints that export's address instead (for a debugger's breakpoint).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

DEFAULT_DIRS = ["/usr/lib/x86_64-linux-gnu/wine/x86_64-windows", "/usr/lib/wine/x86_64-windows"]
# Every 64-bit program is linked at this base (Wine's own programs, tfwsl.exe): an address there
# says nothing about which one.
EXE_BASE = 0x140000000


def objdump_headers(path):
    return subprocess.run(["x86_64-w64-mingw32-objdump", "-p", path], capture_output=True, text=True).stdout


def image_range(text):
    base = re.search(r"^ImageBase\s+([0-9a-fA-F]+)", text, re.M)
    size = re.search(r"^SizeOfImage\s+([0-9a-fA-F]+)", text, re.M)
    if not base or not size:
        return None
    return int(base.group(1), 16), int(size.group(1), 16)


def exports(text):
    """{name: rva} from objdump's export tables (address table by index, names by the same index)."""
    rvas = {int(m.group(1)): int(m.group(2), 16)
            for m in re.finditer(r"\[\s*(\d+)\] \+base\[\s*\d+\]\s+([0-9a-f]+) Export RVA", text)}
    names = {}
    if "[Ordinal/Name Pointer] Table" in text:
        for m in re.finditer(r"\[\s*(\d+)\] (\S+)", text.split("[Ordinal/Name Pointer] Table", 1)[1]):
            names[int(m.group(1))] = m.group(2)
    return {names[i]: rva for i, rva in rvas.items() if i in names}


def modules(wine_dir):
    for path in sorted(glob.glob(os.path.join(wine_dir, "*.dll")) + glob.glob(os.path.join(wine_dir, "*.exe"))
                       + glob.glob(os.path.join(wine_dir, "*.sys"))):
        yield path


def name_address(address, wine_dir):
    for path in modules(wine_dir):
        text = objdump_headers(path)
        found = image_range(text)
        if not found or found[0] == EXE_BASE or not found[0] <= address < found[0] + found[1]:
            continue
        base = found[0]
        below = [(rva, name) for name, rva in exports(text).items() if rva <= address - base]
        module = os.path.basename(path)
        if not below:
            return f"{module}+{address - base:#x}"
        rva, name = max(below)
        return f"{module}!{name}+{address - base - rva:#x}"
    return "unknown"


def address_of(spec, wine_dir):
    module, _, export = spec.partition("!")
    text = objdump_headers(os.path.join(wine_dir, module))
    found, table = image_range(text), exports(text)
    if not found or export not in table:
        sys.exit(f"wine_symbol.py: no export {export} in {module}")
    return found[0] + table[export]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("addresses", nargs="*")
    parser.add_argument("--wine-dir", default=next((d for d in DEFAULT_DIRS if os.path.isdir(d)), DEFAULT_DIRS[0]))
    parser.add_argument("--address-of")
    args = parser.parse_args()
    if args.address_of:
        print(f"{address_of(args.address_of, args.wine_dir):#x}")
        return
    for text in args.addresses:
        print(f"{text} {name_address(int(text, 16), args.wine_dir)}")


if __name__ == "__main__":
    main()
