#include "common/diagnose/tensorflow_range.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::diagnose {
namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

// Poetry's caret: the next release that changes the leftmost non-zero segment.
std::string caret_upper(const Version& v) {
  if (v.major() > 0 || v.release.size() == 1) return fmt::format("{}.0", v.major() + 1);
  if (v.minor() > 0 || v.release.size() == 2) return fmt::format("0.{}", v.minor() + 1);
  return fmt::format("0.0.{}", v.micro() + 1);
}

std::string tilde_upper(const Version& v) {
  if (v.release.size() == 1) return fmt::format("{}.0", v.major() + 1);
  return fmt::format("{}.{}", v.major(), v.minor() + 1);
}

// The versions worth asking a spec about: every version it names, its neighbours, and the fixed
// boundaries of the questions. A spec's allowed set is a union of intervals bounded by the versions
// it names, so probing those and their neighbours answers "does it allow anything in [a, b)".
std::vector<Version> probe_versions(const VersionSpec& spec) {
  std::vector<std::string> texts = {"1.0",    "1.15.5", "2.0.0",  "2.10.0", "2.10.1",
                                    "2.11.0", "2.14.0", "2.16.1", "2.20.0", "3.0"};
  std::vector<Version> probes;
  for (const auto& text : texts) {
    if (auto v = Version::parse(text)) probes.push_back(*v);
  }
  for (const auto& clause : spec.clauses()) {
    const Version& v = clause.version;
    probes.push_back(v);
    int major = v.major();
    int minor = v.minor();
    int micro = v.micro();
    for (const auto& text :
         {fmt::format("{}.{}.{}", major, minor, micro + 1), fmt::format("{}.{}.99", major, minor),
          fmt::format("{}.{}", major, minor + 1), fmt::format("{}.{}.99", major, std::max(0, minor - 1)),
          fmt::format("{}.0", major + 1), fmt::format("{}.99", std::max(0, major - 1))}) {
      if (auto p = Version::parse(text)) probes.push_back(*p);
    }
  }
  return probes;
}

}  // namespace

std::string to_pep440_spec(const std::string& spec, bool conda) {
  std::vector<std::string> clauses;
  for (std::string clause : split_commas(spec)) {
    if (clause.empty()) continue;
    char first = clause[0];
    if (first == '^' || (first == '~' && (clause.size() < 2 || clause[1] != '='))) {
      auto v = Version::parse(clause.substr(1));
      if (!v) return spec;
      std::string base = clause.substr(1);
      clauses.push_back(">=" + base);
      clauses.push_back("<" + (first == '^' ? caret_upper(*v) : tilde_upper(*v)));
      continue;
    }
    if (first == '=' && (clause.size() < 2 || clause[1] != '=')) {
      // conda: "=2.10" is "2.10.*"; a build string after a second '=' is not a version.
      std::string version = clause.substr(1);
      auto eq = version.find('=');
      const bool build = eq != std::string::npos;  // name=version=build names one exact version
      if (build) version = version.substr(0, eq);
      if (!build && (version.empty() || version.back() != '*')) version += conda ? ".*" : "";
      clauses.push_back("==" + version);
      continue;
    }
    if (conda && clause.starts_with("==") && clause.find('=', 2) != std::string::npos) {
      // conda: "==1.13.1=h21ff451_8" is that version, whatever its build.
      clauses.push_back(clause.substr(0, clause.find('=', 2)));
      continue;
    }
    if ((first >= '0' && first <= '9')) {
      // A bare version: conda means a prefix match, pip users mean "exactly".
      if (conda && clause.back() != '*') clause += ".*";
      clauses.push_back("==" + clause);
      continue;
    }
    clauses.push_back(clause);
  }
  std::string out;
  for (const auto& c : clauses) out += (out.empty() ? "" : ",") + c;
  return out;
}

nlohmann::json to_json(const TensorflowRange& range) {
  return {{"any", range.any},
          {"native_gpu", range.native_gpu},
          {"wsl_only", range.wsl_only},
          {"tf2", range.tf2},
          {"spec", range.spec}};
}

std::optional<TensorflowRange> tensorflow_allows(const parse::DeclaredRequirement& requirement,
                                                 const SignatureBase& base) {
  auto spec = VersionSpec::parse(to_pep440_spec(requirement.spec, requirement.conda));
  if (!spec) return std::nullopt;
  // The constants come from the signature base: compat.yaml's TensorFlow history and
  // signatures.yaml, which cite their sources. A base without them judges nothing.
  const auto wsl_only_first = Version::parse(base.constant("wsl_only_first"));
  const auto and_cuda_first = Version::parse(base.constant("and_cuda_first"));
  const auto tf2_first = Version::parse(base.constant("tf2_first"));
  if (!wsl_only_first || !and_cuda_first || !tf2_first) return std::nullopt;
  bool and_cuda =
      std::find(requirement.extras.begin(), requirement.extras.end(), "and-cuda") != requirement.extras.end();
  bool any = false;
  bool native_gpu = false;
  bool wsl_only = false;
  bool tf2 = false;
  for (const Version& v : probe_versions(*spec)) {
    if (!spec->allows(v)) continue;
    if (and_cuda && v < *and_cuda_first) continue;
    any = true;
    if (v < *wsl_only_first)
      native_gpu = true;
    else
      wsl_only = true;
    if (!(v < *tf2_first)) tf2 = true;
  }
  return TensorflowRange{any, native_gpu, wsl_only, tf2, spec->to_string()};
}

}  // namespace tfwsl::diagnose
