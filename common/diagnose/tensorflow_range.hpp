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

// What a TensorFlow requirement allows, judged against the releases the base knows.
struct TensorflowRange {
  bool any = false;         // some release
  bool native_gpu = false;  // a release with GPU on native Windows (<= 2.10)
  bool wsl_only = false;    // a release with GPU through WSL 2 only (>= 2.11)
  bool tf2 = false;         // a 2.x release
  std::string spec;         // the PEP 440 spec it was read as
};

// The explain fact `tensorflow_allows`: {"any", "native_gpu", "wsl_only", "tf2", "spec"}.
nlohmann::json to_json(const TensorflowRange& range);

// Nothing when the spec cannot be read or the base lacks the TensorFlow constants (compat.yaml's,
// through the base) it is judged by.
std::optional<TensorflowRange> tensorflow_allows(const parse::DeclaredRequirement& requirement,
                                                 const SignatureBase& base);

}  // namespace tfwsl::diagnose
