#pragma once
// Which route migrate plans: the venv's (a shipped tf-* profile) or the container's (NVIDIA's
// TensorFlow image, a shipped route: container profile). On a GPU no stock wheel runs on
// (Blackwell) the container route is planned instead of refusing; `--profile` names it on any GPU.
// The project's pins are compared with the image's TensorFlow and a mismatch is a note with what it
// means for the code, not a refusal: no other route runs on that GPU.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "win/migrate/gpu_check.hpp"
#include "win/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

struct ContainerRoutePlan {
  std::string profile;                          // "ngc-tf-25.02"
  std::string image;                            // "nvcr.io/nvidia/tensorflow:25.02-tf2-py3"
  std::string pinned;                           // what is pulled and run: "nvcr.io/nvidia/tensorflow@sha256:..."
  std::string distro;                           // the profile's distro: "Ubuntu-24.04"
  std::string tensorflow;                       // the image's TensorFlow: "2.17"
  std::optional<std::uint64_t> download_bytes;  // the image's layers (profiles/download-sizes.yaml)
  bool asked = false;                           // named with --profile
  std::string venv_profile;                     // what the pins alone would pick for a venv ("" none)
  std::vector<std::string> mounts;              // the profile's, HOST:CONTAINER[:ro] ("~" until with_home)
  std::vector<std::pair<std::string, std::string>> env;  // the profile's environment, passed to the run
  std::string why;                                       // one line
  std::vector<std::string> notes;                        // the pins the image does not meet, and what that means
};

// Whether `profile` (what --profile names) is a shipped profile of the container route.
bool is_container_profile(const std::string& profile);

// The container route when --profile names one (`asked`), or when the GPU check refused the venv
// route's stock wheels and --profile named nothing; otherwise nothing.
std::optional<ContainerRoutePlan> plan_container_route(const std::string& asked, const GpuCheck& gpu,
                                                       const TfDecision& decision);

// The container profile as the target migrate provisions and copies into (its distro, no venv).
ShippedProfile container_target(const ContainerRoutePlan& route);

}  // namespace tfwsl::migrate
