#include "common/util/atomic_file.hpp"

#include <cstdlib>
#include <string>

namespace tfwsl {

ReplaceFault replace_fault_from_environment() {
  const char* value = std::getenv(k_replace_fault_env);
  if (value == nullptr) return ReplaceFault::none;
  const std::string_view stage = value;
  if (stage == "half-written") return ReplaceFault::half_written;
  if (stage == "before-swap") return ReplaceFault::before_swap;
  return ReplaceFault::none;
}

std::string shown_path(const std::filesystem::path& path) {
  const auto text = path.u8string();
  return std::string(text.begin(), text.end());
}

}  // namespace tfwsl
