#pragma once
// How migrate proves a file beside the user's is its own (docs/migrate.md, "Which files migrate
// may replace"): its first line is a mark that names the original and the hash of every byte after
// it. A file without the mark, or changed since (the hash no longer matches), is the user's: it is
// never replaced.

#include <string>
#include <string_view>

namespace tfwsl::migrate {

// The bytes migrate writes: "# Written by tfwsl migrate from SOURCE ... tfwsl-hash:<hash>\n" + body
// (a comment line in pip's, conda's and TOML's syntax alike).
std::string with_ownership_mark(std::string_view source, std::string_view body);

// Whether `text` carries the mark and is, after it, exactly what migrate wrote.
bool written_by_migrate(std::string_view text);

// The body after the mark (the text itself when there is none).
std::string_view without_ownership_mark(std::string_view text);

}  // namespace tfwsl::migrate
