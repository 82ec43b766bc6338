#pragma once
// Byte counts for people: "15.6 GiB". One spelling for every report.

#include <cstdint>
#include <string>

namespace tfwsl {

// Binary gibibytes with one decimal: 16'742'146'048 -> "15.6 GiB".
std::string format_gib(double bytes);
inline std::string format_gib(std::uint64_t bytes) { return format_gib(static_cast<double>(bytes)); }

}  // namespace tfwsl
