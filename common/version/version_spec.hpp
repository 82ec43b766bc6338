#pragma once
// Version specifiers and requirement lines as they appear in requirements.txt, setup.py, pip
// commands and profiles: "==2.10.*", ">=2.12,<2.16", "~=2.15.0", "<2.11", "!=2.13.0",
// "tensorflow[and-cuda]==2.15.1", "tensorflow>=2.9; sys_platform == 'linux'" (PEP 440 / PEP 508).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/util/ascii.hpp"
#include "common/version/version.hpp"

namespace tfwsl {

struct VersionClause {
  enum class Op { equal, not_equal, less, less_equal, greater, greater_equal, compatible, arbitrary };
  Op op = Op::equal;
  Version version;
  bool wildcard = false;  // "==2.10.*" / "!=2.10.*"
  std::string text;       // the clause as written, spaces removed ("==2.10.*")

  bool allows(const Version& candidate) const;
};

class VersionSpec {
 public:
  // "" allows everything; clauses are comma-separated and all must hold. A bare version
  // ("2.15.1") is read as "==2.15.1", as pip's users often mean. Errors name the clause and the fix.
  static Result<VersionSpec> parse(std::string_view text);

  // PEP 440: pre-releases are excluded unless a clause itself names a pre-release.
  bool allows(const Version& candidate) const;
  bool allows_prereleases() const;
  // An installed version: every clause holds, a pre-release included (pip checks what is installed
  // with prereleases=True: pip/_internal/req/req_install.py, check_if_exists).
  bool allows_installed(const Version& installed) const;
  // Whether some final release of the series (every version whose release starts with `series`:
  // "2" is Keras 2, "2.15" is 2.15.x) satisfies every clause: the clauses are intersected as
  // intervals, never probed with made-up versions.
  bool admits_series(const Version& series) const;
  bool is_any() const { return m_clauses.empty(); }
  const std::vector<VersionClause>& clauses() const { return m_clauses; }
  // The clauses joined by ',' with no spaces (">=2.12,<2.16").
  std::string to_string() const;

 private:
  std::vector<VersionClause> m_clauses;
};

struct Requirement {
  std::string name;  // lower-cased, with '_' and '.' folded to '-' (PEP 503)
  std::string name_as_written;
  std::vector<std::string> extras;  // lower-cased: {"and-cuda"}
  std::string spec_text;            // exactly as written with spaces removed: ">=2.12,<2.16"
  VersionSpec spec;
  std::string marker;  // after ';', trimmed: "python_version >= '3.9'"
  std::string url;     // "name @ https://..." form
};

// One requirement line, strictly (what pip installs): its shape is read_requirement_parts's
// (common/version/requirement_syntax.hpp: comments, trailing pip options, "tensorflow (>=2.0)"),
// then the version part must be a PEP 440 specifier. An empty or comment-only line, or a pip
// option line ("-r other.txt"), is an error with code not_found so callers can skip it without
// string matching.
Result<Requirement> parse_requirement(std::string_view line);

// "TensorFlow_GPU" -> "tensorflow-gpu" (PEP 503: runs of '-', '_', '.' become one '-', lower case;
// separators at either end are dropped).
std::string normalize_package_name(std::string_view name);

// The characters of a PEP 508 distribution name: ASCII letters and digits, '-', '_', '.'.
constexpr bool is_package_name_char(char c) { return ascii_is_alnum(c) || c == '-' || c == '_' || c == '.'; }

}  // namespace tfwsl
