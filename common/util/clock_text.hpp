#pragma once
// Elapsed and remaining times for people, as a clock reads: "0:07", "1:02:03".

#include <string>

namespace tfwsl {

// Whole seconds (rounded, never negative) as M:SS, or H:MM:SS from an hour on.
std::string format_clock(double seconds);

}  // namespace tfwsl
