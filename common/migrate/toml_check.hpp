#pragma once
// Whether a text is TOML enough to trust what the requirements parser read from it: every line is a
// table header, a `key = value`, a comment, blank, or inside an open array, inline table or
// multi-line string; strings close. Not a TOML parser: the problems a hand-edited pyproject.toml
// really has (a missing quote or bracket, a stray line) are what it finds.

#include <optional>
#include <string>
#include <string_view>

namespace tfwsl::migrate {

// "line 7: ..." for the first problem; nothing when the text reads as TOML.
std::optional<std::string> toml_problem(std::string_view text);

}  // namespace tfwsl::migrate
