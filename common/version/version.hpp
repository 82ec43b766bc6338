#pragma once
// A release version as Python packages, CUDA and Ubuntu number them: dot-separated release
// segments ("2.15.1", "12.2", "22.04") plus the PEP 440 extras seen in the wild on TensorFlow
// ("2.15.0rc1", "2.16.0.dev20240101", "2.15.0.post1"). Local labels ("+cu121") are kept out of
// comparisons, as PEP 440 says for specifiers.

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

struct Version {
  enum class PreKind { none, alpha, beta, rc };

  std::vector<int> release;  // at least one segment
  PreKind pre_kind = PreKind::none;
  int pre_number = 0;
  std::optional<int> post;
  std::optional<int> dev;

  // "2.15" -> {2, 15}. Tolerates a leading 'v', spaces around, "rc1"/"a1"/"b1"/".post1"/".dev1",
  // and a local label "+..." (ignored). Anything else is an error naming the text.
  static Result<Version> parse(std::string_view text);

  int segment(std::size_t index) const { return index < release.size() ? release[index] : 0; }
  int major() const { return segment(0); }
  int minor() const { return segment(1); }
  int micro() const { return segment(2); }
  bool is_prerelease() const { return pre_kind != PreKind::none || dev.has_value(); }

  // The first n release segments, nothing else: {2, 15, 1}.truncated(2) == "2.15".
  Version truncated(std::size_t n) const;
  // Same major and minor (2.15.1 is in the 2.15 series).
  bool same_minor_series(const Version& other) const { return major() == other.major() && minor() == other.minor(); }

  std::string to_string() const;

  // PEP 440 order: release segments compared with zero padding (2.15 == 2.15.0), then
  // dev < pre < final < post.
  std::strong_ordering operator<=>(const Version& other) const;
  bool operator==(const Version& other) const { return (*this <=> other) == 0; }
};

// Shorthand for code and tests where the text is known to be valid; throws std::invalid_argument
// otherwise (a programming error, never user input).
Version version_literal(std::string_view text);

}  // namespace tfwsl
