// The profile keys, one row each. To add a key: add its field to Profile (profile.hpp) and one row
// here; the loader, validator, emitter, `extends` merging, command-line overrides, `profile show`
// and the built-in defaults follow from the row. The columns are described in profile_schema.hpp.

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <span>

#include "common/profile/apt_package_rule.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_value_types.hpp"
#include "common/units/size_parser.hpp"
#include "common/version/driver_version.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl {
namespace {

// ---- the small checks some rows add to their type's rules ----

std::optional<ProfileKeyProblem> check_profile_name(std::string_view, std::string_view text) {
  const bool ok = text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
                    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                           c == '-' || c == '.';
                  });
  if (ok) return std::nullopt;
  return ProfileKeyProblem{
      fmt::format("profile name '{}' may only use letters, digits, '.', '_' and '-' (64 at most)", text),
      "write e.g. name: tf-2.15-team"};
}

std::optional<ProfileKeyProblem> check_memory_not_zero(std::string_view key, std::string_view text) {
  auto bytes = parse_wsl_size(text);
  if (!bytes || *bytes != 0) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' is 0", key), "write the memory WSL may use, such as 16GB"};
}

// NVIDIA's numbering (546.80) or the Windows file form (31.0.15.4680), as nvidia-smi and the registry print it.
std::optional<ProfileKeyProblem> check_driver_version(std::string_view key, std::string_view text) {
  auto driver = parse_driver_version(text);
  if (driver) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}': {}", key, driver.error().message),
                           "write NVIDIA's driver number, e.g. driver: \"546.80\""};
}

std::optional<ProfileKeyProblem> check_version_specifier(std::string_view key, std::string_view text) {
  auto spec = VersionSpec::parse(text);
  if (spec) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}': {}", key, spec.error().message), "write e.g. version: \"2.15.*\""};
}

// The one apt package-name rule (apt_package_rule.hpp), which provisioning applies too.
std::optional<ProfileKeyProblem> check_apt_package(std::string_view, std::string_view text) {
  auto problem = apt_package_name_problem(text);
  if (!problem) return std::nullopt;
  return ProfileKeyProblem{*problem, "write a Debian package name, e.g. build-essential"};
}

std::optional<ProfileKeyProblem> check_pip_requirement(std::string_view key, std::string_view text) {
  auto req = parse_requirement(text);
  if (req) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' item: {}", key, req.error().message),
                           "write a pip requirement such as \"numpy<2\""};
}

// Podman is the one engine tfwsl provisions (docs/provisioning.md, "The container route"): it reads
// CDI specs from 4.1, needs no daemon, and runs the image as the distro's user.
std::optional<ProfileKeyProblem> check_container_engine(std::string_view key, std::string_view text) {
  if (text == "podman") return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' is '{}'; tfwsl runs containers with podman only", key, text),
                           "write engine: podman"};
}

// An image reference as the engines read it: [registry[:port]/]path[:tag], lower-case path, no digest
// (that is container.digest) and nothing a shell or an argv could read as an option.
std::optional<ProfileKeyProblem> check_image_reference(std::string_view key, std::string_view text) {
  static const std::regex k_reference(
      R"(^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(/[a-z0-9]+([._-]{1,2}[a-z0-9]+)*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$)");
  if (text.size() <= 255 && std::regex_match(text.begin(), text.end(), k_reference)) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' is not an image reference ('{}')", key, text),
                           "write e.g. image: nvcr.io/nvidia/tensorflow:25.02-tf2-py3 (the digest goes in digest:)"};
}

std::optional<ProfileKeyProblem> check_image_digest(std::string_view key, std::string_view text) {
  static const std::regex k_digest("^sha256:[0-9a-f]{64}$");
  if (std::regex_match(text.begin(), text.end(), k_digest)) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' is not a sha256 digest ('{}')", key, text),
                           "write digest: \"sha256:\" followed by 64 lower-case hex digits, as the registry shows it"};
}

// HOST:CONTAINER[:ro], the container side absolute; the host side a path in the distro (~ allowed).
std::optional<ProfileKeyProblem> check_container_mount(std::string_view key, std::string_view text) {
  static const std::regex k_mount(R"(^(~|~/[^:,]*|/[^:,]*):/[^:,]*(:ro)?$)");
  if (std::regex_match(text.begin(), text.end(), k_mount)) return std::nullopt;
  return ProfileKeyProblem{fmt::format("'{}' item '{}' is not HOST:CONTAINER[:ro]", key, text),
                           "write e.g. \"~/.keras:/root/.keras\" (both sides absolute, or ~ on the host side)"};
}

}  // namespace

