#pragma once
// Small pieces the judge's check files share (assess_*.cpp): building a verdict, joining names,
// the time-out verdict, and reading versions with common/version.

#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/linux_facts.hpp"
#include "common/check/check.hpp"
#include "common/judge/assess.hpp"
#include "common/judge/check_policy.hpp"
#include "common/version/version.hpp"

namespace tfwsl::judge::detail {

using agent_api::LinuxFacts;

CheckResult verdict(const std::string& id, CheckStatus status, std::string summary, std::string fix = {},
                    std::vector<std::string> details = {});
std::string join(const std::vector<std::string>& items, const char* separator = ", ");

bool probe_timed_out(const LinuxFacts& facts, const char* probe);
CheckResult timeout_verdict(const std::string& id, const char* probe);
bool is_wsl(const LinuxFacts& facts);
// The distro's name for a Windows command ("wsl --set-version Ubuntu-22.04 2"), or a placeholder
// that says what to put there when the agent did not learn it.
std::string distro_for_command(const LinuxFacts& facts);

// "3.10.12" -> 3.10; nothing when unreadable.
std::optional<Version> minor_series(const std::string& text);
// Is `version` in the release series `wanted` names ("12.2": 12.2.140 is, 12.20 is not)?
// Unreadable versions are in no series.
bool in_series(const std::string& version, const std::string& wanted);
// cudnnGetVersion()'s number as a version: 8906 -> 8.9.6 (below 9: major*1000 + minor*100 + patch),
// 91900 -> 9.19.0 (from 9: major*10000 + minor*100 + patch, cuDNN 9 API reference, cudnnGetVersion).
Version cudnn_version_from(long number);

// "the profile tf-2.15-cuda-12.2's venv ~/.venvs/tf-2.15", or "the profile's venv" when it names none.
std::string venv_phrase(const CheckPolicy& policy);

CheckResult check_dxg(const LinuxFacts& f);
CheckResult check_libcuda(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_no_linux_driver(const LinuxFacts& f);
CheckResult check_ldconfig(const LinuxFacts& f);
CheckResult check_gpu_visible(const LinuxFacts& f);
CheckResult check_compute_capability(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_toolkit(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_cudnn(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_python(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_tf_installed(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_tf_build(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_tf_gpu(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_memory(const LinuxFacts& f, const std::optional<WindowsMemory>& windows_memory);
CheckResult check_disk(const LinuxFacts& f, const CheckPolicy& p);
CheckResult check_data_location(const LinuxFacts& f);

// The facts a verdict's summary quotes, as its `values` (check_values.cpp).
nlohmann::json toolkit_values(const LinuxFacts& f, const CheckPolicy& p);
nlohmann::json cudnn_values(const LinuxFacts& f, const CheckPolicy& p);
nlohmann::json python_values(const LinuxFacts& f, const CheckPolicy& p);
nlohmann::json tf_values(const LinuxFacts& f, const CheckPolicy& p);
nlohmann::json memory_values(const LinuxFacts& f, const std::optional<WindowsMemory>& windows_memory);
nlohmann::json disk_values(const LinuxFacts& f, const CheckPolicy& p);

}  // namespace tfwsl::judge::detail
