#include "common/diagnose/foreign_facts.hpp"

#include <algorithm>
#include <string>

#include "common/util/ascii.hpp"

namespace tfwsl::diagnose {
namespace {

// As far as the kind recognisers look: a 10 MB log costs no more.
constexpr std::size_t k_head_bytes = 256 * 1024;

// "... with CUDA capability sm_120 is not compatible ..." (PyTorch's torch/cuda/__init__.py): sm_XY
// is compute capability X.Y, sm_XYZ is XY.Z.
std::string capability_of_sm(std::string_view lower) {
  constexpr std::string_view k_marker = "capability sm_";
  const std::size_t at = lower.find(k_marker);
  if (at == std::string_view::npos) return {};
  std::size_t end = at + k_marker.size();
  while (end < lower.size() && ascii_is_digit(lower[end])) ++end;
  const std::string_view digits = lower.substr(at + k_marker.size(), end - at - k_marker.size());
  if (digits.size() < 2 || digits.size() > 3) return {};
  return std::string(digits.substr(0, digits.size() - 1)) + "." + std::string(digits.substr(digits.size() - 1));
}

// sqv's "Signing key on <fingerprint> is not bound": the 40 (or 16) hex digits, upper-cased.
std::string rejected_key(std::string_view text, std::string_view lower) {
  constexpr std::string_view k_marker = "signing key on ";
  for (std::size_t at = lower.find(k_marker); at != std::string_view::npos; at = lower.find(k_marker, at + 1)) {
    const std::size_t from = at + k_marker.size();
    std::size_t end = from;
    while (end < text.size() && ascii_is_xdigit(text[end])) ++end;
    if ((end - from != 40 && end - from != 16) || lower.substr(end, 13) != " is not bound") continue;
    std::string key(text.substr(from, end - from));
    for (char& c : key) c = ascii_upper(c);
    return key;
  }
  return {};
}

}  // namespace

void add_foreign_facts(std::string_view text, const SignatureBase& base, nlohmann::json& facts) {
  text = text.substr(0, std::min(text.size(), k_head_bytes));
  const std::string lower = ascii_lower(text);
  if (!facts.contains("compute_capability")) {
    if (std::string capability = capability_of_sm(lower); !capability.empty()) facts["compute_capability"] = capability;
  }
  const std::string key = rejected_key(text, lower);
  if (key.empty()) return;
  nlohmann::json apt_key = {{"fingerprint", key}};
  const std::string nvidia = base.constant("nvidia_cuda_repo_key");
  if (!nvidia.empty() && key == nvidia) apt_key["owner"] = "NVIDIA CUDA repository";
  facts["apt_key"] = std::move(apt_key);
}

}  // namespace tfwsl::diagnose
