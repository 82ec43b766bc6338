#include "common/compat/ubuntu_release.hpp"

#include <fmt/format.h>

namespace tfwsl {

std::string ubuntu_release_text(const Version& release) {
  return fmt::format("{}.{:02}", release.major(), release.minor());
}

}  // namespace tfwsl
