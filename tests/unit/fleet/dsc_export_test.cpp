// `tfwsl dsc export` (issue 42, item 2): DSC treats export as optional, but `dsc config export`
// needs it. It means the machine's current .wslconfig keys (Tfwsl/WslConfig) and the profile in
// effect, checked (Tfwsl/Profile), each instance one JSON line, as DSC reads an export's stdout
// (invoke_export, lib/dsc-lib/src/dscresources/command_resource.rs at PowerShell/DSC 861df432).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "win/fleet/dsc_manifest.hpp"
#include "win/fleet/dsc_profile_resource.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;
using nlohmann::json;

namespace {

// Answers every command line with one reply and records them.
class ExportInvoker final : public TfwslInvoker {
 public:
  std::vector<std::string> calls;
  Invocation reply;

  Result<Invocation> run(const std::vector<std::string>& args) override {
    std::string line;
    for (const auto& a : args) line += (line.empty() ? "" : " ") + a;
    calls.push_back(line);
    return reply;
  }
};

}  // namespace

TEST_CASE("dsc export: WslConfig is the .wslconfig's keys as get reads them, of the filter's file") {
  ExportInvoker tfwsl;
  json values = json::array({{{"section", "wsl2"}, {"key", "memory"}, {"value", "8GB"}, {"source", "file"}},
                             {{"section", "wsl2"}, {"key", "swap"}, {"value", "0"}, {"source", "default"}}});
  tfwsl.reply = {0, json{{"command", "show"}, {"file", "C:\\Users\\me\\.wslconfig"}, {"values", values}}.dump(), ""};
  auto exported = dsc::wslconfig_export(json::object(), tfwsl);
  REQUIRE(exported);
  CHECK(*exported == std::vector<json>{{{"file", "C:\\Users\\me\\.wslconfig"}, {"memory", "8GB"}}});
  CHECK(tfwsl.calls == std::vector<std::string>{"wslconfig show --json"});
  REQUIRE(dsc::wslconfig_export(json{{"file", "D:\\team.wslconfig"}}, tfwsl));
  CHECK(tfwsl.calls.back() == "wslconfig show --json --file D:\\team.wslconfig");
  CHECK_FALSE(dsc::wslconfig_export(json::array(), tfwsl));
}

TEST_CASE("dsc export: Profile is the profile in effect as provision --check finds it, unless the filter names one") {
  ExportInvoker tfwsl;
  const json recap = {{"recap",
                       {{"steps", json::array({{{"id", "venv"}, {"result", "ok"}, {"message", "there"}}})},
                        {"counts", {{"ok", 1}, {"changed", 0}, {"failed", 0}, {"skipped", 0}}}}}};
  tfwsl.reply = {0, recap.dump(), ""};
  auto exported = dsc::profile_export(json::object(), "C:\\ProgramData\\tfwsl\\team.yaml", tfwsl);
  REQUIRE(exported);
  REQUIRE(exported->size() == 1);
  CHECK((*exported)[0]["profile"] == "C:\\ProgramData\\tfwsl\\team.yaml");
  CHECK((*exported)[0]["steps"][0]["id"] == "venv");
  CHECK(tfwsl.calls ==
        std::vector<std::string>{"provision --check --json --profile C:\\ProgramData\\tfwsl\\team.yaml"});
  REQUIRE(dsc::profile_export(json{{"profile", "tf-2.15-cuda-12.2"}}, "ignored.yaml", tfwsl));
  CHECK(tfwsl.calls.back() == "provision --check --json --profile tf-2.15-cuda-12.2");
}

TEST_CASE("dsc export: declared in both manifests, calling tfwsl dsc export with the type") {
  for (const auto& type : dsc::resource_types()) {
    const auto manifest = dsc::resource_manifest(type);
    REQUIRE(manifest);
    CHECK((*manifest)["export"]["executable"] == "tfwsl");
    CHECK((*manifest)["export"]["args"] == json{"dsc", "export", "--resource", type});
  }
}
