#pragma once
// A paste often holds several outputs: `wsl --version`, then `wsl -l -v`, then an nvidia-smi table,
// with the user's words between them. Its blocks (cut at the prompts, the markdown fences and the
// blank lines) are recognised one by one, and each run of blocks that one reader recognises is a
// part of the paste, so explain can report every output, not only the one it leads with.

#include <cstddef>
#include <string>
#include <vector>

#include "common/parse/paste_cleaner.hpp"

namespace tfwsl::diagnose {

struct PasteSpan {
  std::size_t first_line = 0;  // the part's lines of the cleaned text: [first_line, end_line)
  std::size_t end_line = 0;
  std::string kind;
};

// The recognised parts of `paste`, in text order; fewer than two when it holds one output (or none).
// Bounded: at most k_max_parts parts, read from the head of a long paste only.
std::vector<PasteSpan> find_parts(const CleanedPaste& paste);

// The part as a paste of its own: its lines, and the command typed at the prompt right before it.
CleanedPaste part_paste(const CleanedPaste& paste, const PasteSpan& span);

inline constexpr std::size_t k_max_parts = 8;

}  // namespace tfwsl::diagnose
