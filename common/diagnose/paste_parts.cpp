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

// [first, end) line ranges cut at each break: what one command printed, or one fenced block.
std::vector<PasteSpan> segments_of(std::size_t line_count, const std::vector<PasteBreak>& breaks) {
  std::vector<PasteSpan> segments;
  std::size_t start = 0;
  for (const PasteBreak& b : breaks) {
    if (b.line >= line_count || segments.size() >= k_max_blocks) break;
    if (b.line > start) segments.push_back({start, b.line, ""});
    start = b.line;
  }
  if (line_count > start) segments.push_back({start, line_count, ""});
  return segments;
}

// The blocks of a segment between its blank lines, blank lines left out.
std::vector<PasteSpan> blocks_in(const std::vector<std::string_view>& lines, const PasteSpan& segment) {
  std::vector<PasteSpan> blocks;
  std::size_t start = segment.first_line;
  for (std::size_t i = segment.first_line; i <= segment.end_line; ++i) {
    if (i < segment.end_line && !blank(lines[i])) continue;
    if (i > start) blocks.push_back({start, i, ""});
    start = i + 1;
  }
  return blocks;
}

// The command typed at the prompt whose output starts at `line`, or null. The breaks are in text
// order, one per line at most: a search, so a paste of a million prompts costs no more per block.
const std::string* command_before(const CleanedPaste& paste, std::size_t line) {
  const auto it = std::lower_bound(paste.breaks.begin(), paste.breaks.end(), line,
                                   [](const PasteBreak& b, std::size_t wanted) { return b.line < wanted; });
  return it != paste.breaks.end() && it->line == line && !it->command.empty() ? &it->command : nullptr;
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
    if (std::find(paste.windows_commands.begin(), paste.windows_commands.end(), *command) !=
        paste.windows_commands.end())
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
    const std::string_view line =
        r.line > 0 && std::size_t(r.line) <= lines.size() ? lines[r.line - 1] : std::string_view();
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

namespace {

// The outputs of one segment: its blocks recognised one by one (outputs pasted without prompts,
// prose between them), the same kind again joined to the last; or, when they show one output at
// most, the segment as a whole if it reads as that output (an output with a blank line after every
// line, as wsl.exe's UTF-16 shows in some consoles).
std::vector<PasteSpan> parts_of_segment(const CleanedPaste& paste, const std::vector<std::string_view>& lines,
                                        const PasteSpan& segment) {
  std::vector<PasteSpan> parts;
  for (PasteSpan block : blocks_in(lines, segment)) {
    block.kind = clear_kind(paste_of(paste, lines, block));
    if (block.kind == "unknown") continue;
    if (!parts.empty() && parts.back().kind == block.kind) {
      parts.back().end_line = block.end_line;
    } else {
      parts.push_back(block);
    }
  }
  if (parts.size() > 1) return parts;
  // One output or none among the blocks: the segment as a whole says more (the lines of `wsl
  // --status` after its blank line belong to it).
  PasteSpan whole = segment;
  whole.kind = clear_kind(paste_of(paste, lines, whole));
  if (whole.kind != "unknown" && (parts.empty() || parts.front().kind == whole.kind)) return {whole};
  return parts;
}

}  // namespace

std::vector<PasteSpan> find_parts(const CleanedPaste& paste) {
  const std::vector<std::string_view> lines = lines_of(paste.text);
  std::vector<PasteSpan> parts;
  for (const PasteSpan& segment : segments_of(std::min(lines.size(), k_max_lines), paste.breaks)) {
    // A fence cuts a log in two as often as it frames a new output; a new command's output is a
    // part of its own even of the same kind (`wsl -l -v` before and after a command).
    const bool new_command = command_before(paste, segment.first_line) != nullptr;
    const std::vector<PasteSpan> found = parts_of_segment(paste, lines, segment);
    for (std::size_t i = 0; i < found.size(); ++i) {
      const PasteSpan& part = found[i];
      if (!parts.empty() && parts.back().kind == part.kind && !(new_command && i == 0)) {
        parts.back().end_line = part.end_line;
      } else if (parts.size() < k_max_parts) {
        parts.push_back(part);
      }
    }
  }
  return parts;
}

CleanedPaste part_paste(const CleanedPaste& paste, const PasteSpan& span) {
  return paste_of(paste, lines_of(paste.text), span);
}

}  // namespace tfwsl::diagnose
