// fold_report (common/check/check_fold.hpp): echoes of one fault fold under it.
#include "common/check/check_fold.hpp"

#include <catch2/catch.hpp>

#include "common/check/check.hpp"

using namespace tfwsl;

namespace {

const DependencyTable k_table{
    {"wsl.distro", {"platform.windows"}},   {"wsl.agent", {"wsl.distro"}}, {"linux.dxg", {"wsl.agent"}},
    {"gpu.visible", {"linux.dxg"}},         {"tf.gpu", {"gpu.visible"}},   {"disk.free", {"wsl.agent"}},
    {"gpu.driver-parity", {"gpu.visible"}},
};

CheckResult check(const char* id, CheckStatus s, const char* summary = "", const char* fix = "") {
  return make_check(id, s, summary, fix);
}

// A distro that is missing, and everything behind it unknown; parity comes last in report order.
Report no_distro() {
  Report r;
  r.checks = {
      check("wsl.distro", CheckStatus::fail, "no Linux distribution is installed", "install one: wsl --install"),
      check("wsl.agent", CheckStatus::fail, "the agent could not be reached"),
      check("linux.dxg", CheckStatus::skip, "unknown"),
      check("gpu.visible", CheckStatus::skip, "unknown"),
      check("tf.gpu", CheckStatus::skip, "unknown"),
      check("disk.free", CheckStatus::skip, "unknown")};
  r.checks.insert(r.checks.begin(), check("gpu.driver-parity", CheckStatus::skip, "unknown"));
  return r;
}

}  // namespace

TEST_CASE("a failed root cause folds every check behind it into one issue", "[check][fold]") {
  Report r = no_distro();
  CHECK(r.problem_count() == 2);  // before folding: the distro and the agent
  fold_report(r, k_table);
  for (const char* id : {"wsl.agent", "linux.dxg", "gpu.visible", "tf.gpu", "disk.free", "gpu.driver-parity"})
    CHECK(r.find(id)->blocked_by == "wsl.distro");
  CHECK(r.find("wsl.distro")->blocked_by.empty());
  CHECK(r.problem_count() == 1);
  CHECK(r.folded_count() == 6);
  CHECK(r.exit_code() == 2);
  REQUIRE(root_causes(r).size() == 1);
  CHECK(root_causes(r).front()->id == "wsl.distro");
}

TEST_CASE("a check that fails although its prerequisite is ok stays its own issue", "[check][fold]") {
  Report r;
  r.checks = {check("wsl.distro", CheckStatus::ok),
              check("wsl.agent", CheckStatus::ok),
              check("linux.dxg", CheckStatus::ok),
              check("gpu.visible", CheckStatus::fail, "no GPU", "fix the GPU"),
              check("tf.gpu", CheckStatus::fail, "no GPU in TF"),
              check("disk.free", CheckStatus::warn, "low disk", "free some")};
  fold_report(r, k_table);
  CHECK(r.find("gpu.visible")->blocked_by.empty());
  CHECK(r.find("tf.gpu")->blocked_by == "gpu.visible");
  CHECK(r.find("disk.free")->blocked_by.empty());  // independent of the GPU
  CHECK(r.problem_count() == 2);
  // Fix first follows the dependency order, not the order of the report.
  auto roots = root_causes(r);
  REQUIRE(roots.size() == 2);
  CHECK(roots[0]->id == "disk.free");  // needs only wsl.agent: shallower than gpu.visible
  CHECK(roots[1]->id == "gpu.visible");
}

TEST_CASE("a warning root cause counts once and does not fold what depends on it", "[check][fold]") {
  Report r;
  r.checks = {check("wsl.distro", CheckStatus::ok), check("wsl.agent", CheckStatus::ok),
              check("linux.dxg", CheckStatus::warn, "odd /dev/dxg", "look at it"),
              check("gpu.visible", CheckStatus::ok), check("tf.gpu", CheckStatus::ok)};
  fold_report(r, k_table);
  CHECK(r.problem_count() == 1);
  CHECK(r.exit_code() == 1);
  CHECK(r.folded_count() == 0);
  CHECK(render_text(r, {}).find("Fix first: linux.dxg \xE2\x80\x94 look at it") != std::string::npos);
  // A failure behind a warning is not the warning's echo: a warning does not stop anything.
  r.checks[3].status = CheckStatus::fail;
  fold_report(r, k_table);
  CHECK(r.find("gpu.visible")->blocked_by.empty());
  CHECK(r.problem_count() == 2);
  CHECK(r.exit_code() == 2);
}

