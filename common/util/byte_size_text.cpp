#include "common/util/byte_size_text.hpp"

#include <fmt/format.h>

namespace tfwsl {

std::string format_gib(double bytes) { return fmt::format("{:.1f} GiB", bytes / double(1ull << 30)); }

}  // namespace tfwsl
