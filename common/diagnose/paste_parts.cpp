#include "common/diagnose/paste_parts.hpp"

#include <algorithm>
#include <string_view>

#include "common/diagnose/kind_detector.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::diagnose {
namespace {

// A block read alone must be recognised clearly to count as an output of its own: a whole output,
// or an output right after the command that printed it. What issue templates ask for in their
// environment tables ("WSL version: ...", "Kernel version: ...", nvidia-smi's header line alone)
// scores 0.75 and is not one.
constexpr double k_part_score = 0.8;
// The head of a paste says what it holds; the rest costs without telling more.
constexpr std::size_t k_max_lines = 4000;
constexpr std::size_t k_max_blocks = 200;

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

// [first, end) line ranges cut at each break and each blank line, blank lines left out.
std::vector<PasteSpan> blocks_of(const std::vector<std::string_view>& lines, const std::vector<PasteBreak>& breaks) {
  std::vector<PasteSpan> blocks;
  const std::size_t count = std::min(lines.size(), k_max_lines);
  auto next_break = breaks.begin();
  std::size_t start = 0;
  for (std::size_t i = 0; i <= count && blocks.size() < k_max_blocks; ++i) {
    bool at_break = false;
    while (next_break != breaks.end() && next_break->line <= i) at_break |= (next_break++)->line == i;
    if (i == count || at_break || blank(lines[i])) {
      if (i > start) blocks.push_back({start, i, ""});
      start = i == count || !blank(lines[i]) ? i : i + 1;
    }
  }
  return blocks;
}

// The command typed at the prompt whose output starts at `line`, or "".
const std::string* command_before(const CleanedPaste& paste, std::size_t line) {
  for (const auto& b : paste.breaks) {
    if (b.line == line && !b.command.empty()) return &b.command;
  }
  return nullptr;
}

std::string joined(const std::vector<std::string_view>& lines, std::size_t first, std::size_t end) {
  std::string text;
  for (std::size_t i = first; i < end; ++i) {
    text.append(lines[i].data(), lines[i].size());
    text += '\n';
  }
  return text;
}

CleanedPaste paste_of(const CleanedPaste& paste, const std::vector<std::string_view>& lines, const PasteSpan& span) {
  CleanedPaste part;
  part.text = joined(lines, span.first_line, span.end_line);
  part.encoding = paste.encoding;
  if (const std::string* command = command_before(paste, span.first_line)) {
    part.commands.push_back(*command);
    if (std::find(paste.windows_commands.begin(), paste.windows_commands.end(), *command) != paste.windows_commands.end())
      part.windows_commands.push_back(*command);
  }
  return part;
}

// "2.15", "=3.10", ">=1.2": a version after the operators, not "= Linux Ubuntu" of a template.
bool pins_a_version(std::string_view spec) {
  const std::size_t at = spec.find_first_not_of("=<>!~^ ");
  return at != std::string_view::npos && spec[at] >= '0' && spec[at] <= '9';
}

// Prose reads as bare package names ("ubuntu", "10-0-22000-1098"), a template's "python = 3.10" is
// the interpreter, and an install command is a command, not an output: a list of requirements is
// a part only with TensorFlow in it or with two packages pinned to versions, outside `pip install`
// / `conda install` lines.
bool lists_requirements(std::string_view text) {
  const std::vector<std::string_view> lines = lines_of(text);
  const parse::RequirementsResult parsed = parse::parse_requirements(text);
  std::size_t pinned = 0;
  for (const auto& r : parsed.requirements) {
    const std::string_view line = r.line > 0 && std::size_t(r.line) <= lines.size() ? lines[r.line - 1] : std::string_view();
    if (icontains(line, " install ")) continue;
    if (parse::is_tensorflow_distribution(r.package)) return true;
    if (r.package != "python" && pins_a_version(r.spec)) ++pinned;
  }
  return pinned >= 2;
}

std::string clear_kind(const CleanedPaste& block) {
  const std::vector<KindScore> scores = score_kinds(block);
  if (scores.empty() || scores.front().score < k_part_score) return "unknown";
  if (scores.front().kind == "requirements" && !lists_requirements(block.text)) return "unknown";
  return scores.front().kind;
}

}  // namespace

std::vector<PasteSpan> find_parts(const CleanedPaste& paste) {
  const std::vector<std::string_view> lines = lines_of(paste.text);
  std::vector<PasteSpan> parts;
  for (PasteSpan block : blocks_of(lines, paste.breaks)) {
    block.kind = clear_kind(paste_of(paste, lines, block));
    if (block.kind == "unknown") continue;
    // The same reader again (a log cut by a blank line, a table and its process list): one part,
    // the words between included.
    if (!parts.empty() && parts.back().kind == block.kind) {
      parts.back().end_line = block.end_line;
    } else if (parts.size() < k_max_parts) {
      parts.push_back(block);
    }
  }
  return parts;
}

CleanedPaste part_paste(const CleanedPaste& paste, const PasteSpan& span) {
  return paste_of(paste, lines_of(paste.text), span);
}

}  // namespace tfwsl::diagnose
