#pragma once
// The download figure of each step of a plan that fetches something (apt's steps, the keyring,
// pip's TensorFlow) and of the plan in all: first from the known sizes (download_sizes.hpp), then,
// in the distro, replaced step by step with apt's own figure where the agent could ask it.

#include <cstdint>
#include <string>
#include <vector>

#include "common/profile/profile.hpp"
#include "common/provision/download_sizes.hpp"
#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {

// Every step that downloads gets its estimate from `facts` (unknown where the data has none: apt's
// own packages on a distro no one asked yet).
void estimate_downloads_from_data(ProvisionPlan& plan, const Profile& profile, const DownloadFacts& facts,
                                  const PlanSettings& settings);

// The steps apt can be asked about before they run: their id and the packages to ask for.
bool asks_apt_for_size(const PlannedStep& step);
// apt's own figure for a step (`apt-get --print-uris install`: exact, for the archives not cached).
void set_apt_figure(PlannedStep& step, std::uint64_t bytes);

struct DownloadTotal {
  std::uint64_t bytes = 0;           // the known figures added up
  bool approximate = false;          // one of them is an estimate
  std::vector<std::string> unknown;  // the steps whose figure is not known before they run
};
DownloadTotal download_total(const ProvisionPlan& plan);
// "about 5.0 GiB (not known before they run: apt.packages)".
std::string download_total_words(const DownloadTotal& total);

}  // namespace tfwsl::provision
