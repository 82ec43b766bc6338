// The DSC v3 resources (win/commands/dsc_*): how a desired state becomes tfwsl's own command lines,
// and how their JSON answers become DSC states, against a fake invoker that answers as those
// commands do (the real round trip under Wine: tests/integration/fleet/dsc_wine_session.py).
#include <catch2/catch.hpp>
#include <map>

#include "win/fleet/dsc_manifest.hpp"
#include "win/fleet/dsc_profile_resource.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;
using nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& a : args) line += (line.empty() ? "" : " ") + a;
  return line;
}

// Answers by the command line's first words; records every command line it was given.
class FakeInvoker final : public TfwslInvoker {
 public:
  std::vector<std::string> calls;
  std::map<std::string, Invocation> answers;  // prefix of the joined command line -> answer

  Result<Invocation> run(const std::vector<std::string>& args) override {
    const std::string line = joined(args);
    calls.push_back(line);
    const Invocation* best = nullptr;
    std::size_t best_size = 0;
    for (const auto& [prefix, answer] : answers)
      if (line.rfind(prefix, 0) == 0 && prefix.size() >= best_size) {
        best = &answer;
        best_size = prefix.size();
      }
    if (!best) return make_error(ErrorCode::internal, "unexpected command line: " + line);
    return *best;
  }
};

json shown(const std::string& memory) {
  json values = json::array();
  values.push_back({{"section", "wsl2"}, {"key", "memory"}, {"value", memory}, {"source", "file"}});
  values.push_back({{"section", "wsl2"}, {"key", "processors"}, {"value", "8"}, {"source", "default"}});
  values.push_back({{"section", "wsl2"}, {"key", "guiApplications"}, {"value", "false"}, {"source", "file"}});
  values.push_back({{"section", "experimental"}, {"key", "sparseVhd"}, {"value", "true"}, {"source", "file"}});
  return {{"command", "show"}, {"file", "C:\\Users\\me\\.wslconfig"}, {"values", values}};
}

json planned(const std::string& before, const std::string& after) {
  return {{"command", "set"},
          {"changes", json::array({{{"section", "wsl2"}, {"key", "memory"}, {"before", before}, {"after", after}}})},
          {"written", false}};
}

}  // namespace

TEST_CASE("dsc WslConfig get: the keys the file sets, typed as the instance schema says") {
  FakeInvoker tfwsl;
  tfwsl.answers["wslconfig show"] = {0, shown("4GB").dump(), ""};
  auto state = dsc::wslconfig_get(json::object(), tfwsl);
  REQUIRE(state);
  CHECK(*state == json{{"file", "C:\\Users\\me\\.wslconfig"},
                       {"memory", "4GB"},
                       {"guiApplications", false},
                       {"experimental", {{"sparseVhd", true}}}});
  CHECK(tfwsl.calls == std::vector<std::string>{"wslconfig show --json"});
}

TEST_CASE("dsc WslConfig test: out of the desired state names the differing property, nothing is written") {
  FakeInvoker tfwsl;
  tfwsl.answers["wslconfig show"] = {0, shown("4GB").dump(), ""};
  tfwsl.answers["wslconfig set"] = {0, planned("4GB", "16GB").dump(), ""};
  auto tested = dsc::wslconfig_test(json{{"memory", "16GB"}, {"file", "D:\\w\\.wslconfig"}}, tfwsl);
  REQUIRE(tested);
  CHECK(tested->state["_inDesiredState"] == false);
  CHECK(tested->differing == std::vector<std::string>{"memory"});
  CHECK(tfwsl.calls[0] == "wslconfig set wsl2.memory=16GB --file D:\\w\\.wslconfig --dry-run --json");
  for (const auto& call : tfwsl.calls) CHECK(call.find("--yes") == std::string::npos);
}

