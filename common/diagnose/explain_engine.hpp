#pragma once
// `tfwsl explain`'s engine: bytes in (any paste, any encoding, any size up to the caller's cap),
// {kind, facts, findings} out. Kind detection picks the parser; the parser gives facts; the
// signature base turns text and facts into findings. Never throws on input.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnose/signature_base.hpp"

namespace tfwsl::diagnose {

struct Finding {
  std::string id;
  Severity severity = Severity::info;
  std::string summary;
  std::string fix;
  std::string evidence;  // the first line that revealed it ("line 12: ..."), empty for facts-based ones
};

// One output of a paste that holds several (issue 44): what that output alone says.
struct ExplainedPart {
  std::string kind;
  std::size_t first_line = 0;  // 1-based lines of the cleaned text, as evidence numbers them
  std::size_t last_line = 0;
  bool lead = false;  // the part the top-level kind, facts and findings are about
  nlohmann::json facts = nlohmann::json::object();
  std::vector<Finding> findings;
};

struct Explanation {
  std::string kind = "unknown";
  nlohmann::json facts = nlohmann::json::object();
  std::vector<Finding> findings;      // in signature-base order, one per id; never empty for kind unknown
  std::vector<std::string> commands;  // commands seen at prompts in the paste
  std::string encoding;               // how the bytes were encoded ("utf-8", "utf-16le", ...)
  // The text is about another framework or tool ("pytorch", shown as "PyTorch"), not TensorFlow:
  // the kind is then unknown and no TensorFlow verdict (tf.*, req.*) is given. Empty otherwise.
  std::string about;
  std::string about_name;
  // Every output of a paste that holds two or more, in text order; empty for a single output.
  std::vector<ExplainedPart> parts;
};

Explanation explain(std::string_view bytes, const SignatureBase& base);

// The facts a kind's parser gives for `text` (cleaned), with the derived facts the signature
// base's conditions use (wsl1_distros, windows_build, tensorflow_allows, ...).
nlohmann::json facts_for_kind(const std::string& kind, std::string_view text, const SignatureBase& base);

// {"kind", "facts", "findings": [{id, severity, summary, fix}]}, "about": {subject, name} when the
// text is about another framework or tool, and "parts" when it holds several outputs: the contract
// of docs/explain.md.
nlohmann::json to_json(const Explanation& explanation);

struct ExplainTextOptions {
  bool color = false;    // the marks coloured as in the doctor's report (common/check/check.cpp)
  bool verbose = false;  // facts in full (not cut at 300 characters), the encoding and the commands seen
};

// The text report: "kind: ...", the facts, then findings grouped ✗ errors, ! warnings, ✓ info
// with "fix:" under each.
std::string render_text(const Explanation& explanation, const ExplainTextOptions& options = {});

// 0 when nothing is wrong (info only), 1 for warnings only (explain.unrecognised is one), 2 for errors;
// the findings of every part count.
int exit_code_for(const Explanation& explanation);

}  // namespace tfwsl::diagnose