// A named namespace, so the enumerators brought in here stay out of the rest of the (unity-built)
// library.
namespace profile_key_rows {

template <auto Member, class Value>
constexpr const ProfileKeyOps* field = &k_setting_ops<ProfileField<Member>, Value>;

using enum ProfileValueType;
using enum ProfileMerge;
using enum ProfileEmitStyle;

constexpr ProfileKeyRow k_profile_key_table[] = {
    {.key = "name",
     .type = text,
     .ops = field<&Profile::name, TextValue>,
     .example = "my-team",
     .check = check_profile_name,
     .required = {"the profile has no name", "add a line such as name: tf-2.15-team"},
     .comment = "required: letters, digits, '.', '_', '-' (64 at most)"},
    {.key = "extends",
     .type = text,
     .ops = &k_setting_ops<LayerExtendsField, TextValue>,
     .example = "base.yaml",
     .merge = not_merged,
     .emit = not_emitted,
     .on_command_line = false,
     .comment = "optional: relative to this file, or builtin:NAME"},
    {.key = "route",
     .type = route,
     .ops = field<&Profile::route, RouteValue>,
     .default_yaml = "wsl",
     .example = "wsl",
     .comment = "wsl (default) | container (NVIDIA's TensorFlow image) | native-windows (TF <= 2.10 on Windows)"},
    // Ubuntu 22.04's python3 (3.10) runs every TensorFlow release from 2.9 to 2.21; plain "Ubuntu"
    // would be 26.04 with Python 3.14, which no TensorFlow release supports.
    {.key = "distro",
     .type = text,
     .ops = field<&Profile::distro, TextValue>,
     .default_yaml = "Ubuntu-22.04",
     .example = "Ubuntu-22.04",
     .wsl_only = true,
     .comment = "the WSL distro; plain \"Ubuntu\" changes meaning over time (warning)"},
    {.key = "wsl.memory",
     .type = size,
     .ops = field<&Profile::wsl_memory, SizeValue>,
     .example = "16GB",
     .check = check_memory_not_zero,
     .wsl_only = true,
     .comment = ".wslconfig [wsl2] memory="},
    {.key = "wsl.processors",
     .type = processors,
     .ops = field<&Profile::wsl_processors, ProcessorsValue>,
     .example = "8",
     .wsl_only = true,
     .comment = ".wslconfig [wsl2] processors="},
    {.key = "wsl.swap",
     .type = size,
     .ops = field<&Profile::wsl_swap, SizeValue>,
     .example = "16GB",
     .wsl_only = true,
     .comment = ".wslconfig [wsl2] swap="},
    // A floor, not a pin: a newer driver runs every older CUDA (NVIDIA's CUDA compatibility guide,
    // https://docs.nvidia.com/deploy/cuda-compatibility/), and WSL shares the Windows one.
    {.key = "gpu.driver",
     .type = version,
     .ops = field<&Profile::gpu_driver, VersionValue>,
     .example = "\"546.80\"",
     .check = check_driver_version,
     .emit = quoted,
     .comment = "the oldest NVIDIA Windows driver the team accepts (profile diff reports an older one)"},
    {.key = "cuda.toolkit",
     .type = version,
     .ops = field<&Profile::cuda_toolkit, VersionValue>,
     .example = "12.2",
     .emit = quoted,
     .comment = "installs apt cuda-toolkit-X-Y (never a driver: Windows shares its own)"},
    {.key = "cuda.cudnn",
     .type = version,
     .ops = field<&Profile::cuda_cudnn, VersionValue>,
     .example = "8.9",
     .emit = quoted,
     .comment = "the cuDNN major the TensorFlow release is built against"},
    {.key = "python.version",
     .type = version,
     .ops = field<&Profile::python_version, VersionValue>,
     .example = "3.10",
     .emit = quoted,
     .comment = "else the distro's python3"},
    {.key = "python.venv",
     .type = text,
     .ops = field<&Profile::python_venv, TextValue>,
     .default_yaml = "~/.venvs/tfwsl",
     .example = "~/.venvs/tf",
     .comment = "the virtual environment TensorFlow is installed into"},
    {.key = "tensorflow.version",
     .type = text,
     .ops = field<&Profile::tensorflow_version, TextValue>,
     .example = "\"2.15.*\"",
     .check = check_version_specifier,
     .emit = quoted,
     .required = {"the profile does not say which TensorFlow to install",
                  "add tensorflow: { version: \"2.15.*\" } (or extend a built-in profile)"},
     .comment = "a pip version specifier"},
    {.key = "tensorflow.extras",
     .type = list,
     .ops = field<&Profile::tensorflow_extras, ListValue>,
     .example = "[and-cuda]",
     .comment = "[and-cuda] brings CUDA and cuDNN as pip wheels (TF >= 2.14)"},
    {.key = "packages.apt",
     .type = list,
     .ops = field<&Profile::apt_packages, ListValue>,
     .example = "[build-essential]",
     .check = check_apt_package,
     .comment = "extra apt packages (no Linux NVIDIA driver)"},
    {.key = "packages.pip",
     .type = list,
     .ops = field<&Profile::pip_packages, ListValue>,
     .example = "[\"numpy<2\"]",
     .check = check_pip_requirement,
     .emit = quoted,
     .comment = "extra pip requirements"},
    {.key = "env",
     .type = env_map,
     .ops = &k_named_values_ops<&Profile::env>,
     .example = "{ TF_FORCE_GPU_ALLOW_GROWTH: \"true\" }",
     .merge = by_name,
     .comment = "environment variables for TensorFlow; merged name by name"},
    {.key = "datasets",
     .type = datasets,
     .ops = field<&Profile::datasets, DatasetsValue>,
     .example = "[ { name: imagenet-mini, source: 'D:\\data\\imagenet-mini' } ]",
     .comment = "Windows folders to import into the distro"},
    {.key = "container.engine",
     .type = text,
     .ops = field<&Profile::container_engine, TextValue>,
     .example = "podman",
     .check = check_container_engine,
     .comment = "route: container: the engine installed in the distro (podman)"},
    {.key = "container.image",
     .type = text,
     .ops = field<&Profile::container_image, TextValue>,
     .example = "nvcr.io/nvidia/tensorflow:25.02-tf2-py3",
     .check = check_image_reference,
     .comment = "route: container: the image, by name and tag"},
    {.key = "container.digest",
     .type = text,
     .ops = field<&Profile::container_digest, TextValue>,
     .example = "\"sha256:c83b37d26f19ab00d8a13cf974edd079c3d099918ec3110c304a989d6e2f75d5\"",
     .check = check_image_digest,
     .emit = quoted,
     .comment = "route: container: the image's digest, what is pulled and run"},
    {.key = "container.build",
     .type = list,
     .ops = field<&Profile::container_build, ListValue>,
     .example = "[\"FROM nvidia/cuda:12.2.2-base-ubuntu22.04@sha256:...\", \"RUN ...\"]",
     .emit = quoted,
     .comment = "route: container: a Dockerfile, a line each, built locally into container.image"},
    {.key = "container.mounts",
     .type = list,
     .ops = field<&Profile::container_mounts, ListValue>,
     .example = "[\"~/.keras:/root/.keras\"]",
     .check = check_container_mount,
     .emit = quoted,
     .comment = "route: container: folders mounted besides the project (HOST:CONTAINER[:ro])"},
};

}  // namespace profile_key_rows

namespace {

// The table's own rules, checked when it compiles: the type and merge columns say what the row's
// field does, keys are unique and have at most one dot, and rows of one section are adjacent.
consteval bool table_is_consistent() {
  constexpr std::span<const ProfileKeyRow> rows(profile_key_rows::k_profile_key_table);
  auto section_of = [](std::string_view key) { return key.substr(0, key.find('.') == key.npos ? 0 : key.find('.')); };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (row.type != row.ops->type || row.merge != row.ops->merge) return false;
    if (std::count(row.key.begin(), row.key.end(), '.') > 1) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (rows[j].key == row.key) return false;
      const auto s = section_of(row.key);
      if (!s.empty() && section_of(rows[j].key) == s && section_of(rows[i - 1].key) != s) return false;
    }
  }
  return true;
}
static_assert(table_is_consistent(), "a row of the profile key table contradicts its field or the table's order");

}  // namespace

std::span<const ProfileKeyRow> profile_key_table() { return profile_key_rows::k_profile_key_table; }

}  // namespace tfwsl
