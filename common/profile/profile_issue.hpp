#pragma once
// A problem found while loading or validating a profile: where, what, and how to fix it.

#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/profile/profile.hpp"

namespace tfwsl {

enum class IssueSeverity { error, warning };

struct ProfileIssue {
  IssueSeverity severity = IssueSeverity::error;
  SourceLocation where;
  std::string message;
  std::string fix;  // may be empty when the message already says it

  // "team.yaml:3:5: error: unknown key 'cdua' (did you mean 'cuda'?); fix: rename it to 'cuda'"
  std::string to_string() const;
};

bool has_errors(const std::vector<ProfileIssue>& issues);

// One Error (ErrorCode::invalid_input) listing every error-severity issue, one per line.
Error issues_to_error(const std::vector<ProfileIssue>& issues, const std::string& what);

}  // namespace tfwsl
