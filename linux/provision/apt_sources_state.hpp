#pragma once
// What apt's sources say, so that a run refreshes apt's lists once per sources state: four apt
// steps each list `apt-get update`, but after the first one only a sources change (cuda-keyring's
// entry) makes another one fetch anything new.

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::provision {

// The names and contents of <root>/etc/apt/sources.list and sources.list.d/ (sorted): equal strings
// mean apt would fetch from the same places.
std::string apt_sources_fingerprint(const std::filesystem::path& root);

// The fingerprint at this run's last successful `apt-get update` (none before the first).
struct AptRefreshState {
  std::optional<std::string> refreshed_sources;
};

}  // namespace tfwsl::provision
