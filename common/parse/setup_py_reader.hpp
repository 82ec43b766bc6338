#pragma once
// setup.py read statically, never run: a small reader of Python literals and module-level
// assignments (strings, lists, tuples, dicts, `+`, subscripts, `with open(...)` / `Path(...)`
// files split into lines), enough to follow setup()'s install_requires, extras_require,
// tests_require and python_requires to what they name. What it cannot resolve (a call, an f-string,
// a name assigned only under an `if`) is said in `notes` ("setup.py:40 install_requires is computed
// (...): not read"), never guessed.

#include <string_view>

#include "common/parse/requirements_parser.hpp"

namespace tfwsl::parse {

// False when the text has no setup(...) call (a pasted fragment): the caller reads it its own way.
// A file setup() reads its requirements from (open("requirements.txt")) is added to `includes`.
bool read_setup_py(std::string_view text, RequirementsResult& result);

}  // namespace tfwsl::parse
