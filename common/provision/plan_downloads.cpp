#include "common/provision/plan_downloads.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/byte_size_text.hpp"
#include "common/util/plural.hpp"

namespace tfwsl::provision {
namespace {

constexpr const char* k_data_file = "profiles/download-sizes.yaml";

bool has_extra(const Profile& profile, const std::string& extra) {
  const auto extras = profile.tensorflow_extras.value_or({});
  return std::find(extras.begin(), extras.end(), extra) != extras.end();
}

DownloadEstimate from_known(const KnownFile& file, const std::string& what, const std::string& note) {
  return {file.bytes, true, "data", fmt::format("{} ({}, {}); {}", what, k_data_file, file.source, note)};
}

DownloadEstimate unknown(const std::string& why) { return {std::nullopt, true, "unknown", why}; }

// pip has no estimate before it downloads: the wheels the profile's TensorFlow release is known to
// pull, at their listed sizes.
DownloadEstimate pip_estimate(const Profile& profile, const DownloadFacts& facts, const PlanSettings& settings) {
  if (!settings.pip_find_links.empty())
    return {0, false, "none",
            "pip installs from " + settings.pip_find_links + " (--find-links): nothing from the network"};
  const std::string version = profile.tensorflow_version.value_or("");
  const auto* release = facts.wheels_for(version);
  if (!release) return unknown(fmt::format("no known wheel sizes for tensorflow {} in {}", version, k_data_file));
  std::vector<KnownFile> wheels = release->wheels;
  if (has_extra(profile, "and-cuda"))
    wheels.insert(wheels.end(), release->and_cuda_wheels.begin(), release->and_cuda_wheels.end());
  std::uint64_t bytes = 0;
  for (const auto& w : wheels) bytes += w.bytes;
  std::string detail = fmt::format("{} of TensorFlow {} at their PyPI sizes ({}, each with its page)",
                                   plural(wheels.size(), "wheel", "wheels"), release->release, k_data_file);
  if (!profile.pip_packages.value_or({}).empty())
    detail += "; the profile's own pip packages are counted only where TensorFlow pulls them too";
  return {bytes, true, "data", detail};
}

DownloadEstimate apt_estimate(const PlannedStep& step, const DownloadFacts& facts) {
  std::uint64_t bytes = 0;
  for (const auto& package : step.packages) {
    const auto* known = facts.apt_package(package);
    if (!known)
      return unknown("apt's figure, asked in the distro (tfwsl-agent provision --dry-run); " + package +
                     " has no known size");
    bytes += known->bytes;
  }
  DownloadEstimate estimate{bytes, true, "data", ""};
  estimate.detail = fmt::format("{} and what it pulls in ({}, {}); apt's own figure once it knows the package",
                                step.packages.front(), k_data_file, facts.apt_package(step.packages.front())->source);
  return estimate;
}

// The image's compressed layers, by digest; a local build is its base image's layers plus what its
// RUN lines fetch, neither known before it runs.
DownloadEstimate image_estimate(const PlannedStep& step, const DownloadFacts& facts) {
  const std::string* digest = step.value("digest");
  if (!digest) return unknown("a local build: its base image and what its RUN lines fetch");
  const auto* known = facts.image(*digest);
  if (!known) return unknown(fmt::format("no known size for {} in {}", *digest, k_data_file));
  return from_known(*known, "the image's compressed layers", "layers already in the store are not fetched again");
}

}  // namespace

bool asks_apt_for_size(const PlannedStep& step) {
  const std::string_view id = step.definition->id;
  return (id == "apt.prerequisites" || id == "cuda.toolkit" || id == "apt.packages" || id == "container.engine" ||
          id == "container.toolkit") &&
         !step.packages.empty();
}

void estimate_downloads_from_data(ProvisionPlan& plan, const Profile& profile, const DownloadFacts& facts,
                                  const PlanSettings& settings) {
  for (auto& step : plan.distro_steps) {
    const std::string_view id = step.definition->id;
    if (asks_apt_for_size(step))
      step.download = apt_estimate(step, facts);
    else if (id == "tensorflow.install")
      step.download = pip_estimate(profile, facts, settings);
    else if (id == "cuda.repository") {
      const auto* keyring = facts.apt_package("cuda-keyring");
      step.download = keyring ? from_known(*keyring, "the cuda-keyring .deb", "apt-get update's lists are not counted")
                              : unknown("the cuda-keyring .deb");
    } else if (id == "container.toolkit-repository") {
      const auto* key = facts.apt_package("nvidia-container-toolkit-key");
      step.download = key ? from_known(*key, "the repository's key", "apt-get update's lists are not counted")
                          : unknown("the repository's key");
    } else if (id == "container.image") {
      step.download = image_estimate(step, facts);
    } else if (id == "container.cdi-spec" || id == "container.verify") {
      step.download = DownloadEstimate{0, false, "none", "nothing: it works on what is already in the distro"};
    }
  }
}

void set_apt_figure(PlannedStep& step, std::uint64_t bytes) {
  step.download = {bytes, false, "apt",
                   bytes == 0 ? "apt has every package already (apt-get --print-uris)"
                              : "apt's own figure (apt-get --print-uris), the archives not yet in its cache"};
}

DownloadTotal download_total(const ProvisionPlan& plan) {
  DownloadTotal total;
  for (const auto* list : {&plan.host_steps, &plan.distro_steps})
    for (const auto& step : *list) {
      if (!step.download) continue;
      if (!step.download->bytes) {
        total.unknown.emplace_back(step.definition->id);
        continue;
      }
      total.bytes += *step.download->bytes;
      total.approximate = total.approximate || (step.download->approximate && *step.download->bytes > 0);
    }
  return total;
}

std::string download_total_words(const DownloadTotal& total) {
  std::string words = (total.approximate ? "about " : "") + format_bytes(total.bytes);
  if (total.unknown.empty()) return words;
  std::string list;
  for (const auto& id : total.unknown) list += (list.empty() ? "" : ", ") + id;
  return words + " (not known before they run: " + list + ")";
}

}  // namespace tfwsl::provision
