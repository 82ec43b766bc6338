#include "win/migrate/container_route.hpp"

#include <fmt/format.h>

#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/download_sizes.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::migrate {
namespace {

std::optional<Profile> container_profile(const std::string& name) {
  if (name.empty()) return std::nullopt;
  auto loaded = load_valid_profile(name);
  if (!loaded || loaded->route.value_or(ProfileRoute::wsl) != ProfileRoute::container) return std::nullopt;
  return *loaded;
}

// The shipped container profile that pulls NVIDIA's image (not one that builds the stock wheel,
// which no more runs on a Blackwell GPU than the venv does).
std::optional<Profile> image_profile_for_new_gpus() {
  for (const auto& name : shipped_profile_names())
    if (auto p = container_profile(name); p && p->container_digest.has_value() && !p->container_build.has_value())
      return p;
  return std::nullopt;
}

// "2.17.*" -> "2.17": the series the image holds.
std::string image_series(const Profile& p) {
  std::string v = p.tensorflow_version.value_or("");
  if (v.size() > 2 && v.ends_with(".*")) v.resize(v.size() - 2);
  return v;
}

// The project's pins against the image's TensorFlow: a note for each way they part.
void note_pins(const TfDecision& d, ContainerRoutePlan& route) {
  const std::string written = d.spec_as_written();
  if (written.empty()) return;
  auto spec = VersionSpec::parse(written);
  auto image = Version::parse(route.tensorflow + ".0");
  if (!spec || !image || spec->allows(*image)) return;
  route.notes.push_back(fmt::format(
      "the project pins tensorflow{} and the image has TensorFlow {}: {}, so the code runs on {} (its release notes "
      "list what changed)",
      written, route.tensorflow, route.asked ? "--profile asked for the image" : "no other route runs on this GPU",
      route.tensorflow));
  // The series the pins chose for a venv: below 2.16 the code was written for Keras 2.
  const auto keras3 = Version::parse("2.16.0");
  if (keras3 && d.target && d.target->series < keras3->truncated(2) && *image >= *keras3)
    route.notes.push_back(
        "Keras: the image's TensorFlow ships Keras 3; code written for tf.keras of TF <= 2.15 (Keras 2) may need "
        "tf-keras and TF_USE_LEGACY_KERAS=1 (TensorFlow 2.16 release notes)");
}

}  // namespace

bool is_container_profile(const std::string& profile) { return container_profile(profile).has_value(); }

std::optional<ContainerRoutePlan> plan_container_route(const std::string& asked, const GpuCheck& gpu,
                                                       const TfDecision& decision) {
  std::optional<Profile> profile = container_profile(asked);
  if (!profile && (!asked.empty() || !gpu.refused())) return std::nullopt;
  if (!profile) profile = image_profile_for_new_gpus();
  if (!profile) return std::nullopt;
  ContainerRoutePlan route;
  route.profile = profile->name.value_or("");
  route.image = profile->container_image.value_or("");
  route.pinned = provision::pinned_image_reference(route.image, profile->container_digest.value_or(""));
  route.distro = profile->distro.value_or("");
  route.tensorflow = image_series(*profile);
  route.asked = !asked.empty();
  if (decision.target) route.venv_profile = decision.target->name;
  route.mounts = profile->container_mounts.value_or({});
  for (const auto& e : profile->env) route.env.emplace_back(e.name, e.value.value_or(""));
  if (const auto* known = provision::builtin_download_facts().image(profile->container_digest.value_or("")))
    route.download_bytes = known->bytes;
  route.why = route.asked ? fmt::format("asked for with --profile {}", route.profile)
                          : fmt::format("{}: NVIDIA's TensorFlow image is built for it", gpu.summary.value_or(""));
  note_pins(decision, route);
  return route;
}

ShippedProfile container_target(const ContainerRoutePlan& route) {
  ShippedProfile target;
  target.name = route.profile;
  target.series = Version::parse(route.tensorflow).value_or(Version{});
  target.distro = route.distro;
  return target;
}

}  // namespace tfwsl::migrate
