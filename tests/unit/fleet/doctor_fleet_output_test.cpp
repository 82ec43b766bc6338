// `tfwsl doctor --summary-line` and `--compliance` (win/render/doctor_fleet_output.hpp): the
// Intune detection line's length and content, the flat compliance facts, from the doctor's JSON.
#include "win/render/doctor_fleet_output.hpp"

#include <catch2/catch.hpp>

#include "common/util/utf8_prefix.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;
using nlohmann::json;

namespace {

json check(const std::string& id, const std::string& status, const std::string& summary, json values = nullptr) {
  json c = {{"id", id}, {"status", status}, {"summary", summary}, {"details", json::array()}, {"fix", ""}};
  if (!values.is_null()) c["values"] = std::move(values);
  return c;
}

json healthy() {
  return {
      {"tfwsl_version", "0.2.0"},
      {"profile", "tf-2.15-cuda-12.2"},
      {"checks", json::array({check("host.nvidia-driver", "ok", "driver 546.80", {{"driver", "546.80"}}),
                              check("wsl.default-version", "ok", "WSL 2"), check("wsl.distro", "ok", "Ubuntu-22.04"),
                              check("tf.installed", "ok", "TensorFlow 2.15.1", {{"version", "2.15.1"}}),
                              check("tf.gpu", "ok", "TensorFlow 2.15.1 sees /physical_device:GPU:0"),
                              check("wslconfig.memory", "ok", "memory=16GB",
                                    {{"memory", "16GB"}, {"configured_bytes", 17179869184}}),
                              check("mem.effective", "ok", "16 GiB", {{"configured_bytes", 17179869184}})})},
      {"summary",
       {{"issues", 0}, {"categories", 0}, {"exit_code", 0}, {"root_causes", json::array()}, {"fix_first", nullptr}}}};
}

json broken(const std::string& fix) {
  json d = healthy();
  d["checks"][2]["status"] = "fail";
  d["summary"] = {{"issues", 2},
                  {"categories", 2},
                  {"exit_code", 2},
                  {"root_causes", {"wsl.distro", "gpu.driver-parity"}},
                  {"fix_first", {{"id", "wsl.distro"}, {"summary", "no distro"}, {"fix", fix}}}};
  return d;
}

}  // namespace

TEST_CASE("summary line: healthy says ok, the count, the profile and what TensorFlow sees") {
  CHECK(doctor_summary_line(healthy()) ==
        "tfwsl doctor: ok, 7 checks; profile tf-2.15-cuda-12.2; TensorFlow 2.15.1 sees /physical_device:GPU:0");
}

TEST_CASE("summary line: problems give the count, the exit code, the fix first and the other root causes") {
  CHECK(doctor_summary_line(broken("run 'wsl --install -d Ubuntu-22.04'")) ==
        "tfwsl doctor: 2 issues (exit 2), fix first wsl.distro: no distro -> run 'wsl --install -d Ubuntu-22.04'; "
        "also: gpu.driver-parity; profile tf-2.15-cuda-12.2");
}

TEST_CASE("summary line: one line of at most 2,048 bytes of valid UTF-8, whatever the fix says") {
  std::string fix = "line one\nline two\r\n";
  for (int i = 0; i < 1100; ++i)
    fix += "é";  // 2,200 bytes: past the limit, and the cut falls inside one if done by bytes
  const std::string line = doctor_summary_line(broken(fix));
  CHECK(line.size() <= k_summary_line_max_bytes);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find('\r') == std::string::npos);
  CHECK(line.substr(line.size() - 3) == "...");
  CHECK(utf8_prefix(line, line.size()) == line);
  CHECK((static_cast<unsigned char>(line[line.size() - 4]) & 0xC0) != 0xC0);  // no lead byte left alone
}

TEST_CASE("utf8_prefix never cuts a character") {
  CHECK(utf8_prefix("abc", 10) == "abc");
  CHECK(utf8_prefix("a\xC3\xA9", 2) == "a");
  CHECK(utf8_prefix("a\xE2\x9C\x93z", 3) == "a");
  CHECK(utf8_prefix("a\xE2\x9C\x93z", 4) == "a\xE2\x9C\x93");
}

TEST_CASE("compliance facts: flat, typed, from the checks they name") {
  const json facts = doctor_compliance_facts(healthy());
  CHECK(facts == json{{"tfwsl_installed", true},
                      {"tfwsl_version", "0.2.0"},
                      {"profile", "tf-2.15-cuda-12.2"},
                      {"doctor_exit_code", 0},
                      {"issues", 0},
                      {"fix_first", "none"},
                      {"tf_gpu_visible", true},
                      {"tf_version", "2.15.1"},
                      {"nvidia_driver", "546.80"},
                      {"nvidia_driver_meets_profile", true},
                      {"wsl_default_version_2", true},
                      {"distro_ok", true},
                      {"wslconfig_memory_set", true}});
  const json bad = doctor_compliance_facts(broken("x"));
  CHECK(bad["distro_ok"] == false);
  CHECK(bad["fix_first"] == "wsl.distro");
  CHECK(bad["doctor_exit_code"] == 2);
  for (const auto& [key, value] : bad.items()) CHECK((value.is_primitive() && !value.is_null()));
}

// Issue 42: with WSL unreachable the doctor skips mem.effective (no values), yet .wslconfig still
// sets memory=; the rule must judge the file, not fail on top of the real problem.
TEST_CASE("compliance facts: wslconfig_memory_set reads the .wslconfig check, not mem.effective") {
  json unreachable = healthy();
  for (json& c : unreachable["checks"])
    if (c["id"] == "mem.effective") c = check("mem.effective", "skip", "unknown: the agent could not be reached");
  CHECK(doctor_compliance_facts(unreachable)["wslconfig_memory_set"] == true);
  json unset = healthy();
  for (json& c : unset["checks"])
    if (c["id"] == "wslconfig.memory")
      c = check("wslconfig.memory", "ok", "memory not set: WSL's default (half of the RAM)");
  CHECK(doctor_compliance_facts(unset)["wslconfig_memory_set"] == false);
}
