// The wsl.exe driver against a recording fake: argv vectors, WSL_UTF8, UTF-16LE decoding, the
// failure classification and the timeout.
#include "win/wsl/wsl_client.hpp"

#include <catch2/catch.hpp>

#include "common/text/utf_convert.hpp"
#include "tests/support/recording_process_runner.hpp"

using namespace tfwsl;
using namespace tfwsl::wsl;

namespace {

// What wsl.exe writes to a pipe without WSL_UTF8: UTF-16LE, CRLF.
std::string utf16le(const std::string& utf8) {
  std::string crlf;
  for (char c : utf8) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::u16string wide = utf8_to_utf16(crlf);
  std::string bytes;
  for (char16_t ch : wide) {
    bytes += static_cast<char>(ch & 0xFF);
    bytes += static_cast<char>(ch >> 8);
  }
  return bytes;
}

ProcessOutcome answer(int code, std::string out, std::string err = {}) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  o.err = std::move(err);
  return o;
}

WslSettings settings() {
  WslSettings s;
  s.exe = "C:\\Windows\\System32\\wsl.exe";
  s.timeout = std::chrono::seconds(7);
  return s;
}

}  // namespace

TEST_CASE("wsl.exe is found in System32 unless TFWSL_WSL_EXE names another") {
  std::map<std::string, std::string> env{{"SystemRoot", "C:\\Windows"}};
  auto lookup = [&](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  CHECK(locate_wsl_exe(lookup) == "C:\\Windows\\System32\\wsl.exe");
  env["TFWSL_WSL_EXE"] = "Z:\\tmp\\standin\\wsl.exe";
  CHECK(locate_wsl_exe(lookup) == "Z:\\tmp\\standin\\wsl.exe");
  env.clear();
  env["windir"] = "D:\\WINDOWS\\";
  CHECK(locate_wsl_exe(lookup) == "D:\\WINDOWS\\System32\\wsl.exe");
}

TEST_CASE("wsl.exe -l -v runs with an argv, WSL_UTF8=1 and a timeout, and decodes UTF-16LE") {
  test::RecordingProcessRunner runner;
  runner.on({"C:\\Windows\\System32\\wsl.exe", "-l", "-v"},
            answer(0, utf16le("  NAME            STATE           VERSION\n* Ubuntu-22.04    Running         2\n")));
  WslClient client(runner, settings());
  auto reply = client.list_verbose();
  REQUIRE(reply);
  CHECK(reply->failure.kind == WslFailureKind::none);
  CHECK(reply->encoding == ConsoleEncoding::utf16le);
  CHECK(reply->text.find("* Ubuntu-22.04    Running         2") != std::string::npos);
  auto requests = runner.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].argv == std::vector<std::string>{"C:\\Windows\\System32\\wsl.exe", "-l", "-v"});
  CHECK(requests[0].env.at("WSL_UTF8") == "1");
  CHECK(requests[0].timeout == std::chrono::seconds(7));
  CHECK(client.starts() == 1);
}

TEST_CASE("UTF-8 output (WSL_UTF8 honoured) decodes the same") {
  test::RecordingProcessRunner runner;
  runner.on({"C:\\Windows\\System32\\wsl.exe", "--status"},
            answer(0, "Default Distribution: Debian\r\nDefault Version: 2\r\n"));
  WslClient client(runner, settings());
  auto reply = client.status();
  REQUIRE(reply);
  CHECK(reply->encoding == ConsoleEncoding::utf8);
  CHECK(reply->text.find("Default Distribution: Debian") != std::string::npos);
}

TEST_CASE("an old inbox wsl.exe answering --version with usage text is cli-too-old") {
  test::RecordingProcessRunner runner;
  runner.on(
      {"C:\\Windows\\System32\\wsl.exe", "--version"},
      answer(-1, utf16le("Invalid command line option: --version\nCopyright (c) Microsoft Corporation. All rights "
                         "reserved.\n\nUsage: wsl.exe [Argument] [Options...] [CommandLine]\n")));
  WslClient client(runner, settings());
  auto reply = client.version();
  REQUIRE(reply);
  CHECK(reply->failure.kind == WslFailureKind::cli_too_old);
  CHECK(reply->failure.fix.find("wsl.exe --update") != std::string::npos);
  CHECK(to_error(reply->failure).code == ErrorCode::unsupported);
}

TEST_CASE("exit code 4294967295 with an Error code line maps to a clear failure") {
  test::RecordingProcessRunner runner;
  runner.on({"C:\\Windows\\System32\\wsl.exe", "--terminate"},
            ProcessOutcome{-1, "",
                           utf16le("There is no distribution with the supplied name.\nError code: "
                                   "Wsl/Service/WSL_E_DISTRO_NOT_FOUND\n")});
  WslClient client(runner, settings());
  auto reply = client.terminate("Nope");
  REQUIRE(reply);
  CHECK(reply->failure.kind == WslFailureKind::distro_not_found);
  CHECK(reply->failure.code == "Wsl/Service/WSL_E_DISTRO_NOT_FOUND");
  CHECK(runner.requests()[0].argv == std::vector<std::string>{"C:\\Windows\\System32\\wsl.exe", "--terminate", "Nope"});
}

