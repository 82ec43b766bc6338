#include "win/migrate/distro_choice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/ascii.hpp"

namespace tfwsl::migrate {
namespace {

bool same_name(const std::string& a, const std::string& b) { return ascii_lower(a) == ascii_lower(b); }

// The python3 of a distro named for its Ubuntu release ("Ubuntu-22.04" -> 3.10). A plain "Ubuntu"
// is whichever release was current when it was installed, which its name does not say: none.
std::optional<Version> named_release_python(const std::string& distro, const CompatDb& db) {
  if (!ascii_lower(distro).starts_with("ubuntu-")) return std::nullopt;
  const auto release = db.ubuntu_release_of_distro(distro);
  if (!release) return std::nullopt;
  return db.ubuntu_default_python(*release);
}

// The installed distro (newest Ubuntu release first, by name) whose python3 runs the target series.
std::optional<std::pair<std::string, Version>> installed_that_runs(const std::vector<std::string>& installed,
                                                                   const ProjectScan& scan, const CompatDb& db,
                                                                   const TfRelease& release) {
  std::vector<std::string> names = installed;
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return ascii_lower(a) > ascii_lower(b); });
  for (const auto& name : names) {
    const auto python = named_release_python(name, db);
    if (!python || !release.python.contains(*python)) continue;
    const std::string series = python->truncated(2).to_string();
    if (scan.python && !python_fits(*scan.python, series)) continue;
    return std::pair{name, *python};
  }
  return std::nullopt;
}

}  // namespace

void choose_distro(const std::optional<std::vector<std::string>>& installed, const ProjectScan& scan,
                   const CompatDb& db, TfDecision& decision) {
  if (!decision.target) return;
  ShippedProfile& target = *decision.target;
  if (!installed) return;  // natively there is no WSL to choose in; the plan names the profile's distro
  if (std::any_of(installed->begin(), installed->end(), [&](const auto& d) { return same_name(d, target.distro); })) {
    decision.reasons.push_back(fmt::format("distro {}: the profile's, installed here", target.distro));
    return;
  }
  const TfRelease* release = db.find_tf_release(target.series);
  const auto own = release ? installed_that_runs(*installed, scan, db, *release) : std::nullopt;
  if (!own) {
    decision.reasons.push_back(fmt::format(
        "distro {}: a new distribution is installed (wsl --install -d {}): no WSL 2 Ubuntu here has a Python that "
        "TF {} supports",
        target.distro, target.distro, target.series.to_string()));
    return;
  }
  decision.reasons.push_back(fmt::format(
      "distro {} (installed here) instead of the profile's {}: its Python {} runs TF {}, so no second distribution "
      "is installed",
      own->first, target.distro, own->second.truncated(2).to_string(), target.series.to_string()));
  target.distro = own->first;
  target.python = own->second.truncated(2).to_string();
  target.user_distro = true;
}

std::vector<std::string> profile_overrides(const ShippedProfile& target) {
  if (!target.user_distro) return {};
  return {"distro=" + target.distro, "python.version='" + target.python + "'"};
}

}  // namespace tfwsl::migrate
