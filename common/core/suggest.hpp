#pragma once
// "did you mean ...": the closest known word by edit distance, for unknown subcommands, profile
// keys and .wslconfig keys alike.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

// Levenshtein distance, ASCII case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, when it is close enough to be a plausible typo
// (distance <= max(1, len/3)); nothing otherwise.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace tfwsl
