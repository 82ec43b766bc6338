#pragma once
// The WSL 2 VM as the wsl.exe stand-in plays it for `tfwsl wslconfig --apply` (the Wine tests):
// WSL reads %UserProfile%\.wslconfig only when its VM boots, so here too.
//
// - `--shutdown` stops the VM. The next `--list --running` still lists the distro (the VM takes a
//   moment to stop: the docs' 8-second rule), the ones after list none, as wsl.exe does.
// - The first `--exec` after that boots it: it reads the .wslconfig (TFWSL_WSLCONFIG) as WSL would
//   (UTF-8 without BOM only; [wsl2] memory=, swap=, processors=; defaults 50 % of the RAM, 25 % of
//   memory rounded up to the GB, the logical processors) and rewrites the fake distro's
//   /proc/meminfo (MemTotal 97 % of memory, as the kernel keeps some; SwapTotal).
// - `--exec cat /proc/...` shows the fake distro's file and `--exec nproc` the VM's processors
//   (the relay would run them on the build machine).
// Before any --shutdown nothing changes, so the doctor scenarios see their distro as made.
// State: standin-vm.txt next to TFWSL_STANDIN_LOG. The distro: TFWSL_STANDIN_DISTRO (its root).
// The machine's RAM: TFWSL_TEST_HOST_RAM when set (as tfwsl.exe reads it), else Windows'.

#include <optional>
#include <string>
#include <vector>

namespace tfwsl::standin {

// The exit code when the invocation was the VM's to answer (output written); nothing otherwise.
std::optional<int> answer_as_vm(const std::vector<std::string>& args);

}  // namespace tfwsl::standin