TEST_CASE("the text shows the root cause with its fix and one line for its echoes, -v lists them", "[check][fold]") {
  Report r = no_distro();
  fold_report(r, k_table);
  const auto text = render_text(r, {});
  INFO(text);
  CHECK(text.find("[\xE2\x9C\x97] WSL: no Linux distribution is installed\n    fix: install one: wsl --install\n"
                  "    6 checks folded under this (5 not run, 1 failing as a result)\n") != std::string::npos);
  CHECK(text.find("linux.dxg") == std::string::npos);
  CHECK(text.find("unknown") == std::string::npos);
  CHECK(text.find(
            "\n1 issue in 1 category, 6 checks folded (-v lists them)\nFix first: wsl.distro \xE2\x80\x94 install one: "
            "wsl --install\n") != std::string::npos);
  const auto verbose = render_text(r, {true, false});
  CHECK(verbose.find("      6 checks folded under this (5 not run, 1 failing as a result):\n") != std::string::npos);
  CHECK(verbose.find("        - linux.dxg: unknown\n") != std::string::npos);
  CHECK(verbose.find("        \xE2\x9C\x97 wsl.agent: the agent could not be reached\n") != std::string::npos);
}

TEST_CASE("an unmet precondition folds the skips behind it into one line, and is no issue", "[check][fold]") {
  Report r;
  r.checks = {check("wsl.distro", CheckStatus::skip, "not on Windows"), check("wsl.agent", CheckStatus::ok),
              check("linux.dxg", CheckStatus::fail, "no /dev/dxg", "use WSL 2")};
  fold_report(r, k_table, {{"platform.windows", false, "not Windows: host checks do not apply"}});
  CHECK(r.find("wsl.distro")->blocked_by == "platform.windows");
  CHECK(r.find("linux.dxg")->blocked_by.empty());  // failed on its own: still an issue
  CHECK(r.problem_count() == 1);
  const auto text = render_text(r, {});
  CHECK(text.rfind("1 check not run: not Windows: host checks do not apply\n", 0) == 0);
  // The summary counts what folded as the JSON's summary.folded does: under a precondition too.
  CHECK(text.find("1 issue in 1 category, 1 check folded (-v lists them)\nFix first: linux.dxg") != std::string::npos);
  // A met precondition folds nothing.
  fold_report(r, k_table, {{"platform.windows", true, ""}});
  CHECK(r.folded_count() == 0);
}

TEST_CASE("the JSON keeps every check, marks the folded ones and names the root causes", "[check][fold]") {
  Report r = no_distro();
  fold_report(r, k_table);
  auto j = to_json(r);
  CHECK(j["checks"].size() == 7);
  CHECK(j["checks"][0]["blocked_by"] == "wsl.distro");
  CHECK_FALSE(j["checks"][1].contains("blocked_by"));
  CHECK(j["summary"]["issues"] == 1);
  CHECK(j["summary"]["root_causes"] == nlohmann::json::array({"wsl.distro"}));
  CHECK(j["summary"]["fix_first"]["id"] == "wsl.distro");
  CHECK(j["summary"]["fix_first"]["fix"] == "install one: wsl --install");
  CHECK(j["summary"]["folded"] == 6);
  CheckResult back;
  std::string error;
  REQUIRE(from_json(j["checks"][0], back, error));
  CHECK(back.blocked_by == "wsl.distro");
  Report fine;
  fine.checks = {check("wsl.distro", CheckStatus::ok)};
  CHECK(to_json(fine)["summary"]["fix_first"].is_null());
}

TEST_CASE("folding leaves the order of the categories as it was", "[check][fold]") {
  Report r;
  r.checks = {check("wsl.distro", CheckStatus::ok),
              check("wsl.agent", CheckStatus::ok),
              check("linux.dxg", CheckStatus::ok),
              check("gpu.visible", CheckStatus::fail, "no GPU"),
              check("tf.gpu", CheckStatus::fail, "no GPU in TF"),
              check("disk.free", CheckStatus::ok),
              check("gpu.driver-parity", CheckStatus::ok)};
  fold_report(r, k_table);
  const auto text = render_text(r, {});
  INFO(text);
  CHECK(text.find("] GPU: no GPU\n") < text.find("] Disk: "));  // gpu.visible still places GPU before Disk
  CHECK(text.find("TensorFlow") == std::string::npos);          // tf.gpu folded: no empty TensorFlow line
}
