#include "common/util/clock_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tfwsl {

std::string format_clock(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m, s);
  return fmt::format("{}:{:02}", m, s);
}

}  // namespace tfwsl
