#pragma once
// "did you mean ...": the closest known word, for unknown subcommands, options, profile keys and
// .wslconfig keys alike. The one suggestion algorithm of the project.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

// Edit distance, ASCII case-insensitive, where a swap of two neighbouring letters ("cdua" ->
// "cuda", the commonest typo) counts as one edit, like an insertion, deletion or substitution
// (the optimal string alignment distance).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, when it is close enough to be a plausible typo
// (distance <= max(1, len/3)); nothing otherwise.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace tfwsl
