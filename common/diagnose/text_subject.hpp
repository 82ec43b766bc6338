#pragma once
// What a text is about when it is not TensorFlow (issue 44): another framework (PyTorch, JAX,
// ...) or an unrelated tool (npm, git, a C compiler, ...). The rules are data, the `subjects:`
// section of profiles/signatures.yaml; this file reads them and weighs a text against them.
//
// A framework is an alternative to TensorFlow, so the text is about it when it names it on more
// lines than twice those naming TensorFlow (a PyTorch report that says "import tensorflow works"
// once is still PyTorch's). A tool is used beside TensorFlow (pip installs it, docker runs it), so
// it is the subject only when the text names TensorFlow nowhere and shows one of the tool's own
// messages, and explain found nothing else in it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace YAML {
class Node;
}

namespace tfwsl::diagnose {

struct TextSubject {
  enum class Kind { framework, tool };
  Kind kind = Kind::framework;
  std::string subject;                // "pytorch": the JSON `about.subject`
  std::string name;                   // "PyTorch": as shown
  std::vector<std::string> words;     // lower-case names, matched as whole words (a version may follow)
  std::vector<std::string> messages;  // lower-case literals of the tool's own output
  std::string fix;
};

struct TextSubjects {
  std::vector<std::string> tensorflow_words;  // whole words that name TensorFlow (tensorflow, tf, keras)
  std::vector<TextSubject> subjects;          // in document order: a tie goes to the first
};

// The `subjects:` section of the signatures document (empty when it has none).
Result<TextSubjects> read_text_subjects(const YAML::Node& root, std::string_view origin);

struct SubjectReading {
  const TextSubject* subject = nullptr;
  std::size_t subject_lines = 0;     // lines naming the subject (or showing its message)
  std::size_t tensorflow_lines = 0;  // lines naming TensorFlow
  std::size_t evidence_line = 0;     // the first such line, from 1
  std::string_view evidence_text;    // that line, a view into the text weighed
};

// The subject of `text` by the rules above, if another than TensorFlow. `found_other` says explain
// found a warning or an error in the text already (a tool is then not the subject);
// `tensorflow_evidence` adds to the lines naming TensorFlow what else speaks for it. Only the first
// k_subject_scan_bytes are weighed: a subject shows in the first megabyte of any real paste.
inline constexpr std::size_t k_subject_scan_bytes = 1 << 20;
std::optional<SubjectReading> foreign_subject(std::string_view text, const TextSubjects& rules, bool found_other,
                                              std::size_t tensorflow_evidence = 0);

}  // namespace tfwsl::diagnose
