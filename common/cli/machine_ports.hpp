#pragma once
// What a command reads of the machine beyond the terminal, as ports on the Console. The shipped
// mains leave every one empty, and the real machine is read; the test programs built beside them
// (tests/helpers/test_mains: tfwsl-test, tfwsl-agent-test) fill them from settings of their own, so
// an integration test can show a 16 GB host, a full drive or an import killed at its tenth rename
// without a shipped binary reading any test variable (a test checks the binaries' strings).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tfwsl {

struct MachinePorts {
  std::function<std::uint64_t()> host_ram_bytes;  // the host's RAM (wslconfig's defaults and limits)
  std::function<unsigned()> host_processors;      // the host's logical processors
  // The free bytes of the host drive holding a path (data push's and migrate's room check).
  std::function<std::uint64_t(const std::string& path)> host_free_bytes;
  // Where the Windows drives are mounted when tfwsl runs on Linux ("/mnt/"): migrate maps the
  // Windows paths a project names through it. Empty: the Linux here is asked (wslpath).
  std::function<std::string()> drive_root;
  // Called at each step of the dataset engine with the step's name and the file (the agent's
  // dataset import): a fault injected here lands at a chosen point of a chosen phase.
  std::function<int(std::string_view step, const std::string& path)> import_step;
};

}  // namespace tfwsl
