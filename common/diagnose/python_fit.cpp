#include "common/diagnose/python_fit.hpp"

#include <fmt/format.h>

#include "common/diagnose/tensorflow_range.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::diagnose {

std::optional<nlohmann::json> python_conflict(const parse::DeclaredRequirement& python,
                                              const parse::DeclaredRequirement& tensorflow, const CompatDb& compat) {
  auto python_spec = VersionSpec::parse(to_pep440_spec(python.spec, python.conda));
  auto tf_spec = VersionSpec::parse(to_pep440_spec(tensorflow.spec, tensorflow.conda));
  if (!python_spec || !tf_spec || python_spec->is_any()) return std::nullopt;
  const auto releases = compat.allowed_tf_releases(*tf_spec);
  if (releases.empty()) return std::nullopt;
  for (const TfRelease* release : releases) {
    for (int minor = 5; minor <= 20; ++minor) {
      auto candidate = Version::parse(fmt::format("3.{}.0", minor));
      if (candidate && python_spec->allows(*candidate) && release->python.contains(*candidate)) return std::nullopt;
    }
  }
  // Oldest first: the union of their ranges runs from the first one's minimum to the last one's maximum.
  VersionRange range{releases.front()->python.min, releases.back()->python.max};
  return nlohmann::json{{"python", python.spec}, {"tensorflow_python", range.to_string()}};
}

}  // namespace tfwsl::diagnose
