// seeds: docs/agent-api.md tests/fuzz/agent_seeds
// libs: tfwsl_agent_lib
// Raw request bytes through the agent's real request path: the connection gate's head scanner
// (fed whole and in pieces, which must agree), cpp-httplib's parser (the exact header we link), our
// pre-routing admission, the router and the core handlers; the body through the strict JSON parser;
// and the same bytes through the stdio frame decoder and router. Nothing may crash, hang or throw
// out. Seeds include header names with whitespace, bare LFs and duplicate JSON keys.
#include <httplib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/agent_api/frame_codec.hpp"
#include "linux/agent/http_server.hpp"
#include "linux/agent/request_head.hpp"
#include "linux/agent/routes.hpp"
#include "linux/agent/stdio_channel.hpp"
#include "linux/agent/strict_json.hpp"

namespace {

// A Stream over the fuzz input; writes are discarded.
class FuzzedStream final : public httplib::Stream {
 public:
  FuzzedStream(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    size = std::min(size, m_size - m_pos);
    std::memcpy(ptr, m_data + m_pos, size);
    m_pos += size;
    return static_cast<ssize_t>(size);
  }
  ssize_t write(const char*, size_t size) override { return static_cast<ssize_t>(size); }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 50000;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 41234;
  }
  socket_t socket() const override { return 0; }

 private:
  const uint8_t* m_data;
  size_t m_size;
  size_t m_pos = 0;
};

class FuzzServer final : public httplib::Server {
 public:
  void feed(httplib::Stream& stream) {
    bool closed = false;
    process_request(stream, "127.0.0.1", 50000, "127.0.0.1", 41234, true, closed, nullptr);
  }
};

// A process runner that starts nothing: the fuzzer must not spawn dpkg or python.
class NoProcessRunner final : public tfwsl::ProcessRunner {
 public:
  tfwsl::Result<tfwsl::ProcessOutcome> run(const tfwsl::ProcessRequest& request) override {
    return tfwsl::make_error(tfwsl::ErrorCode::not_found, request.argv.at(0) + " not started while fuzzing");
  }
};

struct Harness {
  tfwsl::agent::AgentContext context;
  tfwsl::agent::Router router;
  tfwsl::agent::AdmissionPolicy policy;
  FuzzServer server;
  Harness() {
    context.token = std::string(32, 'a');  // the seeds carry it, so the fuzzer reaches the handlers
    context.port = 41234;
    context.probe_env.root = "/nonexistent-fuzz-root";
    context.probe_env.runner = std::make_shared<NoProcessRunner>();
    tfwsl::agent::register_core_routes(router, context);
    policy = {41234, context.token, tfwsl::agent_api::k_max_request_body};
    tfwsl::agent::install_agent_handlers(server, router, policy);
  }
};

// The gate's scanner must reach the same verdict whatever the arrival pattern: the whole input at
// once, or a byte at a time (in chunks for long inputs, to keep the run fast).
void check_head_scanner(std::string_view bytes) {
  tfwsl::agent::RequestHeadScanner whole(16 * 1024, tfwsl::agent_api::k_max_request_body);
  tfwsl::agent::RequestHeadScanner pieces(16 * 1024, tfwsl::agent_api::k_max_request_body);
  whole.scan(bytes);
  std::size_t step = bytes.size() <= 4096 ? 1 : 97;
  for (std::size_t n = step; n < bytes.size(); n += step) pieces.scan(bytes.substr(0, n));
  pieces.scan(bytes);
  if (whole.state() != pieces.state() || whole.head_size() != pieces.head_size() ||
      whole.body_size() != pieces.body_size())
    std::abort();
  if (whole.state() == tfwsl::agent::HeadState::complete) {
    auto head = bytes.substr(0, whole.head_size());
    if (head.size() < 4 || head.substr(head.size() - 4) != "\r\n\r\n" ||
        whole.body_size() > tfwsl::agent_api::k_max_request_body)
      std::abort();
    for (std::size_t i = 0; i < head.size(); ++i)
      if (head[i] == '\n' && (i == 0 || head[i - 1] != '\r')) std::abort();  // a bare LF got through
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness harness;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_head_scanner(bytes);
  FuzzedStream stream(data, size);
  harness.server.feed(stream);
  auto gap = bytes.find("\r\n\r\n");
  (void)tfwsl::agent::parse_json_strict(gap == std::string_view::npos ? bytes : bytes.substr(gap + 4));

  tfwsl::agent_api::FrameDecoder decoder(tfwsl::agent_api::k_max_request_body + 4096);
  decoder.feed(std::string_view(reinterpret_cast<const char*>(data), size));
  for (int i = 0; i < 16; ++i) {
    auto frame = decoder.next();
    if (!frame || !frame->has_value()) break;
    bool fatal = false;
    (void)tfwsl::agent::answer_frame_payload(harness.router, **frame, fatal);
    if (fatal) break;
  }
  return 0;
}
