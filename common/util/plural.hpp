#pragma once
// A count and its noun for people: "1 file", "2 files", "0 files". The caller gives both forms
// (English plurals are not rules: "category"/"categories", "was"/"were").

#include <cstdint>
#include <string>
#include <string_view>

namespace tfwsl {

// The noun alone, for texts that place the number themselves ("the 1 setting compared").
std::string_view plural_noun(std::uint64_t n, std::string_view one, std::string_view many);
// The number, a space and the noun: plural(1, "file", "files") == "1 file".
std::string plural(std::uint64_t n, std::string_view one, std::string_view many);

}  // namespace tfwsl
