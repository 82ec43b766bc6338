#pragma once
// Which distros' apt refuses which repository's signing key (profiles/apt-signatures.yaml, each
// fact with its source): apt 3.x verifies with sqv, which rejects SHA1 key bindings since
// 2026-02-01, and NVIDIA's CUDA repository key is bound by SHA1. Provisioning asks before it plans
// the repository, so a distro that would refuse it is said before anything runs, not mid-way; the
// doctor asks whether a distro holds such a repository.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

struct SqvDistro {
  std::string distro;  // "Ubuntu-26.04", "Debian"
  std::string apt;     // "3.1.16"
  std::string source;
};

struct SignedRepository {
  std::string id;   // "cuda", "container-toolkit"
  std::string url;  // its prefix: "https://developer.download.nvidia.com/compute/cuda/repos/"
  std::string key;  // the signing key's fingerprint
  bool refused_by_sqv = false;
  std::string source;
};

struct AptSignaturePolicy {
  std::string sha1_rejected_from;  // "2026-02-01"
  std::vector<SqvDistro> distros;
  std::vector<SignedRepository> repositories;

  // The entry of a distro whose apt verifies with sqv ("Ubuntu" is judged as `default_ubuntu`,
  // the release plain Ubuntu installs: "Ubuntu-26.04"); nothing for apt 2.x.
  const SqvDistro* sqv_distro(std::string_view distro, std::string_view default_ubuntu) const;
  const SignedRepository* repository(std::string_view id) const;
  // The repository a sources line's URL belongs to.
  const SignedRepository* repository_of_url(std::string_view url) const;
};

Result<AptSignaturePolicy> load_apt_signature_policy(std::string_view yaml, std::string_view source_name);
const AptSignaturePolicy& builtin_apt_signature_policy();
std::string_view builtin_apt_signatures_yaml();

// Why `distro`'s apt would refuse NVIDIA's CUDA repository ("Ubuntu-26.04's apt 3.1.16 refuses
// NVIDIA's CUDA repository: its key ... is bound by SHA1, which sqv rejects since 2026-02-01"),
// or nothing when it accepts it.
std::optional<std::string> cuda_repository_refusal(std::string_view distro, const AptSignaturePolicy& policy);

}  // namespace tfwsl
