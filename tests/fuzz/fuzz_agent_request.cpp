// seeds: docs/agent-api.md tests/fuzz/agent_seeds
// libs: tfwsl_agent_lib
// Raw request bytes through the agent's real request path: cpp-httplib's parser (the exact header
// we link), our pre-routing admission, the router and the core handlers; and the same bytes through
// the stdio frame decoder and router. Nothing may crash, hang or throw out.
#include <cstdint>
#include <cstring>
#include <string>

#include <httplib.h>

#include "common/agent_api/frame_codec.hpp"
#include "linux/agent/http_server.hpp"
#include "linux/agent/routes.hpp"
#include "linux/agent/stdio_channel.hpp"

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
  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip = "127.0.0.1"; port = 50000; }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip = "127.0.0.1"; port = 41234; }
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
    context.probe_env.loader = std::make_shared<tfwsl::linux_checks::DlopenLoader>();
    tfwsl::agent::register_core_routes(router, context);
    policy = {41234, context.token, tfwsl::agent_api::k_max_request_body};
    tfwsl::agent::install_agent_handlers(server, router, policy);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness harness;
  FuzzedStream stream(data, size);
  harness.server.feed(stream);

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
