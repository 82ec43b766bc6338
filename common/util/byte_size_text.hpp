#pragma once
// Byte counts for people: "15.6 GiB". One spelling for every report.

#include <cstdint>
#include <string>

namespace tfwsl {

// The smallest binary unit that keeps the number under 1024, one decimal past bytes:
// 17 -> "17 B", 1536 -> "1.5 KiB", 241172480 -> "230.0 MiB" (progress lines, room checks).
std::string format_bytes(double bytes);
inline std::string format_bytes(std::uint64_t bytes) { return format_bytes(static_cast<double>(bytes)); }

// Binary gibibytes with one decimal: 16'742'146'048 -> "15.6 GiB".
std::string format_gib(double bytes);
inline std::string format_gib(std::uint64_t bytes) { return format_gib(static_cast<double>(bytes)); }

}  // namespace tfwsl
