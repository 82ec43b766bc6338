#pragma once
// How deeply a JSON, YAML or TOML text nests, found by scanning the text before any parser sees it.
// The parsers we link recurse once per level while parsing (yaml-cpp), after it (toml++ walks its
// tables to set their source regions; nlohmann::json copies, compares and dumps a value level by
// level), or both, and toml++'s own limit of 256 does not count dotted keys: `a.a.a...=1` with
// 200,000 parts is 400 KB and overflows an 8 MiB stack, a Windows thread's 1 MiB far sooner. A text
// that nests deeper than a limit is refused before it is parsed.
//
// What counts as a level (strings and comments are skipped):
// - json: each open `[` or `{`;
// - yaml: each open flow `[` or `{`, and each `- ` or `? ` that opens a line's compact nesting
//   (`- - - x`); block indentation is left to yaml-cpp's own limit (2000), which one line cannot
//   reach cheaply (2000 levels of indentation are 2 MB of spaces);
// - toml: each part of a table header (`[a.b.c]` is 3) and of a dotted key (`a.b.c = 1`, counted on
//   top of the table it is in), and each open array `[` or inline table `{`.
// The scan is linear and stops at the first point past the limit. Knows nothing of the product.

#include <cstddef>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl {

enum class NestingSyntax { json, yaml, toml };

// Deeper than any configuration or message tfwsl reads (the deepest is about 6), far shallower
// than what overflows a 1 MiB stack in the parsers above.
inline constexpr std::size_t k_nesting_limit = 64;

struct NestingDepth {
  std::size_t depth = 0;  // the deepest level seen; limit + 1 when the scan stopped past the limit
  std::size_t line = 0;   // where it was reached (1-based; 0 for an empty text)
};

NestingDepth deepest_nesting(std::string_view text, NestingSyntax syntax, std::size_t limit = k_nesting_limit);

// "nested deeper than 64 levels (table header parts, dotted key parts, arrays and inline tables)":
// the problem, for a caller that names the input and the place its own way.
std::string nesting_problem(NestingSyntax syntax, std::size_t limit = k_nesting_limit);

// An ErrorCode::invalid_input naming `input_name`, the line and the limit when `text` nests deeper
// than `limit`: "NAME:LINE: nested deeper than 64 levels ...; flatten it there". Nothing otherwise.
Status check_nesting_depth(std::string_view text, NestingSyntax syntax, std::string_view input_name,
                           std::size_t limit = k_nesting_limit);

}  // namespace tfwsl
