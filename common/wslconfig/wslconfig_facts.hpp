#pragma once
// The facts of a .wslconfig for `tfwsl explain` (contract in fixtures/README.md): "wsl2" (keys as
// written, lower-cased, with their values), "memory_bytes" when memory is a valid size, plus
// "experimental" and "encoding". And a recogniser for pasted text.

#include <nlohmann/json.hpp>
#include <string_view>

#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl::wslconfig {

nlohmann::json facts_of(const Document& document);

// Confidence in [0, 1] that the text is a .wslconfig: a [wsl2]/[experimental] header (or a
// misspelling of one) with key=value lines, or known keys alone.
double looks_like_wslconfig(std::string_view text);

}  // namespace tfwsl::wslconfig
