// The doctor's text at a fixed 80 columns against golden files (tests/golden/doctor/): a healthy
// machine, a broken one (a driver too old, a memory= WSL cannot give, a CUDA toolkit and a
// TensorFlow the profile does not want, data on /mnt/c) and one without a distribution, by default
// and with -v. The reports are real doctor outputs (docs/samples, Wine) or made from them, folded
// by the one dependency table. Every line fits in 80 columns and every command in a fix stands
// whole on one line. A mismatch writes the new text beside the test binary (NAME.actual.txt):
// review it with diff, and copy it over the golden file when the change is meant.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/check/check.hpp"
#include "common/check/check_table.hpp"
#include "common/check/command_words.hpp"
#include "common/util/text_wrap.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

namespace {

const std::filesystem::path k_golden = std::filesystem::path(TFWSL_SOURCE_DIR) / "tests" / "golden" / "doctor";

Report report_from(const std::string& name) {
  const auto j = nlohmann::json::parse(test::read_file(k_golden / (name + ".input.json")));
  Report report;
  for (const auto& c : j["checks"]) {
    CheckResult check;
    std::string error;
    REQUIRE(from_json(c, check, error));
    check.blocked_by.clear();
    report.checks.push_back(check);
  }
  fold_report(report, check_dependencies(), {platform_windows(true)});
  return report;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every command a fix names (as the wrapper finds it) on one line of the text.
void each_command_whole(const Report& report, const std::string& text) {
  WrapStyle style;
  style.starts_command = starts_known_command;
  const auto lines = lines_of(text);
  for (const auto& c : report.checks) {
    if (!c.is_root_issue()) continue;
    for (const auto& atom : wrap_atoms(c.fix, style)) {
      if (!starts_known_command(atom.substr(0, atom.find(' '))) || atom.find(' ') == std::string::npos) continue;
      INFO(c.id << ": " << atom);
      CHECK(std::any_of(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.find(atom) != std::string::npos; }));
    }
  }
}

void matches_golden(const std::string& name, bool verbose) {
  const Report report = report_from(name);
  RenderOptions options;
  options.verbose = verbose;
  options.width = 80;
  options.header = {
      "Profile: tf-2.15-cuda-12.2 (built in: no --profile, no tfwsl.yaml here or above, no default "
      "profile of yours)",
      "Distro: Ubuntu-22.04; GPU: NVIDIA GeForce RTX 3080, driver 546.80"};
  const std::string text = render_text(report, options);
  const std::string file = name + (verbose ? ".verbose" : "") + ".txt";
  const auto actual = test::binary_dir() / (name + (verbose ? ".verbose" : "") + ".actual.txt");
  for (const auto& line : lines_of(text)) {
    INFO(line);
    CHECK(display_width(line) <= 80);
  }
  each_command_whole(report, text);
  const auto golden = k_golden / file;
  const std::string expected = std::filesystem::exists(golden) ? test::read_file(golden) : std::string();
  if (text != expected) test::write_file(actual, text);
  INFO("golden: " << golden.string() << "; the text now is in " << actual.string());
  CHECK(text == expected);
}

}  // namespace

TEST_CASE("golden: a healthy doctor at 80 columns, one line per category", "[doctor][golden]") {
  matches_golden("healthy", false);
  matches_golden("healthy", true);
}

TEST_CASE("golden: a broken doctor at 80 columns: each root cause and its fix under its category", "[doctor][golden]") {
  matches_golden("broken", false);
  matches_golden("broken", true);
}

TEST_CASE("golden: no distribution: tfwsl provision is the fix, the echoes counted once", "[doctor][golden]") {
  matches_golden("no-distro", false);
}

TEST_CASE("the compact doctor shows only what is wrong, -v lists every check", "[doctor]") {
  const Report report = report_from("broken");
  RenderOptions options;
  const std::string compact = render_text(report, options);
  CHECK(compact.find("host.tdr") == std::string::npos);
  CHECK(compact.find("[\xE2\x9C\x97] Windows: NVIDIA driver 512.15 is older") != std::string::npos);
  CHECK(compact.find("    fix: tfwsl wslconfig set memory=16GB --apply") != std::string::npos);
  options.verbose = true;
  CHECK(render_text(report, options).find("host.tdr: GPU timeout") != std::string::npos);
}

TEST_CASE("ASCII marks for a console that cannot show the check marks", "[doctor]") {
  RenderOptions options;
  options.unicode_marks = false;
  const std::string text = render_text(report_from("broken"), options);
  CHECK(text.find("[x] Windows") != std::string::npos);
  CHECK(text.find("[+] Linux side") != std::string::npos);
  CHECK(text.find("\xE2\x9C\x93") == std::string::npos);  // ✓
  CHECK(text.find("\xE2\x9C\x97") == std::string::npos);  // ✗
  CHECK(text.find("\xE2\x80\x94") == std::string::npos);  // —
}

TEST_CASE("the text counts the folded checks as the JSON does", "[doctor]") {
  const Report report = report_from("no-distro");
  const std::string text = render_text(report, {});
  const auto folded = to_json(report)["summary"]["folded"].get<std::size_t>();
  CHECK(text.find(", " + std::to_string(folded) + " checks folded (-v lists them)\n") != std::string::npos);
}
