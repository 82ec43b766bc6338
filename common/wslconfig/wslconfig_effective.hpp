#pragma once
// What WSL will use for each documented key of a .wslconfig: the file's value when WSL accepts it,
// else WSL's default (wslconfig_keys.hpp, with its source), the machine-dependent ones worked out
// from the host's RAM and logical processors. `tfwsl wslconfig show` prints it; `--apply` compares
// the distro's MemTotal, nproc and SwapTotal with it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl::wslconfig {

struct HostShape {
  std::optional<std::uint64_t> ram_bytes;  // the Windows machine's physical memory
  std::optional<unsigned> logical_processors;
};

enum class ValueSource { file, default_value };
const char* to_string(ValueSource source);

struct EffectiveValue {
  std::string section;  // "wsl2", "experimental"
  std::string key;      // as documented
  std::string value;    // what WSL uses; for a machine default that is unknown here, the rule in words
  ValueSource source = ValueSource::default_value;
  std::size_t line = 0;                // the file's line (source file, or the ignored line)
  std::optional<std::string> ignored;  // the file's value that WSL would not accept (then default)
  std::optional<std::uint64_t> bytes;  // sizes, when known
  std::optional<std::uint64_t> count;  // processors and other numbers, when known
  // A default worked out for this machine: the rule with the numbers it took ("half of the
  // 23.5 GiB RAM"), so a person sees why it is that much; empty for fixed defaults and file values.
  std::string default_rule;
};

// One entry per documented key (the compatibility [experimental] copies of [wsl2] keys fold into
// the [wsl2] entry, which takes their value when [wsl2] does not set it).
std::vector<EffectiveValue> effective_values(const Document& document, const HostShape& host);

// The entry for a key ("memory"), or nothing.
const EffectiveValue* find_effective(const std::vector<EffectiveValue>& values, const std::string& key);

}  // namespace tfwsl::wslconfig
