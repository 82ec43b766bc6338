#pragma once
// The one reader of a requirement's shape (PEP 508, https://peps.python.org/pep-0508/, as pip's
// `packaging` reads it): name, [extras], version part, '; marker' or '@ url', after pip's comment
// rule and with a requirement's trailing options (" --hash=...") dropped. Every requirement tfwsl
// reads goes through it: parse_requirement (version_spec.hpp: pip, provision, venv, profiles,
// strict) adds the version specifier; parse::parse_requirement (common/parse/requirements_parser:
// project files and pastes, lenient) adds conda's forms. pip's file syntax around it (continuations,
// -r/-c, option lines) is common/parse/pip_requirements_file's.

#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

struct RequirementParts {
  std::string name;                 // as written: "TensorFlow_GPU"
  std::vector<std::string> extras;  // as written, trimmed: {"and-cuda"}
  std::string version_part;         // what follows the name and extras, trimmed, parentheses removed:
                                    // ">= 2.12, <2.16", "==2.15.*", conda's "=2.10" or "2.18.1 cpu_py311_0"
  std::string marker;               // after ';', trimmed
  std::string url;                  // after '@' ("name @ https://..."), trimmed
};

// pip's COMMENT_RE, (^|\s+)#.*$: '#' at the start or after a blank starts a comment; a '#' glued
// to text (a URL's "#egg=") does not.
std::string_view strip_requirement_comment(std::string_view line);

// The parts of one requirement line. Blanks (no-break spaces too) around it are dropped. An
// empty, comment-only or option line ("-r x", "--hash=...") is an error with code not_found, so a
// caller skips it without reading messages; a malformed one is invalid_input and says why
// ("'[' without a closing ']'"), never naming the line (the caller does).
Result<RequirementParts> read_requirement_parts(std::string_view line);

}  // namespace tfwsl
