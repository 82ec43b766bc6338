#pragma once
// How much each provision step downloads, before it runs: the known sizes of a TensorFlow
// release's wheels and of the apt packages apt cannot be asked about yet (profiles/download-sizes.yaml,
// each with its public source), and apt's own figure where the agent can ask it
// (`apt-get --print-uris install`, parsed here; the asking is the agent's: linux/provision).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::provision {

// What a step will download, as the plan shows it. `bytes` absent: not known before it runs.
struct DownloadEstimate {
  std::optional<std::uint64_t> bytes;
  bool approximate = true;  // "about": known sizes from the data; apt's own figure is exact
  std::string basis;        // "apt", "data", "none" (nothing to download), "" (not known)
  std::string detail;       // for people: what the figure counts and where it comes from
};

struct KnownFile {
  std::string name;     // "tensorflow", "cuda-toolkit-12-2"
  std::string version;  // wheels only
  std::uint64_t bytes = 0;
  std::string source;  // the public page that lists it
};

struct TensorflowWheels {
  std::string release;  // "2.15"
  std::vector<KnownFile> wheels;
  std::vector<KnownFile> and_cuda_wheels;
};

struct DownloadFacts {
  std::vector<TensorflowWheels> tensorflow;
  std::vector<KnownFile> apt;
  std::vector<KnownFile> images;  // name: the digest ("sha256:..."), version: the image's reference

  const TensorflowWheels* wheels_for(std::string_view tensorflow_version) const;
  const KnownFile* apt_package(std::string_view package) const;
  const KnownFile* image(std::string_view digest) const;
};

Result<DownloadFacts> load_download_facts(std::string_view yaml, std::string_view source_name);
// profiles/download-sizes.yaml as built in (it is checked by the tests; a broken copy aborts).
const DownloadFacts& builtin_download_facts();
std::string_view builtin_download_sizes_yaml();

// The bytes `apt-get --print-uris install ...` would fetch: the sum of its `'URI' FILE SIZE HASH`
// lines (one per archive it would fetch: none when everything is installed and current). Other
// lines (apt's chatter without -qq) are passed over.
std::uint64_t apt_print_uris_bytes(std::string_view output);

// "about 2.2 GiB" / "294.1 KiB" / "nothing" / "not known before it runs" (util's one spelling of sizes).
std::string download_words(const DownloadEstimate& estimate);

}  // namespace tfwsl::provision
