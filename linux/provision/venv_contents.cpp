#include "linux/provision/venv_contents.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "common/parse/requirements_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"
#include "linux/provision/owned_file.hpp"

namespace tfwsl::provision {

std::string normalize_distribution_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool separator = c == '-' || c == '_' || c == '.';
    if (separator) {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += ascii_lower(c);
    }
  }
  return out;
}

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
    if (entry.path().filename().string().rfind("python3", 0) == 0 && std::filesystem::is_directory(entry.path() / "site-packages", ec))
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
      if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
      const std::string stem = name.substr(0, name.size() - suffix.size());
      const auto dash = stem.find('-');
      if (dash == std::string::npos) continue;
      out.push_back({normalize_distribution_name(stem.substr(0, dash)), stem.substr(dash + 1), entry.path()});
    }
  }
  return out;
}

std::vector<std::string> extra_requirements(const std::filesystem::path& dist_info, const std::string& extra) {
  std::vector<std::string> out;
  auto in = venv_file_lines(dist_info / "METADATA");
  std::string line;
  const std::string k_prefix = "Requires-Dist:";
  while (std::getline(in, line)) {
    if (line.rfind(k_prefix, 0) != 0) continue;
    const std::string rest = line.substr(k_prefix.size());
    const auto semi = rest.find(';');
    if (semi == std::string::npos) continue;
    const std::string marker = rest.substr(semi + 1);
    if (marker.find("extra == \"" + extra + "\"") == std::string::npos && marker.find("extra == '" + extra + "'") == std::string::npos)
      continue;
    const std::string spec = std::string(trim(std::string_view(rest).substr(0, semi)));
    const auto end = spec.find_first_of(" [<>=!~(");
    out.push_back(normalize_distribution_name(spec.substr(0, end)));
  }
  return out;
}

std::string unmet_requirement(const std::vector<InstalledDistribution>& installed, const std::string& requirement) {
  auto req = parse::parse_requirement(requirement, false, 0);
  if (!req) return fmt::format("'{}' is not a requirement tfwsl can check", requirement);
  const std::string name = normalize_distribution_name(req->package);
  auto found = std::find_if(installed.begin(), installed.end(), [&](const InstalledDistribution& d) { return d.name == name; });
  if (found == installed.end()) return fmt::format("{} is not installed", req->package);
  auto spec = VersionSpec::parse(req->spec);
  auto version = Version::parse(found->version);
  if (spec && version && !spec->allows_installed(*version)) return fmt::format("{} {} does not match {}", req->package, found->version, req->spec);
  for (const auto& extra : req->extras) {
    for (const auto& needed : extra_requirements(found->dist_info, extra)) {
      if (std::none_of(installed.begin(), installed.end(), [&](const InstalledDistribution& d) { return d.name == needed; }))
        return fmt::format("{} (from {}[{}]) is not installed", needed, req->package, extra);
    }
  }
  return {};
}

}  // namespace tfwsl::provision
