#pragma once
// Why migrate's import check failed, in a person's words, from the last lines of Python's output
// (tfwsl-agent venv verify). Importing a module runs its top-level code, and so does the check's run
// of a script (under another __name__ than "__main__"): a script that loads its data at the top level
// fails the check for a reason that has nothing to do with TensorFlow or the venv, and the traceback
// alone does not say so. The exception's class decides: a module not found is the venv's; an error
// reading a file is the data the code opens when it is loaded; any other error is top-level code.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::migrate {

// `output`: the import's last lines (a traceback's end); `what`: the module or script checked.
// Nothing when the lines hold no Python exception.
std::optional<std::string> import_failure_hint(const std::vector<std::string>& output, std::string_view what);

}  // namespace tfwsl::migrate
