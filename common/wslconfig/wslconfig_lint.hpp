#pragma once
// What is wrong with a .wslconfig, line by line, in the ids of the `tfwsl explain` contract
// (wslconfig.unknown-section, malformed-line, inline-comment, bad-size, memory-low, custom-kernel,
// encoding) plus our own (unknown-key, key-outside-section, bad-value, memory-over-ram,
// duplicate-key). Each finding names the line and says the fix.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl::wslconfig {

enum class Severity { error, warning, info };
const char* to_string(Severity severity);

struct Finding {
  std::string id;
  Severity severity = Severity::warning;
  std::size_t line = 0;  // 1-based; 0 for the whole file
  std::string summary;
  std::string fix;
};

struct LintOptions {
  std::optional<std::uint64_t> physical_memory_bytes;  // the machine's RAM, when known
};

// TensorFlow with a GPU wants room for the input pipeline: below this, memory= is tight.
inline constexpr std::uint64_t k_memory_low_bytes = 8ULL << 30;

std::vector<Finding> lint(const Document& document, const LintOptions& options = {});

}  // namespace tfwsl::wslconfig
