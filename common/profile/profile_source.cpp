#include "common/profile/profile_source.hpp"

#include <fmt/format.h>

#include "common/profile/profile_schema.hpp"
#include "common/resources/embedded_resources.hpp"
#include "common/util/regular_file.hpp"
#include "common/util/suggest.hpp"

namespace tfwsl {
namespace {

constexpr std::string_view k_builtin_prefix = "builtin:";
constexpr std::string_view k_compat_file = "compat.yaml";

std::string_view strip_prefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix ? s.substr(prefix.size()) : s;
}

// "a/b/../c.yaml" relative to "team/x.yaml" -> "team/a/c.yaml"; nothing when it climbs out.
std::optional<std::string> join_inside(std::string_view from_name, std::string_view reference) {
  std::vector<std::string> parts;
  auto push_parts = [&](std::string_view path) -> bool {
    std::size_t start = 0;
    while (start <= path.size()) {
      std::size_t end = path.find_first_of("/\\", start);
      if (end == std::string_view::npos) end = path.size();
      const std::string_view part = path.substr(start, end - start);
      if (part == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.emplace_back(part);
      }
      start = end + 1;
    }
    return true;
  };
  if (reference.empty() || reference.front() == '/' || reference.front() == '\\' ||
      (reference.size() > 1 && reference[1] == ':'))
    return std::nullopt;  // absolute paths and drive letters leave the set
  const auto slash = from_name.find_last_of("/\\");
  if (slash != std::string_view::npos && !push_parts(from_name.substr(0, slash))) return std::nullopt;
  if (!push_parts(reference) || parts.empty()) return std::nullopt;
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

}  // namespace

Result<ProfileText> read_profile_file(const std::filesystem::path& path) {
  // One bounded open of a regular file (common/util/regular_file.hpp): a FIFO or a device named as
  // a profile is refused, never read (a FIFO would block, /dev/zero would never end).
  const RegularFileRead read = read_regular_file(path, k_max_profile_bytes);
  switch (read.problem) {
    case FileReadProblem::none:
      break;
    case FileReadProblem::missing:
    case FileReadProblem::not_regular:
      return make_error(
          ErrorCode::not_found,
          fmt::format("profile '{}' does not exist or is not a file{}; check the path, "
                      "name a built-in profile ({}, ...), or write a YAML file that extends one (docs/profiles.md)",
                      path.string(), *read.kind ? fmt::format(" (it is {})", read.kind) : "", default_profile_name()));
    case FileReadProblem::too_large:
      return make_error(
          ErrorCode::invalid_input,
          fmt::format("profile '{}' is {} bytes, more than a profile can be ({} bytes); point at the YAML profile",
                      path.string(), read.size, k_max_profile_bytes));
    case FileReadProblem::unreadable:
      return make_error(ErrorCode::io,
                        fmt::format("cannot read profile '{}' ({}); check its permissions", path.string(), read.why));
  }
  std::error_code ec;
  auto canonical = std::filesystem::weakly_canonical(path, ec);
  return ProfileText{ec ? path.string() : canonical.string(), path.string(), read.bytes};
}

std::vector<std::string> shipped_profile_names() {
  std::vector<std::string> names;
  for (std::string_view file : embedded_resource_names()) {
    if (!file.ends_with(".yaml") || file == k_compat_file || file.front() == '_') continue;
    names.emplace_back(file.substr(0, file.size() - 5));
  }
  return names;
}

std::string default_profile_name() { return "tf-2.15-cuda-12.2"; }

Result<ProfileText> open_builtin_profile(std::string_view raw) {
  std::string name(strip_prefix(raw, k_builtin_prefix));
  if (!name.ends_with(".yaml")) name += ".yaml";
  // Bases ('_name.yaml') and the defaults (written from the key table) can be extended but are not
  // offered as profiles.
  if ("builtin:" + name == k_builtin_defaults_name)
    return ProfileText{"builtin:" + name, "builtin:" + name, builtin_defaults_yaml()};
  if (name != k_compat_file) {
    if (auto text = embedded_resource(name)) {
      return ProfileText{"builtin:" + name, "builtin:" + name, std::string(*text)};
    }
  }
  const auto names = shipped_profile_names();
  auto hint = closest_match(strip_prefix(raw, k_builtin_prefix), names);
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  return make_error(ErrorCode::not_found, fmt::format("there is no built-in profile '{}'{}; built-in profiles: {}", raw,
                                                      hint ? fmt::format(" (did you mean '{}'?)", *hint) : "", known));
}

Result<ProfileText> open_profile(std::string_view name_or_path) {
  if (name_or_path.substr(0, k_builtin_prefix.size()) == k_builtin_prefix) return open_builtin_profile(name_or_path);
  // A file of that name wins: the user pointed at it. A bare name that is no file is a built-in one.
  std::error_code ec;
  const std::filesystem::path path{std::string(name_or_path)};
  const bool looks_like_path = name_or_path.find_first_of("/\\") != std::string_view::npos;
  if (looks_like_path || std::filesystem::exists(path, ec)) return read_profile_file(path);
  auto builtin = open_builtin_profile(name_or_path);
  if (builtin) return builtin;
  return make_error(ErrorCode::not_found, fmt::format("'{}' is neither a profile file nor a built-in profile: {}",
                                                      name_or_path, builtin.error().message));
}

Result<ProfileText> FileProfileResolver::resolve(const ProfileText& from, std::string_view reference) {
  if (reference.substr(0, k_builtin_prefix.size()) == k_builtin_prefix) return open_builtin_profile(reference);
  if (from.id.substr(0, k_builtin_prefix.size()) == k_builtin_prefix) {
    // Built-in profiles only extend built-in profiles.
    auto inside = join_inside("", reference);
    if (!inside) {
      return make_error(ErrorCode::invalid_input,
                        fmt::format("built-in profile {} extends '{}', which is not a built-in profile",
                                    from.display_name, reference));
    }
    return open_builtin_profile(*inside);
  }
  std::filesystem::path base = std::filesystem::path(from.id).parent_path();
  const std::filesystem::path ref{std::string(reference)};
  return read_profile_file(ref.is_absolute() ? ref : base / ref);
}

Result<ProfileText> InMemoryProfileResolver::open(const std::string& name) const {
  auto it = m_files.find(name);
  if (it == m_files.end()) return make_error(ErrorCode::not_found, fmt::format("no profile named '{}'", name));
  return ProfileText{"mem:" + name, name, it->second};
}

Result<ProfileText> InMemoryProfileResolver::resolve(const ProfileText& from, std::string_view reference) {
  if (reference.substr(0, k_builtin_prefix.size()) == k_builtin_prefix) return open_builtin_profile(reference);
  const std::string_view from_name = strip_prefix(from.id, "mem:");
  auto joined = join_inside(from.id.substr(0, 4) == "mem:" ? from_name : std::string_view{}, reference);
  if (!joined) {
    return make_error(ErrorCode::invalid_input, "it leaves the folder of the profiles; name a file beside this one");
  }
  auto it = m_files.find(*joined);
  if (it == m_files.end()) {
    return make_error(ErrorCode::not_found, "there is no such profile");
  }
  return ProfileText{"mem:" + *joined, *joined, it->second};
}

}  // namespace tfwsl
