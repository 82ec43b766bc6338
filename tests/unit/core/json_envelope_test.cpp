// The envelope every --json output carries (common/cli/json_envelope.hpp).
#include "common/cli/json_envelope.hpp"

#include <catch2/catch.hpp>

#include "common/check/check.hpp"
#include "win/render/json_schema_names.hpp"

using namespace tfwsl;

TEST_CASE("the envelope names the schema, its version and the tfwsl that wrote it", "[json]") {
  auto j = json_envelope(json_schema::k_doctor, json_schema::k_version);
  CHECK(j["schema"] == nlohmann::json({{"name", "tfwsl.doctor"}, {"version", 1}}));
  CHECK(j["tfwsl_version"] == TFWSL_VERSION);
  CHECK(j.size() == 2);
}

TEST_CASE("with_json_envelope keeps the body's fields and adds the envelope's", "[json]") {
  nlohmann::json body{{"kind", "tf-log"}, {"facts", nlohmann::json::object()}, {"schema", "stale"}};
  auto j = with_json_envelope(body, json_schema::k_explain, 1);
  CHECK(j["kind"] == "tf-log");
  CHECK(j.contains("facts"));
  CHECK(j["schema"]["name"] == "tfwsl.explain");
  CHECK(j["tfwsl_version"] == TFWSL_VERSION);
}

TEST_CASE("a check's values appear in its JSON only when it has some, and round-trip", "[check][json]") {
  CheckResult plain = make_check("linux.dxg", CheckStatus::ok, "/dev/dxg is there");
  CHECK_FALSE(to_json(plain).contains("values"));
  CheckResult numbered = make_check("disk.free", CheckStatus::ok, "70.9 GiB free on the distro's filesystem");
  numbered.values = {{"free_bytes", 76180062208ull}};
  auto j = to_json(numbered);
  REQUIRE(j.contains("values"));
  CHECK(j["values"]["free_bytes"] == 76180062208ull);
  CheckResult back;
  std::string error;
  REQUIRE(from_json(j, back, error));
  CHECK(back.values == numbered.values);
  REQUIRE(from_json(to_json(plain), back, error));
  CHECK(back.values.empty());
}
