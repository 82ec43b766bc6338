// Issue 38, item 4: `tfwsl explain` quotes the paste in its "seen: line N" evidence and its facts. A
// pasted log holding OSC 52 (a clipboard write Windows Terminal honours), ESC[2J and a DCS string
// must reach the terminal written out, never as the sequences themselves; JSON escapes them as JSON does.
#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/visible_text.hpp"

using namespace tfwsl;

TEST_CASE("explain shows a paste's escape sequences visibly in its evidence and facts", "[explain][terminal]") {
  const std::string hostile =
      "\x1b]52;c;SGVsbG8=\x07\x1b[2J\x1bP+q544e\x1b\\\xC2\x9b"
      "2J";
  const std::string paste =
      "2024-05-01 10:00:00.000000: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2211] Cannot dlopen some GPU "
      "libraries." +
      hostile + "\nCould not load dynamic library 'libcudnn.so.8'" + hostile + "\n";
  const auto& base = diagnose::builtin_signature_base();
  REQUIRE(base);
  const auto explanation = diagnose::explain(paste, *base);
  REQUIRE_FALSE(explanation.findings.empty());
  for (bool verbose : {false, true}) {
    const std::string text = diagnose::render_text(explanation, {false, verbose});
    INFO(text);
    CHECK(text.find("seen: line") != std::string::npos);
    CHECK(text.find('\r') == std::string::npos);
    for (std::string_view line : lines_of(text)) CHECK_FALSE(needs_visible_text(line));
    CHECK(text.find("\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\x1bP+q544e\\x1b\\\\u009b2J") != std::string::npos);
  }
  const std::string json =
      diagnose::to_json(explanation).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  CHECK(json.find('\x1b') == std::string::npos);
  CHECK(json.find("\\u001b]52;c;") != std::string::npos);
}
