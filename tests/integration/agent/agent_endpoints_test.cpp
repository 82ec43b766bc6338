// The endpoints on this GPU-less machine, the challenge, the stdio channel, start-up refusals and
// `tfwsl-agent check`.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "common/agent_api/challenge.hpp"
#include "common/agent_api/frame_codec.hpp"
#include "common/agent_api/handshake.hpp"
#include "common/agent_api/linux_facts.hpp"
#include "common/judge/assess.hpp"
#include "tests/integration/agent/agent_process.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::test;

namespace {

std::string request(const AgentProcess& a, const std::string& method, const std::string& target,
                    const std::string& body = {}, bool with_auth = true) {
  std::string r = method + " " + target + " HTTP/1.1\r\nHost: " + a.host() + "\r\n" + (with_auth ? a.auth() : "");
  if (method == "POST")
    r += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "Connection: close\r\n\r\n" + body;
}

const nlohmann::json* find_check(const nlohmann::json& report, const std::string& id) {
  for (const auto& c : report["checks"])
    if (c["id"] == id) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("GET /v1/checks answers 200 and the GPU checks fail for the right reason", "[endpoints]") {
  AgentProcess a({"--python", "/nonexistent/python"});
  auto res = raw_exchange(a.port(), request(a, "GET", "/v1/checks"));
  REQUIRE(status_of(res) == 200);
  auto report = body_of(res);
  REQUIRE(report["checks"].size() == 15);
  const auto* libcuda = find_check(report, "linux.libcuda");
  REQUIRE(libcuda);
  CHECK((*libcuda)["status"] == "fail");
  CHECK((*libcuda)["summary"] == "libcuda.so.1 not found");
  const auto* dxg = find_check(report, "linux.dxg");
  REQUIRE(dxg);
  bool wsl2 =
      std::filesystem::exists("/dev/dxg") || read_file("/proc/sys/kernel/osrelease").find("WSL2") != std::string::npos;
  if (!wsl2 && read_file("/proc/version").find("icrosoft") == std::string::npos) {
    CHECK((*dxg)["status"] == "skip");
    CHECK((*dxg)["summary"].get<std::string>().find("not WSL") != std::string::npos);
  }
  const auto* visible = find_check(report, "gpu.visible");
  REQUIRE(visible);
  CHECK((*visible)["status"] == "fail");
  CHECK((*visible)["summary"].get<std::string>().find("libcuda.so.1 not found") != std::string::npos);
  const auto* python = find_check(report, "python.version");
  REQUIRE(python);
  CHECK((*python)["status"] == "fail");
  CHECK(report["cached"] == false);
  auto again = body_of(raw_exchange(a.port(), request(a, "GET", "/v1/checks")));
  CHECK(again["cached"] == true);
  CHECK(again["probed_at_ms"] == report["probed_at_ms"]);
}

TEST_CASE("GET /v1/facts answers the probes' facts, typed and behind the token", "[endpoints][facts]") {
  AgentProcess a({"--python", "/nonexistent/python"});
  CHECK(status_of(raw_exchange(a.port(), request(a, "GET", "/v1/facts", {}, false))) == 401);
  auto res = raw_exchange(a.port(), request(a, "GET", "/v1/facts"));
  REQUIRE(status_of(res) == 200);
  auto body = body_of(res);
  auto facts = tfwsl::agent_api::parse_linux_facts(body);
  INFO((facts ? std::string() : facts.error().message));
  REQUIRE(facts);
  CHECK_FALSE(facts->gpu.libcuda_loaded);
  CHECK(facts->stack.python_version.empty());  // /nonexistent/python
  CHECK(facts->system.mem_total_kb.has_value());
  CHECK(body["cached"] == false);
  // /v1/checks is the same facts judged by the same judge (the agent's default profile): the CLI's
  // judge over /v1/facts gives the same verdicts.
  auto policy = tfwsl::judge::check_policy_for_profile("");
  REQUIRE(policy);
  auto judged = tfwsl::judge::assess(*facts, *policy);
  auto checks = body_of(raw_exchange(a.port(), request(a, "GET", "/v1/checks")));
  CHECK(checks["cached"] == true);
  REQUIRE(checks["checks"].size() == judged.checks.size());
  for (std::size_t i = 0; i < judged.checks.size(); ++i) {
    CHECK(checks["checks"][i]["id"] == judged.checks[i].id);
    CHECK(checks["checks"][i]["summary"] == judged.checks[i].summary);
  }
}

TEST_CASE("GET /v1/info, /v1/gpu, /v1/stack", "[endpoints]") {
  AgentProcess a({"--python", "/nonexistent/python"});
  auto info = body_of(raw_exchange(a.port(), request(a, "GET", "/v1/info")));
  CHECK(info["agent"] == TFWSL_VERSION);
  CHECK(info["api"] == tfwsl::agent_api::k_api_version);
  CHECK(info["pid"] == a.pid());
  CHECK(info["uid"] == getuid());
  CHECK(info["wsl"].is_string());
  CHECK_FALSE(info["kernel"].get<std::string>().empty());
  auto gpu = body_of(raw_exchange(a.port(), request(a, "GET", "/v1/gpu")));
  CHECK(gpu["libcuda"]["loaded"] == false);
  CHECK(gpu["libcuda"]["error"].get<std::string>().find("libcuda.so.1") != std::string::npos);
  CHECK(gpu["devices"].empty());
  auto stack = body_of(raw_exchange(a.port(), request(a, "GET", "/v1/stack")));
  CHECK(stack["python"]["version"] == "");
  CHECK(stack["tensorflow"]["ran"] == false);
}

TEST_CASE("POST /v1/paths/resolve maps drive letters and refuses network shares", "[endpoints]") {
  AgentProcess a;
  auto ok =
      raw_exchange(a.port(), request(a, "POST", "/v1/paths/resolve", R"({"windows_path":"\\\\wsl$\\x\\home\\me"})"));
  // Outside WSL the distro is the OS name, so \\wsl$\x\ is another distro: a clear 422.
  CHECK((status_of(ok) == 200 || status_of(ok) == 422));
  auto share =
      raw_exchange(a.port(), request(a, "POST", "/v1/paths/resolve", R"({"windows_path":"\\\\server\\share\\data"})"));
  CHECK(status_of(share) == 422);
  CHECK(body_of(share)["error"]["message"].get<std::string>().find("not mapped") != std::string::npos);
  auto relative = raw_exchange(a.port(), request(a, "POST", "/v1/paths/resolve", R"({"windows_path":"data"})"));
  CHECK(status_of(relative) == 400);
  CHECK(body_of(relative)["error"]["code"] == "invalid_input");
}

TEST_CASE("the challenge proves the agent knows the token, without the token", "[endpoints]") {
  AgentProcess a;
  auto nonce = random_token();
  auto res = raw_exchange(a.port(), request(a, "POST", "/v1/challenge", R"({"nonce":")" + nonce + "\"}", false));
  REQUIRE(status_of(res) == 200);
  auto proof = body_of(res)["proof"].get<std::string>();
  CHECK(tfwsl::agent_api::verify_challenge_proof(a.token(), nonce, proof));
  CHECK_FALSE(tfwsl::agent_api::verify_challenge_proof(random_token(), nonce, proof));
  // Without a token only the challenge answers.
  CHECK(status_of(raw_exchange(a.port(), request(a, "GET", "/v1/info", {}, false))) == 401);
}

TEST_CASE("stdio frames reach the same router, stdin EOF ends the agent with 0", "[stdio]") {
  AgentProcess a({"--python", "/nonexistent/python"});
  using namespace tfwsl::agent_api;
  std::string frames =
      encode_frame(to_payload(FrameRequest{1, "GET", "/v1/info", nullptr})) +
      encode_frame(to_payload(FrameRequest{2, "DELETE", "/v1/info", nullptr})) +
      encode_frame(to_payload(FrameRequest{3, "POST", "/v1/paths/resolve", {{"windows_path", "C:\\x"}, {"x", 1}}}));
  REQUIRE(::write(a.stdin_fd(), frames.data(), frames.size()) == static_cast<ssize_t>(frames.size()));
  FrameDecoder decoder(1 << 20);
  std::vector<FrameResponse> answers;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  char buf[4096];
  while (answers.size() < 3 && std::chrono::steady_clock::now() < deadline) {
    auto n = ::read(a.stdout_fd(), buf, sizeof buf);
    if (n <= 0) break;
    decoder.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    for (;;) {
      auto f = decoder.next();
      REQUIRE(f);
      if (!f->has_value()) break;
      auto r = parse_frame_response(**f);
      REQUIRE(r);
      answers.push_back(*r);
    }
  }
  REQUIRE(answers.size() == 3);
  CHECK(answers[0].id == 1);
  CHECK(answers[0].status == 200);
  CHECK(answers[0].body["api"] == tfwsl::agent_api::k_api_version);
  CHECK(answers[1].status == 405);
  CHECK(answers[2].status == 400);
  CHECK(answers[2].body["error"]["code"] == "unknown_field");
  auto code = a.close_stdin_and_wait();
  REQUIRE(code.has_value());
  CHECK(*code == 0);
}

TEST_CASE("start-up refusals: non-loopback address, bad token line, loose token file", "[startup]") {
  auto token_line = random_token() + "\n";
  auto any = run_agent({"serve", "--listen", "0.0.0.0:0", "--stdio-handshake"}, token_line);
  CHECK(any.first == 2);
  CHECK(any.second.find("not a loopback address") != std::string::npos);
  CHECK(run_agent({"serve", "--listen", "192.168.1.10:0", "--stdio-handshake"}, token_line).first == 2);
  auto short_token = run_agent({"serve", "--stdio-handshake"}, "abc\n");
  CHECK(short_token.first == 2);
  CHECK(short_token.second.find("hex digits") != std::string::npos);

  TempDir dir;
  auto secret_dir = dir.path() / "secret";
  std::filesystem::create_directory(secret_dir);
  auto token_file = secret_dir / "token";
  write_file(token_file, random_token() + "\n");
  ::chmod(secret_dir.c_str(), 0700);
  ::chmod(token_file.c_str(), 0644);
  auto loose = run_agent({"serve", "--token-file", token_file.string()}, "");
  CHECK(loose.first == 2);
  CHECK(loose.second.find("0600") != std::string::npos);
  ::chmod(token_file.c_str(), 0600);
  ::chmod(secret_dir.c_str(), 0755);
  auto loose_dir = run_agent({"serve", "--token-file", token_file.string()}, "");
  CHECK(loose_dir.first == 2);
  CHECK(loose_dir.second.find("0700") != std::string::npos);
}

TEST_CASE("tfwsl-agent check --json prints the report and exits 2 on this GPU-less machine", "[check]") {
  auto [code, out] = run_agent({"check", "--json", "--python", "/nonexistent/python"}, "");
  CHECK(code == 2);
  auto start = out.find('{');
  REQUIRE(start != std::string::npos);
  auto end = out.rfind('}');
  auto report = nlohmann::json::parse(out.substr(start, end - start + 1), nullptr, false);
  REQUIRE(report.is_object());
  CHECK(report["summary"]["exit_code"] == 2);
  CHECK(find_check(report, "gpu.visible") != nullptr);
  auto [text_code, text] = run_agent({"check", "--python", "/nonexistent/python"}, "");
  CHECK(text_code == 2);
  // The compact text: the root cause under its category, then the summary naming it first.
  CHECK(text.find("] Linux side: libcuda.so.1 not found\n") != std::string::npos);
  CHECK(text.find("Fix first: linux.libcuda") != std::string::npos);
}
