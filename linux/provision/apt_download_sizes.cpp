#include "linux/provision/apt_download_sizes.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "common/provision/download_sizes.hpp"
#include "common/provision/plan_downloads.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "linux/provision/dpkg_state.hpp"

namespace tfwsl::provision {
namespace {

std::vector<std::string> missing_packages(const PlannedStep& step, const DpkgState* dpkg) {
  std::vector<std::string> missing;
  for (const auto& package : step.packages)
    if (!dpkg || !dpkg->has(package)) missing.push_back(package);
  return missing;
}

}  // namespace

void ask_apt_download_sizes(ProvisionPlan& plan, const std::filesystem::path& root, ProcessRunner& runner) {
  const auto dpkg = read_dpkg_state(root);
  for (auto& step : plan.distro_steps) {
    if (!asks_apt_for_size(step)) continue;
    const auto missing = missing_packages(step, dpkg ? &*dpkg : nullptr);
    if (missing.empty()) {
      step.download = DownloadEstimate{0, false, "none", "dpkg has every package (the step's check will find it done)"};
      continue;
    }
    ProcessRequest request;
    request.argv = apt_print_uris_argv(missing);
    request.env = apt_environment();
    request.timeout = std::chrono::seconds(60);
    const auto answer = runner.run(request);
    // apt that cannot resolve the packages (exit 100: "Unable to locate package") leaves the
    // known size in place; so does an apt that is missing or stopped.
    if (answer && answer->exit_code == 0 && !answer->timed_out) set_apt_figure(step, apt_print_uris_bytes(answer->out));
  }
}

}  // namespace tfwsl::provision
