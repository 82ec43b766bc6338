#include "linux/provision/venv_contents.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "common/util/ascii.hpp"
#include "common/version/requirement_syntax.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"
#include "linux/provision/owned_file.hpp"

namespace tfwsl::provision {

namespace {

// Root reads these files in the user's venv: the last component not followed, a regular file of at
// most a megabyte, never blocking on a FIFO (linux/provision/owned_file.hpp). Anything else reads
// as nothing.
std::istringstream venv_file_lines(const std::filesystem::path& path) {
  return std::istringstream(read_owned_file(path, std::nullopt).value_or(""));
}

}  // namespace

std::optional<std::string> venv_python_version(const std::filesystem::path& venv) {
  auto in = venv_file_lines(venv / "pyvenv.cfg");
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const auto key = trim(std::string_view(line).substr(0, eq));
    if (key == "version" || key == "version_info") return std::string(trim(std::string_view(line).substr(eq + 1)));
  }
  return std::nullopt;
}

std::vector<std::filesystem::path> venv_site_packages(const std::filesystem::path& venv) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(venv / "lib", ec)) {
    if (entry.path().filename().string().rfind("python3", 0) == 0 &&
        std::filesystem::is_directory(entry.path() / "site-packages", ec))
      out.push_back(entry.path() / "site-packages");
  }
  return out;
}

std::vector<InstalledDistribution> venv_distributions(const std::filesystem::path& venv) {
  std::vector<InstalledDistribution> out;
  std::error_code ec;
  for (const auto& site : venv_site_packages(venv)) {
    for (const auto& entry : std::filesystem::directory_iterator(site, ec)) {
      const std::string name = entry.path().filename().string();
      const std::string suffix = ".dist-info";
      if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      const std::string stem = name.substr(0, name.size() - suffix.size());
      const auto dash = stem.find('-');
      if (dash == std::string::npos) continue;
      out.push_back({normalize_package_name(stem.substr(0, dash)), stem.substr(dash + 1), entry.path()});
    }
  }
  return out;
}

// A Requirement's marker names `extra` ("extra == 'and-cuda'", either quote, any blanks).
bool marker_names_extra(std::string_view marker, std::string_view extra) {
  std::string compact;
  for (char c : marker)
    if (!ascii_is_space(c)) compact += c == '\'' ? '"' : c;
  return compact.find(fmt::format("extra==\"{}\"", extra)) != std::string::npos;
}

std::vector<std::string> extra_requirements(const std::filesystem::path& dist_info, const std::string& extra) {
  std::vector<std::string> out;
  auto in = venv_file_lines(dist_info / "METADATA");
  std::string line;
  constexpr std::string_view k_prefix = "Requires-Dist:";
  while (std::getline(in, line)) {
    if (!line.starts_with(k_prefix)) continue;
    // METADATA's Requires-Dist values are PEP 508 requirements: the one reader reads them.
    const auto parts = read_requirement_parts(std::string_view(line).substr(k_prefix.size()));
    if (parts && marker_names_extra(parts->marker, extra)) out.push_back(normalize_package_name(parts->name));
  }
  return out;
}

RequirementState check_installed(const std::vector<InstalledDistribution>& installed, const Requirement& req) {
  using State = RequirementState::State;
  auto found = std::find_if(installed.begin(), installed.end(),
                            [&](const InstalledDistribution& d) { return d.name == req.name; });
  if (found == installed.end()) return {State::not_installed, fmt::format("{} is not installed", req.name_as_written)};
  auto version = Version::parse(found->version);
  if (version && !req.spec.allows_installed(*version))
    return {State::other_version,
            fmt::format("{} {} does not match {}", req.name_as_written, found->version, req.spec_text)};
  for (const auto& extra : req.extras) {
    for (const auto& needed : extra_requirements(found->dist_info, extra)) {
      if (std::none_of(installed.begin(), installed.end(),
                       [&](const InstalledDistribution& d) { return d.name == needed; }))
        return {State::extra_missing,
                fmt::format("{} (from {}[{}]) is not installed", needed, req.name_as_written, extra)};
    }
  }
  return {};
}

std::string unmet_requirement(const std::vector<InstalledDistribution>& installed, const std::string& requirement) {
  auto req = parse_requirement(requirement);
  if (!req) return fmt::format("'{}' is not a requirement tfwsl can check", requirement);
  return check_installed(installed, *req).reason;
}

}  // namespace tfwsl::provision
