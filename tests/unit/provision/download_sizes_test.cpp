#include "common/provision/download_sizes.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/plan_downloads.hpp"
#include "common/provision/provision_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

ProvisionPlan default_plan(const PlanSettings& settings = {}) {
  auto profile = load_valid_profile(default_profile_name());
  REQUIRE(profile);
  auto plan = build_provision_plan(*profile, builtin_compat_db(), settings);
  REQUIRE(plan);
  return *plan;
}

PlannedStep& step_of(ProvisionPlan& plan, std::string_view id) {
  for (auto& step : plan.distro_steps)
    if (step.definition->id == id) return step;
  FAIL("no step " << id);
  throw;
}

}  // namespace

TEST_CASE("the built-in download sizes load, each figure with its public page", "[provision][downloads]") {
  const auto& facts = builtin_download_facts();
  REQUIRE(facts.wheels_for("2.15.*"));
  CHECK(facts.wheels_for("==2.15.1"));
  CHECK_FALSE(facts.wheels_for("2.150.*"));
  for (const auto& release : facts.tensorflow)
    for (const auto* list : {&release.wheels, &release.and_cuda_wheels})
      for (const auto& w : *list) CHECK(w.source.rfind("https://pypi.org/project/" + w.name + "/", 0) == 0);
  for (const auto& p : facts.apt) CHECK(p.source.rfind("https://", 0) == 0);
  CHECK(facts.apt_package("cuda-toolkit-12-2"));
}

TEST_CASE("a download size without its source is refused", "[provision][downloads]") {
  const auto loaded = load_download_facts("schema: 1\napt:\n  - { package: curl, bytes: 300000 }\n", "test.yaml");
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().message.find("'source'") != std::string::npos);
}

// Recorded from apt 2.6.2 (Debian 12), `LC_ALL=C apt-get -qq --print-uris -y install cowsay
// ca-certificates` run as nobody: one `'URI' FILE SIZE HASH` line per archive, an empty hash for one
// fetched from the security mirror.
TEST_CASE("apt's --print-uris answer is summed archive by archive", "[provision][downloads]") {
  const std::string out =
      "'http://deb.debian.org/debian-security/pool/updates/main/c/ca-certificates/"
      "ca-certificates_20250419%7edeb12u2_all.deb' "
      "ca-certificates_20250419~deb12u2_all.deb 160948 \n"
      "'http://deb.debian.org/debian/pool/main/libt/libtext-charwidth-perl/libtext-charwidth-perl_0.04-11_amd64.deb' "
      "libtext-charwidth-perl_0.04-11_amd64.deb 9496 MD5Sum:c73f71595c4a2fb6d6384ce8ad6f63c6\n"
      "'http://deb.debian.org/debian/pool/main/c/cowsay/cowsay_3.03%2bdfsg2-8_all.deb' cowsay_3.03+dfsg2-8_all.deb "
      "21372 "
      "MD5Sum:331cb863a7eaa69ce36747153a64116f\n";
  CHECK(apt_print_uris_bytes(out) == 160948 + 9496 + 21372);
  CHECK(apt_print_uris_bytes("Need to get 30.9 kB of archives.\n") == 0);
  CHECK(apt_print_uris_bytes("") == 0);
}

TEST_CASE("the plan says what each step downloads and the total", "[provision][downloads]") {
  auto plan = default_plan();
  const auto& tf = step_of(plan, "tensorflow.install");
  REQUIRE(tf.download);
  CHECK(tf.download->basis == "data");
  CHECK(tf.download->approximate);
  CHECK(*tf.download->bytes > 2'000'000'000ULL);
  CHECK(tf.download->detail.find("wheels of TensorFlow 2.15") != std::string::npos);
  const auto& toolkit = step_of(plan, "cuda.toolkit");
  REQUIRE(toolkit.download);
  CHECK(toolkit.download->basis == "data");
  const auto& prerequisites = step_of(plan, "apt.prerequisites");
  REQUIRE(prerequisites.download);
  CHECK_FALSE(prerequisites.download->bytes);
  CHECK_FALSE(step_of(plan, "env.file").download);
  const auto total = download_total(plan);
  CHECK(total.approximate);
  CHECK(total.bytes ==
        *tf.download->bytes + *toolkit.download->bytes + *step_of(plan, "cuda.repository").download->bytes);
  CHECK(total.unknown == std::vector<std::string>{"apt.prerequisites", "apt.packages"});
  const std::string text = render_plan(plan);
  CHECK(text.find("      downloads: about 2.") != std::string::npos);
  CHECK(text.find("Downloads in all: about ") != std::string::npos);
  CHECK(text.find("(not known before they run: apt.prerequisites, apt.packages)") != std::string::npos);
  const auto json = plan_to_json(plan);
  CHECK(json["download"]["bytes"] == total.bytes);
  CHECK(json["distro_steps"][0]["download"].is_null());
}

TEST_CASE("apt's own figure replaces the known size and is shown without 'about'", "[provision][downloads]") {
  auto plan = default_plan();
  set_apt_figure(step_of(plan, "apt.prerequisites"), 484'000);
  set_apt_figure(step_of(plan, "apt.packages"), 0);
  CHECK(download_words(*step_of(plan, "apt.prerequisites").download) == "472.7 KiB");
  CHECK(download_words(*step_of(plan, "apt.packages").download) == "nothing");
  CHECK(download_total(plan).unknown.empty());
}

TEST_CASE("pip from a local folder downloads nothing", "[provision][downloads]") {
  PlanSettings settings;
  settings.pip_find_links = "/srv/wheels";
  auto plan = default_plan(settings);
  const auto& tf = step_of(plan, "tensorflow.install");
  REQUIRE(tf.download);
  CHECK(tf.download->basis == "none");
  CHECK(download_words(*tf.download) == "nothing");
}
