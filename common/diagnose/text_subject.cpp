#include "common/diagnose/text_subject.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::diagnose {
namespace {

// A line longer than this is weighed by its start: enough for any real message, bounded for garbage.
constexpr std::size_t k_line_cap = 4096;

std::vector<std::string> lower_list(const YAML::Node& node) {
  std::vector<std::string> out;
  if (node && node.IsSequence()) {
    for (const auto& item : node) out.push_back(ascii_lower(item.as<std::string>()));
  }
  return out;
}

Result<TextSubject> read_subject(const YAML::Node& node, TextSubject::Kind kind) {
  TextSubject subject;
  subject.kind = kind;
  subject.subject = node["subject"] ? node["subject"].as<std::string>() : std::string();
  subject.name = node["name"] ? node["name"].as<std::string>() : std::string();
  subject.words = lower_list(node["words"]);
  subject.messages = lower_list(node["messages"]);
  subject.fix = node["fix"] ? node["fix"].as<std::string>() : std::string();
  if (subject.subject.empty() || subject.name.empty() || subject.fix.empty())
    return make_error(ErrorCode::parse, "a subject needs 'subject', 'name' and 'fix'");
  const bool framework = kind == TextSubject::Kind::framework;
  if (framework ? subject.words.empty() : subject.messages.empty())
    return make_error(ErrorCode::parse, fmt::format("subject {} needs {}", subject.subject,
                                                    framework ? "'words' (a framework)" : "'messages' (a tool)"));
  return subject;
}

Status read_subject_list(const YAML::Node& list, TextSubject::Kind kind, TextSubjects& out) {
  if (!list) return {};
  if (!list.IsSequence()) return make_error(ErrorCode::parse, "'frameworks' and 'tools' are lists");
  for (const auto& node : list) {
    TFWSL_TRY(subject, read_subject(node, kind));
    out.subjects.push_back(std::move(subject));
  }
  return {};
}

bool word_char(char c) { return ascii_is_alnum(c) || c == '_'; }

// `word` in `line` (both lower-case) as a whole word: nothing word-like before it, no letter after
// it (a version may follow: "pytorch1.3.0" names PyTorch, "torchvision" does not name torch).
bool has_word(std::string_view line, std::string_view word) {
  for (std::size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    const bool starts = at == 0 || !word_char(line[at - 1]);
    const bool ends = end == line.size() || !(ascii_is_alpha(line[end]) || line[end] == '_');
    if (starts && ends) return true;
  }
  return false;
}

bool names_any(std::string_view line, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [line](const std::string& w) { return has_word(line, w); });
}

bool shows_any(std::string_view line, const std::vector<std::string>& messages) {
  return std::any_of(messages.begin(), messages.end(),
                     [line](const std::string& m) { return line.find(m) != std::string_view::npos; });
}

struct Tally {
  std::size_t lines = 0;
  std::size_t first_line = 0;
  std::string_view first_text;
};

// Whether the tallied subject is the text's, by the rules of the header.
bool decides(const TextSubject& subject, const Tally& tally, std::size_t tensorflow_lines, bool found_other) {
  if (tally.lines == 0) return false;
  if (subject.kind == TextSubject::Kind::framework) return tally.lines >= 2 * tensorflow_lines + 1;
  return tensorflow_lines == 0 && !found_other;
}

}  // namespace

Result<TextSubjects> read_text_subjects(const YAML::Node& root, std::string_view origin) {
  TextSubjects out;
  const YAML::Node section = root["subjects"];
  if (!section) return out;
  Status read;
  try {
    out.tensorflow_words = lower_list(section["tensorflow_words"]);
    read = read_subject_list(section["frameworks"], TextSubject::Kind::framework, out);
    if (read) read = read_subject_list(section["tools"], TextSubject::Kind::tool, out);
  } catch (const YAML::Exception& e) {
    read = make_error(ErrorCode::parse, e.what());
  }
  if (!read) return make_error(ErrorCode::parse, fmt::format("{}: subjects: {}", origin, read.error().message));
  return out;
}

std::optional<SubjectReading> foreign_subject(std::string_view text, const TextSubjects& rules, bool found_other,
                                              std::size_t tensorflow_evidence) {
  std::vector<Tally> tallies(rules.subjects.size());
  std::size_t tensorflow_lines = 0;
  std::size_t number = 0;
  for (const std::string_view line : lines_of(text.substr(0, std::min(text.size(), k_subject_scan_bytes)))) {
    ++number;
    const std::string lowered = ascii_lower(line.substr(0, std::min(line.size(), k_line_cap)));
    if (names_any(lowered, rules.tensorflow_words)) ++tensorflow_lines;
    for (std::size_t i = 0; i < rules.subjects.size(); ++i) {
      const TextSubject& subject = rules.subjects[i];
      if (!names_any(lowered, subject.words) && !shows_any(lowered, subject.messages)) continue;
      Tally& tally = tallies[i];
      if (tally.lines++ == 0) {
        tally.first_line = number;
        tally.first_text = line;
      }
    }
  }
  // Frameworks come first in the rules and win over tools; among the same kind, the most lines.
  std::optional<SubjectReading> best;
  for (std::size_t i = 0; i < rules.subjects.size(); ++i) {
    const TextSubject& subject = rules.subjects[i];
    if (!decides(subject, tallies[i], tensorflow_lines + tensorflow_evidence, found_other)) continue;
    if (best && (best->subject->kind != subject.kind || best->subject_lines >= tallies[i].lines)) continue;
    best = SubjectReading{&subject, tallies[i].lines, tensorflow_lines, tallies[i].first_line, tallies[i].first_text};
  }
  return best;
}

}  // namespace tfwsl::diagnose
