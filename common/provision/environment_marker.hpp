#pragma once
// PEP 508 environment markers ("sys_platform == 'win32'", "python_version < '3.12' and
// platform_machine == 'x86_64'") evaluated for a Linux venv without starting its Python, the way
// pip's `packaging.markers` does (https://peps.python.org/pep-0508/#environment-markers,
// https://github.com/pypa/packaging/blob/main/src/packaging/markers.py): a comparison whose
// operator and right side make a version specifier compares versions (pre-releases allowed),
// otherwise the two strings are compared as strings; `in` / `not in` test for a substring.

#include <map>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::provision {

// The marker variables this machine can answer without starting Python; a marker naming any other
// one (platform_release, implementation_name, ...) cannot be evaluated here.
struct MarkerEnvironment {
  std::map<std::string, std::string, std::less<>> values;  // "sys_platform" -> "linux"
};

// Linux's values (sys_platform linux, platform_system Linux, os_name posix, extra ""), the
// machine ("x86_64", uname -m) and the venv's Python: python_full_version "3.11.7",
// python_version "3.11".
MarkerEnvironment linux_marker_environment(std::string_view python_full_version, std::string_view machine);

// true or false; an error (ErrorCode::parse) naming what could not be evaluated: a syntax error,
// a variable the environment does not hold, an operator the two sides do not support.
Result<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& environment);

}  // namespace tfwsl::provision
