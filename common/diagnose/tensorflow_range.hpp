#pragma once
// Which TensorFlow releases a declared requirement allows, reduced to the questions the signature
// base asks: any at all, any on which native Windows still has the GPU (<= 2.10), any that needs
// WSL 2 (>= 2.11), any TF 2. Conda ("=2.10") and Poetry ("^2.15", "~2.15") specs are translated to
// PEP 440 first; the [and-cuda] extra implies TF >= 2.14 (it did not exist before).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/diagnose/signature_base.hpp"
#include "common/parse/requirements_parser.hpp"

namespace tfwsl::diagnose {

// "=2.10" (conda) -> "==2.10.*", "^2.15" -> ">=2.15,<3.0", "~2.15" -> ">=2.15,<2.16", "2.15.*" ->
// "==2.15.*"; PEP 440 text passes through. Spaces are already gone.
std::string to_pep440_spec(const std::string& spec, bool conda);

// {"any", "native_gpu", "wsl_only", "tf2"} (booleans); nothing when the spec cannot be read or the
// base lacks the TensorFlow constants (compat.yaml's, through the base) it is judged by.
std::optional<nlohmann::json> tensorflow_allows(const parse::DeclaredRequirement& requirement,
                                                const SignatureBase& base);

}  // namespace tfwsl::diagnose
