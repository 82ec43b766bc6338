#pragma once
// An Ubuntu release as Ubuntu writes it, for every message that names one.

#include <string>

#include "common/version/version.hpp"

namespace tfwsl {

// "26.04", "22.04": Ubuntu numbers its releases with two-digit months (Version's text is 26.4).
std::string ubuntu_release_text(const Version& release);

}  // namespace tfwsl
