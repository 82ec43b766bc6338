#pragma once
// Whether the Python a project declares can run the TensorFlow it pins: `requires-python = ">=3.12"`
// next to `tensorflow==2.15.1` (Python 3.9-3.11) cannot be installed, whatever the GPU. The ranges
// come from the compatibility data (profiles/compat.yaml, tensorflow.org/install/pip's table).

#include <nlohmann/json.hpp>
#include <optional>

#include "common/compat/compat_db.hpp"
#include "common/parse/requirements_parser.hpp"

namespace tfwsl::diagnose {

// {"python": the project's Python spec as written, "tensorflow_python": "3.9-3.11", the Python the
// allowed TensorFlow releases support} when no Python the spec allows runs any allowed release;
// nothing when they fit or when either spec cannot be judged (unreadable, or only releases the
// compatibility data does not know, such as TF 1.x).
std::optional<nlohmann::json> python_conflict(const parse::DeclaredRequirement& python,
                                              const parse::DeclaredRequirement& tensorflow, const CompatDb& compat);

}  // namespace tfwsl::diagnose
