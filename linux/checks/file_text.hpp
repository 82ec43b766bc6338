#pragma once
// Small file reads for the probes: /proc files report size 0, so read until EOF, bounded. (Trimming
// what they read is common/util/ascii.hpp's trim.)

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::linux_checks {

std::optional<std::string> read_text_file(const std::filesystem::path& path, std::size_t max_bytes = 1 << 20);

}  // namespace tfwsl::linux_checks