TEST_CASE("dsc WslConfig set: writes only when test finds a difference, with --yes, and --apply for restart") {
  FakeInvoker tfwsl;
  tfwsl.answers["wslconfig show"] = {0, shown("16GB").dump(), ""};
  tfwsl.answers["wslconfig set wsl2.memory=16GB wsl2.processors=6 --dry-run"] = {0, planned("4GB", "16GB").dump(), ""};
  tfwsl.answers["wslconfig set wsl2.memory=16GB wsl2.processors=6 --yes"] = {0, json{{"written", true}}.dump(), ""};
  auto state = dsc::wslconfig_set(json{{"memory", "16GB"}, {"processors", 6}, {"restart", true}}, tfwsl);
  INFO((state ? std::string() : state.error().message));
  REQUIRE(state);
  CHECK(state->value("memory", "") == "16GB");
  CHECK(!state->contains("_inDesiredState"));
  CHECK(std::count(tfwsl.calls.begin(), tfwsl.calls.end(),
                   "wslconfig set wsl2.memory=16GB wsl2.processors=6 --yes --json --apply") == 1);

  FakeInvoker in_state;
  in_state.answers["wslconfig show"] = {0, shown("16GB").dump(), ""};
  in_state.answers["wslconfig set"] = {0, planned("16GB", "16GB").dump(), ""};
  REQUIRE(dsc::wslconfig_set(json{{"memory", "16GB"}, {"restart", true}}, in_state));
  for (const auto& call : in_state.calls) CHECK(call.find("--yes") == std::string::npos);
}

TEST_CASE("dsc WslConfig: bad desired states are refused by name before anything runs") {
  FakeInvoker tfwsl;
  auto unknown = dsc::wslconfig_test(json{{"memmory", "16GB"}}, tfwsl);
  REQUIRE(!unknown);
  CHECK(unknown.error().message.find("'memmory'") != std::string::npos);
  auto typed = dsc::wslconfig_set(json{{"processors", "many"}}, tfwsl);
  REQUIRE(!typed);
  CHECK(typed.error().message.find("'processors' must be integer") != std::string::npos);
  CHECK(!dsc::wslconfig_get(json::array(), tfwsl));
  CHECK(!dsc::wslconfig_set(json{{"experimental", {{"sparseVhd", "yes"}}}}, tfwsl));
  CHECK(tfwsl.calls.empty());
}

TEST_CASE("dsc WslConfig: a command that printed no JSON is an error naming it and its last message") {
  FakeInvoker tfwsl;
  tfwsl.answers["wslconfig show"] = {2, "", "tfwsl wslconfig show: cannot read D:\\x: Access is denied.\n"};
  auto state = dsc::wslconfig_get(json{{"file", "D:\\x"}}, tfwsl);
  REQUIRE(!state);
  CHECK(state.error().message.find("tfwsl wslconfig show --json --file") != std::string::npos);
  CHECK(state.error().message.find("Access is denied.") != std::string::npos);
}

TEST_CASE("dsc Profile: test is provision --check, set provisions only when a step would change") {
  const json changed = {
      {"recap",
       {{"host_steps", json::array({{{"id", "distro.installed"}, {"result", "changed"}, {"message", "install"}}})},
        {"steps", json::array({{{"id", "cuda.toolkit"}, {"result", "ok"}, {"message", "12.2"}}})},
        {"counts", {{"ok", 1}, {"changed", 1}, {"failed", 0}, {"skipped", 0}}}}}};
  FakeInvoker tfwsl;
  tfwsl.answers["provision --check"] = {1, changed.dump(), ""};
  tfwsl.answers["provision --yes"] = {0, changed.dump(), ""};
  auto tested = dsc::profile_test(json{{"profile", "tf-2.15-cuda-12.2"}, {"user", "tfuser"}}, tfwsl);
  REQUIRE(tested);
  CHECK(tested->state["_inDesiredState"] == false);
  CHECK(tested->state["steps"][0] == json{{"id", "distro.installed"}, {"result", "changed"}, {"message", "install"}});
  CHECK(tested->differing == std::vector<std::string>{"steps"});
  CHECK(tfwsl.calls == std::vector<std::string>{"provision --check --json --profile tf-2.15-cuda-12.2 --user tfuser"});
  REQUIRE(dsc::profile_set(json{{"profile", "tf-2.15-cuda-12.2"}}, tfwsl));
  CHECK(std::count(tfwsl.calls.begin(), tfwsl.calls.end(), "provision --yes --json --profile tf-2.15-cuda-12.2") == 1);

  FakeInvoker provisioned;
  json ok = changed;
  ok["recap"]["host_steps"][0]["result"] = "ok";
  provisioned.answers["provision --check"] = {0, ok.dump(), ""};
  REQUIRE(dsc::profile_set(json{{"profile", "tf-2.15-cuda-12.2"}}, provisioned));
  CHECK(provisioned.calls == std::vector<std::string>{"provision --check --json --profile tf-2.15-cuda-12.2"});
}

