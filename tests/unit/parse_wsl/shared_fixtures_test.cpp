// Walks the real-world fixtures (tests/fixtures) of the kinds these parsers read and
// checks, for each, the facts against the `expect:` line, the kind the recognisers pick, and the
// error flags behind the findings the explain engine derives from them.

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>

#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "tests/unit/parse_wsl/fixture_file.hpp"

using namespace tfwsl;
using namespace tfwsl::parse;

namespace {

bool expects(const nlohmann::json& expect, const char* list, const std::string& id) {
  if (!expect.contains(list)) return false;
  const auto& ids = expect[list];
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::string best_kind(const std::string& text) {
  const std::vector<std::pair<std::string, double>> scores{{"wsl-list", looks_like_wsl_list(text)},
                                                           {"wsl-status", looks_like_wsl_status(text)},
                                                           {"wsl-version", looks_like_wsl_version(text)},
                                                           {"nvidia-smi", looks_like_nvidia_smi(text)}};
  const auto best =
      std::max_element(scores.begin(), scores.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return best->second >= 0.5 ? best->first : "unknown";
}

// The error flags that carry each finding id this folder is responsible for.
void check_flags(const test::FixtureFile& f, const WslErrorFlags& e) {
  INFO(f.name << " flags " << to_json(e).dump());
  if (expects(f.expect, "findings", "wsl.cli-too-old")) CHECK(e.cli_too_old());
  if (expects(f.expect, "findings", "wsl.no-distro")) CHECK(e.no_distribution);
  if (expects(f.expect, "absent", "wsl.no-distro")) CHECK_FALSE(e.no_distribution);
  if (expects(f.expect, "findings", "wsl.kernel-missing")) CHECK(e.kernel_update_needed);
  if (expects(f.expect, "absent", "wsl.cli-too-old")) CHECK_FALSE(e.cli_too_old());
}

}  // namespace

TEST_CASE("every shared wsl-* and nvidia-smi-* fixture parses to its expected facts", "[parse_wsl][fixtures]") {
  const auto dir = test::fixtures_dir();
  const auto files = test::fixtures_named(dir, {"wsl-", "nvidia-smi-"});
  REQUIRE_FALSE(files.empty());
  std::size_t passed = 0;
  for (const auto& path : files) {
    const test::FixtureFile f = test::read_fixture(path);
    INFO(f.name);
    REQUIRE(f.expect.is_object());
    const std::string text = clean_paste(f.body).text;
    nlohmann::json facts;
    if (f.category == "wsl-list") {
      const auto result = parse_wsl_list(text);
      facts = to_json(result);
      check_flags(f, result.errors);
      // wsl.distro-wsl1 comes from a non-Docker distro with version 1.
      if (expects(f.expect, "findings", "wsl.distro-wsl1")) {
        CHECK(std::any_of(result.distros.begin(), result.distros.end(),
                          [](const WslDistro& d) { return d.version == 1 && !is_docker_desktop_distro(d.name); }));
      }
      if (expects(f.expect, "findings", "wsl.windows-too-old")) {
        REQUIRE_FALSE(result.windows_version.empty());
        CHECK(windows_build_of(result.windows_version).value_or(0) < 19044);
      }
    } else if (f.category == "wsl-status") {
      const auto result = parse_wsl_status(text);
      facts = to_json(result);
      check_flags(f, result.errors);
    } else if (f.category == "wsl-version") {
      const auto result = parse_wsl_version(text);
      facts = to_json(result);
      check_flags(f, result.errors);
      if (expects(f.expect, "absent", "wsl.windows-too-old") && result.field(WslVersionField::windows))
        CHECK(windows_build_of(*result.field(WslVersionField::windows)).value_or(0) >= 19044);
    } else {
      const auto result = parse_nvidia_smi(text);
      facts = to_json(result);
      const auto& x = result.failures;
      const bool not_loaded = x.cannot_communicate || x.driver_not_loaded;
      if (expects(f.expect, "findings", "gpu.driver-not-loaded")) CHECK(not_loaded);
      if (expects(f.expect, "absent", "gpu.driver-not-loaded")) CHECK_FALSE(not_loaded);
      if (expects(f.expect, "findings", "gpu.access-blocked")) CHECK(x.access_blocked);
      if (expects(f.expect, "findings", "gpu.nvidia-smi-missing")) CHECK(x.not_found);
      if (expects(f.expect, "findings", "gpu.cuda-version-error")) CHECK(result.cuda_version_error);
      if (expects(f.expect, "findings", "gpu.tcc-mode")) CHECK(result.any_tcc());
      if (expects(f.expect, "findings", "gpu.visible")) CHECK_FALSE(result.gpus.empty());
      if (expects(f.expect, "absent", "gpu.visible")) CHECK(result.gpus.empty());
    }
    const std::string why = test::facts_mismatch(f.expect["facts"], facts);
    INFO("facts " << facts.dump());
    CHECK(why == "");
    const std::string expected_kind = f.expect["kind"].get<std::string>();
    CHECK(best_kind(text) == expected_kind);
    if (why.empty() && best_kind(text) == expected_kind) ++passed;
  }
  std::cout << "shared wsl/nvidia-smi fixtures: " << passed << " of " << files.size() << " match their expect line\n";
  CHECK(passed == files.size());
}