TEST_CASE("no distribution: the message without a code is recognised in German too") {
  std::string german =
      "Windows-Subsystem für Linux verfügt über keine installierten Distributionen.\n"
      "Sie können dies beheben, indem Sie eine Distribution installieren:\n\n"
      "\"wsl.exe --list --online' zum Auflisten verfügbarer Distributionen verwenden\nund \"wsl.exe --install "
      "<Distro>\".\n";
  auto f = classify_wsl_result(4294967295LL, german, "-l -v");
  CHECK(f.kind == WslFailureKind::no_distro);
  CHECK(f.fix.find("--install") != std::string::npos);
}

TEST_CASE("error codes are read after a localized label, including a full-width colon") {
  CHECK(find_wsl_error_code(
            "Irgendwas\nFehlercode: Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED\n") ==
        "Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED");
  CHECK(find_wsl_error_code("x\n错误代码\xEF\xBC\x9A Wsl/Service/WSL_E_DISTRO_NOT_FOUND\r\n") ==
        "Wsl/Service/WSL_E_DISTRO_NOT_FOUND");
  CHECK(find_wsl_error_code("Error code: 0x80370102\n") == "0x80370102");
  CHECK(find_wsl_error_code("Default Version: 2\n").empty());
  CHECK(classify_wsl_result(-1, "x\nError code: 0x80370102", "-d U --exec true").kind ==
        WslFailureKind::virtualization_disabled);
  CHECK(classify_wsl_result(-1, "boom\nError code: Wsl/Other/E_FAIL", "--status").kind == WslFailureKind::other);
  CHECK(classify_wsl_result(0, "anything", "--status").kind == WslFailureKind::none);
}

TEST_CASE("a timeout is an error that names the command and the fix") {
  test::RecordingProcessRunner runner;
  ProcessOutcome hung;
  hung.timed_out = true;
  runner.on({"C:\\Windows\\System32\\wsl.exe", "--status"}, hung);
  WslClient client(runner, settings());
  auto reply = client.status();
  REQUIRE_FALSE(reply);
  CHECK(reply.error().code == ErrorCode::timeout);
  CHECK(reply.error().message.find("--status") != std::string::npos);
  CHECK(reply.error().message.find("wsl --shutdown") != std::string::npos);
}

TEST_CASE("a missing wsl.exe says WSL is not installed") {
  test::RecordingProcessRunner runner;  // no rules: every program is "not found"
  WslClient client(runner, settings());
  auto reply = client.version();
  REQUIRE_FALSE(reply);
  CHECK(reply.error().code == ErrorCode::not_found);
  CHECK(reply.error().message.find("wsl.exe --install") != std::string::npos);
}

TEST_CASE("exec builds -d -u --cd --exec argv and passes stdin, Linux exit codes are the program's") {
  test::RecordingProcessRunner runner;
  runner.on({"C:\\Windows\\System32\\wsl.exe", "-d"}, answer(3, "raw \xE2\x9C\x93 bytes\n"));
  WslClient client(runner, settings());
  auto reply = client.exec({"Ubuntu-22.04", "root", "/tmp"}, {"/usr/bin/install", "-m", "0755", "a b", "c"},
                           std::string("token\n"));
  REQUIRE(reply);
  CHECK(reply->exit_code == 3);
  CHECK(reply->failure.kind == WslFailureKind::none);
  CHECK(reply->text == "raw \xE2\x9C\x93 bytes\n");
  auto r = runner.requests().at(0);
  CHECK(r.argv == std::vector<std::string>{"C:\\Windows\\System32\\wsl.exe", "-d", "Ubuntu-22.04", "-u", "root", "--cd",
                                           "/tmp", "--exec", "/usr/bin/install", "-m", "0755", "a b", "c"});
  CHECK(r.stdin_data == std::optional<std::string>("token\n"));
}

TEST_CASE("shutdown and install use the documented options") {
  test::RecordingProcessRunner runner;
  runner.on({"C:\\Windows\\System32\\wsl.exe"}, answer(0, ""));
  WslClient client(runner, settings());
  REQUIRE(client.shutdown());
  REQUIRE(client.install("Ubuntu-22.04"));
  auto r = runner.requests();
  CHECK(r[0].argv == std::vector<std::string>{"C:\\Windows\\System32\\wsl.exe", "--shutdown"});
  CHECK(r[1].argv ==
        std::vector<std::string>{"C:\\Windows\\System32\\wsl.exe", "--install", "-d", "Ubuntu-22.04", "--no-launch"});
  CHECK(r[1].timeout > r[0].timeout);
  CHECK(client.starts() == 2);
}