TEST_CASE("dsc Profile: a failed step fails set with the step's words, no profile is refused") {
  const json failed = {
      {"recap",
       {{"steps", json::array({{{"id", "cuda.toolkit"}, {"result", "failed"}, {"message", "apt-get exited 100"}}})},
        {"counts", {{"ok", 0}, {"changed", 0}, {"failed", 1}, {"skipped", 0}}}}}};
  FakeInvoker tfwsl;
  tfwsl.answers["provision --check"] = {1, failed.dump(), ""};
  tfwsl.answers["provision --yes"] = {2, failed.dump(), ""};
  auto set = dsc::profile_set(json{{"profile", "team.yaml"}}, tfwsl);
  REQUIRE(!set);
  CHECK(set.error().message.find("cuda.toolkit: apt-get exited 100") != std::string::npos);
  auto none = dsc::profile_get(json::object(), tfwsl);
  REQUIRE(!none);
  CHECK(none.error().message.find("needs 'profile'") != std::string::npos);
}

TEST_CASE("dsc manifests: one per type, calling tfwsl dsc with the type, the instance schema embedded") {
  REQUIRE(dsc::resource_types() == std::vector<std::string>{"Tfwsl/WslConfig", "Tfwsl/Profile"});
  for (const auto& type : dsc::resource_types()) {
    const auto manifest = dsc::resource_manifest(type);
    REQUIRE(manifest);
    CHECK((*manifest)["type"] == type);
    CHECK((*manifest)["test"]["args"] == json{"dsc", "test", "--resource", type});
    CHECK((*manifest)["set"]["implementsPretest"] == true);
    CHECK((*manifest)["schema"]["embedded"] == *dsc::instance_schema(type));
  }
  CHECK(dsc::manifest_file_name("Tfwsl/WslConfig") == "tfwsl.wslconfig.dsc.resource.json");
  CHECK(!dsc::resource_manifest("Tfwsl/Nope"));
  const json schema = dsc::wslconfig_instance_schema();
  CHECK(schema["properties"]["memory"]["type"] == "string");
  CHECK(schema["properties"]["processors"]["type"] == "integer");
  CHECK(schema["properties"]["experimental"]["properties"]["sparseVhd"]["type"] == "boolean");
}

// DSC compiles the instance schema before every get with input, test and set, with a JSON-schema
// library built without web fetching (PowerShell/DSC 861df432, Cargo.toml: jsonschema with
// default-features = false); its manifest schema accepts `_inDesiredState` only as the `$ref` to
// the published URL. So the `$ref` stays and the definition travels under `$defs` with that URL as
// its `$id`, as DSC's own resources do (resources/PSScript/psscript.dsc.resource.json).
TEST_CASE("dsc instance schemas: _inDesiredState is DSC's $ref, its definition bundled under $defs") {
  const std::string url = "https://aka.ms/dsc/schemas/v3/resource/properties/inDesiredState.json";
  for (const auto& type : dsc::resource_types()) {
    INFO(type);
    const json schema = *dsc::instance_schema(type);
    CHECK(schema["properties"]["_inDesiredState"] == json{{"$ref", url}});
    REQUIRE(schema.contains("$defs"));
    REQUIRE(schema["$defs"].contains(url));
    CHECK(schema["$defs"][url]["$id"] == url);
    CHECK(schema["$defs"][url]["type"] == json{"boolean", "null"});
  }
}
