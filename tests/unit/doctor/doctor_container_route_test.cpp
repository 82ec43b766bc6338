#include "win/tasks/doctor_container_route.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tfwsl;
using namespace tfwsl::cli;

namespace {

nlohmann::json recap_with(const std::string& verify_result, const std::string& verify_message,
                          const std::string& spec_result = "ok") {
  auto step = [](const char* id, const std::string& result, const std::string& message) {
    return nlohmann::json{{"id", id}, {"result", result}, {"message", message}};
  };
  return {
      {"steps",
       {step("container.engine", "ok", "installed: podman, uidmap, slirp4netns"),
        step("container.toolkit-repository", "ok", "key and entry in place"),
        step("container.toolkit", "ok", "installed: nvidia-container-toolkit"),
        step("container.cdi-spec", spec_result,
             spec_result == "ok" ? "current" : "would change: stale: it names A but the driver is in B -> writes it"),
        step("container.image", "ok", "present"), step("container.verify", verify_result, verify_message)}}};
}

const CheckResult& by_id(const std::vector<CheckResult>& rows, const std::string& id) {
  for (const auto& r : rows)
    if (r.id == id) return r;
  FAIL("no row " << id);
  return rows.front();
}

}  // namespace

TEST_CASE("the container route's doctor rows: healthy") {
  const auto rows = container_checks_from_recap(
      recap_with("ok", "TensorFlow 2.17.0 in the image ran an op on GPU:0 (/physical_device:GPU:0)"), "ngc-tf-25.02");
  REQUIRE(rows.size() == 6);
  for (const auto& r : rows) CHECK(r.status == CheckStatus::ok);
  CHECK(by_id(rows, "container.tensorflow").summary.find("2.17.0") != std::string::npos);
}

TEST_CASE("the container route's doctor rows: a stale spec says what was found, and its fix is provision") {
  const auto rows = container_checks_from_recap(recap_with("skipped", "not run: container.cdi-spec failed", "changed"),
                                                "ngc-tf-25.02");
  const auto& spec = by_id(rows, "container.cdi-spec");
  CHECK(spec.status == CheckStatus::fail);
  CHECK(spec.summary == "stale: it names A but the driver is in B");
  CHECK(spec.fix_command == std::vector<std::string>{"provision"});
  CHECK(spec.fix == "tfwsl provision --profile ngc-tf-25.02");
  CHECK(by_id(rows, "container.gpu").status == CheckStatus::skip);
}

TEST_CASE("the container route's doctor rows: an op that fails on a visible GPU fails only the op") {
  const auto rows = container_checks_from_recap(
      recap_with("failed", "TensorFlow 2.17.0 sees /physical_device:GPU:0 but an op on GPU:0 failed: InternalError"),
      "ngc-tf-25.02");
  CHECK(by_id(rows, "container.gpu").status == CheckStatus::ok);
  CHECK(by_id(rows, "container.tensorflow").status == CheckStatus::fail);
  const auto none =
      container_checks_from_recap(recap_with("failed", "TensorFlow 2.17.0 in the image sees no GPU"), "p");
  CHECK(by_id(none, "container.gpu").status == CheckStatus::fail);
}

TEST_CASE("the container route's doctor rows: no recap at all is six skipped rows, never a crash") {
  for (const auto& recap : {nlohmann::json(), nlohmann::json::array(), nlohmann::json{{"steps", 3}}}) {
    const auto rows = container_checks_from_recap(recap, "p");
    REQUIRE(rows.size() == 6);
    for (const auto& r : rows) CHECK(r.status == CheckStatus::skip);
  }
}
