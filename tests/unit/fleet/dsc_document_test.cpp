// The DSC desired state as untrusted input (issue 38, item 3): `{"bogus": [[[...]]]}` 200,000 deep,
// or a `memory` value that deep, crashed `tfwsl dsc test` (stack overflow in nlohmann::json's
// recursive copy and dump), 100 MB on stdin grew the process to 690 MB, and a bad value was dumped
// whole into the error message.
#include "win/fleet/dsc_document.hpp"

#include <catch2/catch.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "win/app/cli_app.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;
using nlohmann::json;

namespace {

std::string repeated(std::string_view part, std::size_t times) {
  std::string out;
  out.reserve(part.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += part;
  return out;
}

std::string nested(std::string_view key, std::size_t depth) {
  return "{\"" + std::string(key) + "\": " + repeated("[", depth) + repeated("]", depth) + "}";
}

// `tfwsl dsc ARGS` with `input` on stdin.
test::Captured dsc_with_stdin(const std::string& input, std::vector<std::string> args) {
  std::istringstream in(input);
  std::streambuf* saved = std::cin.rdbuf(in.rdbuf());
  args.insert(args.begin(), "dsc");
  auto result = test::run_captured(test::tfwsl_cli, args);
  std::cin.rdbuf(saved);
  std::cin.clear();
  return result;
}

class NoInvoker final : public TfwslInvoker {
 public:
  int calls = 0;
  Result<Invocation> run(const std::vector<std::string>&) override {
    ++calls;
    return make_error(ErrorCode::internal, "nothing runs in this test");
  }
};

}  // namespace

TEST_CASE("dsc: a desired state nested 200,000 deep is refused by name before it is parsed", "[fleet][dsc]") {
  for (const std::string key : {"bogus", "memory"}) {
    const auto run = dsc_with_stdin(nested(key, 200000), {"test", "--resource", "Tfwsl/WslConfig"});
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    const auto line = json::parse(run.err);
    CHECK(line["error"].get<std::string>().starts_with(
        "tfwsl dsc: the desired state (stdin):1: nested deeper than 64 levels"));
    CHECK(run.err.size() < 400);
  }
  const auto given = dsc_with_stdin("", {"get", "--resource", "Tfwsl/Profile", "--input", nested("profile", 100)});
  CHECK(given.code == 2);
  CHECK(given.err.find("the desired state (--input):1: nested deeper than 64 levels") != std::string::npos);
}

TEST_CASE("dsc: stdin is read up to 1 MiB, more is refused naming the input and the limit", "[fleet][dsc]") {
  std::istringstream exactly(std::string(dsc::k_max_dsc_document_bytes, ' '));
  auto read = dsc::read_dsc_document(exactly, "stdin");
  REQUIRE(read);
  CHECK(read->size() == dsc::k_max_dsc_document_bytes);
  std::istringstream over(std::string(dsc::k_max_dsc_document_bytes + 1, ' '));
  auto refused = dsc::read_dsc_document(over, "stdin");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.starts_with("the desired state (stdin) is more than 1048576 bytes (1 MiB)"));
  const auto run =
      dsc_with_stdin("{\"memory\": \"" + std::string(3u << 20, 'x') + "\"}", {"test", "--resource", "Tfwsl/WslConfig"});
  CHECK(run.code == 2);
  CHECK(run.err.find("is more than 1048576 bytes") != std::string::npos);
  CHECK(run.err.size() < 400);
}

TEST_CASE("dsc: a bad value or name is shown cut short, its control characters escaped", "[fleet][dsc]") {
  NoInvoker tfwsl;
  json big = json::object();
  for (int i = 0; i < 5000; ++i) big["k" + std::to_string(i)] = "\x1b]0;OWNED\x07\x1b[2J";
  auto typed = dsc::wslconfig_test(json{{"memory", big}}, tfwsl);
  REQUIRE_FALSE(typed);
  const std::string& message = typed.error().message;
  CHECK(message.starts_with("'memory' must be string, not {\"k0\":\"\\u001b]0;OWNED\\u0007"));
  CHECK(message.ends_with("..."));
  CHECK(message.size() < 200);
  CHECK(message.find('\x1b') == std::string::npos);
  auto named = dsc::wslconfig_test(json{{std::string(100000, 'n') + "\x1b[2J", 1}}, tfwsl);
  REQUIRE_FALSE(named);
  CHECK(named.error().message.size() < 300);
  CHECK(named.error().message.find('\x1b') == std::string::npos);
  CHECK(tfwsl.calls == 0);
}

// DSC runs `get` without input with stdin closed (run_process_async in
// lib/dsc-lib/src/dscresources/command_resource.rs at PowerShell/DSC 861df432: Stdio::null() when
// there is no input), and logs a stderr line at error level only when it is a JSON object whose one
// key is the level (log_stderr_line, same file): {"error": "..."}.
TEST_CASE("dsc: no input is the empty instance, never not JSON, and an error is DSC's error line", "[fleet][dsc]") {
  for (const std::string text : {"", " \r\n\t"}) {
    auto parsed = dsc::parse_dsc_document(text, "stdin");
    REQUIRE(parsed);
    CHECK(*parsed == json::object());
  }
  const auto run = dsc_with_stdin("", {"get", "--resource", "Tfwsl/Profile"});
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  CHECK(run.err.find("not JSON") == std::string::npos);
  REQUIRE(run.err.ends_with("\n"));
  CHECK(run.err.find('\n') == run.err.size() - 1);
  const auto line = json::parse(run.err);
  REQUIRE(line.is_object());
  CHECK(line.size() == 1);
  CHECK(line["error"].get<std::string>().starts_with("tfwsl dsc: Tfwsl/Profile needs 'profile'"));
}
