// What a parsed requirements list says about TensorFlow, and its facts as JSON (explain's contract).
#include <algorithm>
#include <array>

#include "common/parse/requirements_parser.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::parse {

bool is_tensorflow_distribution(std::string_view normalized_name) {
  static constexpr std::array<std::string_view, 12> k_names = {
      "tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tensorflow-macos", "tensorflow-aarch64",
      "tf-nightly", "tf-nightly-gpu", "tf-nightly-cpu", "intel-tensorflow", "tensorflow-rocm",  "tensorflow-directml"};
  return std::find(k_names.begin(), k_names.end(), normalized_name) != k_names.end();
}

const DeclaredRequirement* find_tensorflow(const RequirementsResult& result) {
  const DeclaredRequirement* conda_match = nullptr;
  for (const auto& req : result.requirements) {
    if (!is_tensorflow_distribution(normalize_package_name(req.package))) continue;
    if (!req.conda) return &req;
    if (!conda_match) conda_match = &req;
  }
  return conda_match;
}

namespace {

// The TensorFlow requirement as the contract states it: conda's `=2.18.1=cpu_py311h18e2dce_0` and
// `==2.18.1=cpu_py311h18e2dce_0` (one build of one version, docs.conda.io "Package match
// specifications") are the version, "==2.18.1", with the build string apart; `=2.18.*=...` keeps
// conda's fuzzy "=". Other specs as written.
nlohmann::json tensorflow_fact(const DeclaredRequirement& tf) {
  nlohmann::json fact = {{"package", tf.package}, {"spec", tf.spec}};
  std::string build = tf.build;
  const std::size_t op = tf.spec.starts_with("==") ? 2 : tf.spec.starts_with("=") ? 1 : 0;
  const std::size_t eq = op > 0 ? tf.spec.find('=', op) : std::string::npos;
  if (eq != std::string::npos && eq > op && eq + 1 < tf.spec.size()) {
    const std::string version = tf.spec.substr(op, eq - op);
    fact["spec"] = (version.find('*') == std::string::npos ? "==" : "=") + version;
    build = tf.spec.substr(eq + 1);
  }
  if (!build.empty()) fact["build"] = build;
  return fact;
}

}  // namespace

nlohmann::json to_json(const RequirementsResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  facts["format"] = to_string(result.format);
  if (const auto* tf = find_tensorflow(result)) {
    facts["tensorflow"] = tensorflow_fact(*tf);
    if (!tf->extras.empty()) facts["tensorflow_extras"] = tf->extras;
    if (tf->conda) facts["tensorflow_from_conda"] = true;
  }
  nlohmann::json packages = nlohmann::json::array();
  nlohmann::json conda_packages = nlohmann::json::array();
  for (const auto& req : result.requirements) {
    (req.conda ? conda_packages : packages).push_back(normalize_package_name(req.package));
  }
  facts["packages"] = std::move(packages);
  if (!conda_packages.empty()) facts["conda_packages"] = std::move(conda_packages);
  if (!result.includes.empty()) facts["includes"] = result.includes;
  if (result.python) facts["python"] = {{"spec", result.python->spec}, {"conda", result.python->conda}};
  return facts;
}

}  // namespace tfwsl::parse
