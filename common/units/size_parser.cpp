#include "common/units/size_parser.hpp"

#include <fmt/format.h>

#include <array>
#include <limits>

#include "common/util/ascii.hpp"

namespace tfwsl {
namespace {

struct Unit {
  std::string_view suffix;
  std::uint64_t multiplier;
};

// Longest suffixes first is irrelevant here (the whole remainder must match), but the order is the
// one format_wsl_size tries: largest unit first.
constexpr std::array<Unit, 9> k_units{{
    {"TB", 1ULL << 40},
    {"T", 1ULL << 40},
    {"GB", 1ULL << 30},
    {"G", 1ULL << 30},
    {"MB", 1ULL << 20},
    {"M", 1ULL << 20},
    {"KB", 1ULL << 10},
    {"K", 1ULL << 10},
    {"B", 1},
}};

tl::unexpected<Error> size_error(std::string_view text, std::string_view why) {
  return make_error(ErrorCode::invalid_input,
                    fmt::format("invalid size '{}': {}; write a whole number followed by B, KB, MB, GB or TB "
                                "with no space, e.g. 16GB or 512MB",
                                text, why));
}

}  // namespace

Result<std::uint64_t> parse_wsl_size(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size() && ascii_is_space(text[pos])) ++pos;
  const std::size_t digits_start = pos;
  std::uint64_t value = 0;
  while (pos < text.size() && ascii_is_digit(text[pos])) {
    const auto digit = static_cast<std::uint64_t>(text[pos] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return size_error(text, "too large");
    value = value * 10 + digit;
    ++pos;
  }
  if (pos == digits_start) {
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) return size_error(text, "a sign is not allowed");
    return size_error(text, text.empty() ? "it is empty" : "it does not start with a number");
  }
  const std::string_view suffix = text.substr(pos);
  if (suffix.empty()) return value;  // bytes: "the unit is omissible"
  for (const Unit& unit : k_units) {
    if (suffix != unit.suffix) continue;
    if (unit.multiplier != 1 && value > std::numeric_limits<std::uint64_t>::max() / unit.multiplier)
      return size_error(text, "too large");
    return value * unit.multiplier;
  }
  if (suffix.front() == '.') return size_error(text, "WSL accepts whole numbers only");
  if (ascii_is_space(suffix.front())) return size_error(text, "WSL rejects a space between the number and the unit");
  std::string upper;
  for (char c : suffix) upper.push_back(ascii_upper(c));
  for (const Unit& unit : k_units) {
    if (upper == unit.suffix)
      return size_error(text, fmt::format("WSL only understands the upper-case unit '{}'", unit.suffix));
  }
  if (upper == "KIB" || upper == "MIB" || upper == "GIB" || upper == "TIB")
    return size_error(text, "WSL does not understand the IEC units KiB/MiB/GiB/TiB (its KB/MB/GB are already binary)");
  return size_error(text, fmt::format("unknown unit '{}'", suffix));
}

std::string format_wsl_size(std::uint64_t bytes) {
  if (bytes == 0) return "0B";
  for (const Unit& unit : k_units) {
    if (unit.suffix.size() != 2) continue;  // the two-letter forms read best: 16GB, not 16G
    if (bytes % unit.multiplier == 0) return fmt::format("{}{}", bytes / unit.multiplier, unit.suffix);
  }
  return fmt::format("{}B", bytes);
}

}  // namespace tfwsl
