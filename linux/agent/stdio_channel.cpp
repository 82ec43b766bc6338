#include "linux/agent/stdio_channel.hpp"

#include <errno.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstring>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/frame_codec.hpp"
#include "linux/agent/strict_json.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

Result<std::string> read_line_from_fd(int fd, std::size_t max_bytes) {
  std::string line;
  for (;;) {
    char c = 0;
    auto n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::io, "reading stdin failed", std::strerror(errno));
    if (n == 0) return make_error(ErrorCode::invalid_input, "stdin closed before the token line");
    if (c == '\n') return line;
    if (line.size() >= max_bytes) return make_error(ErrorCode::invalid_input, "the token line on stdin is too long");
    line.push_back(c);
  }
}

namespace {

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string answer_frame_payload(const Router& router, const std::string& payload, bool& fatal) {
  fatal = false;
  auto parsed = agent_api::parse_frame_request(payload);
  if (!parsed) {
    fatal = true;  // no id to answer to: the client and we disagree on the protocol
    return agent_api::to_payload(
        agent_api::FrameResponse{0, 400, agent_api::error_body(ApiError::bad_request, parsed.error().message)});
  }
  // The envelope parser keeps the last of two equal keys; the HTTP body rule refuses them, and so
  // does this transport (the id is known, so the channel goes on).
  if (auto strict = parse_json_strict(payload); !strict)
    return agent_api::to_payload(agent_api::FrameResponse{
        parsed->id, 400, agent_api::error_body(ApiError::bad_request, strict.error().message)});
  ApiRequest request;
  request.method = parsed->method;
  split_target(parsed->path, request.path, request.query);
  request.body = parsed->body;
  ApiResponse response;
  if (request.method == "POST" && request.body.is_null())
    response = error_response(ApiError::bad_request, "a POST frame needs a JSON object body");
  else
    response = router.dispatch(std::move(request));
  return agent_api::to_payload(agent_api::FrameResponse{parsed->id, response.status, response.body});
}

Status serve_stdio_frames(const Router& router, int in_fd, int out_fd, int stop_fd) {
  // The same cap as an HTTP body, plus room for the envelope.
  agent_api::FrameDecoder decoder(agent_api::k_max_request_body + 4096);
  char buf[16384];
  for (;;) {
    pollfd ready[2] = {{in_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
    if (::poll(ready, 2, -1) < 0 && errno != EINTR)
      return make_error(ErrorCode::io, "polling stdin failed", std::strerror(errno));
    if (ready[1].revents & POLLIN) return {};  // stopping (a signal): the frames still unread are dropped
    if (!(ready[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) continue;
    auto n = ::read(in_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::io, "reading stdin failed", std::strerror(errno));
    if (n == 0) {
      if (decoder.buffered() > 0)
        spdlog::warn("stdin closed in the middle of a frame ({} bytes dropped)", decoder.buffered());
      return {};
    }
    decoder.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    for (;;) {
      auto frame = decoder.next();
      if (!frame) {
        write_all(out_fd, agent_api::encode_frame(agent_api::to_payload(agent_api::FrameResponse{
                              0, 400, agent_api::error_body(ApiError::bad_request, frame.error().message)})));
        return tl::unexpected(frame.error());
      }
      if (!frame->has_value()) break;
      bool fatal = false;
      auto answer = answer_frame_payload(router, **frame, fatal);
      if (!write_all(out_fd, agent_api::encode_frame(answer)))
        return make_error(ErrorCode::io, "writing to stdout failed (the CLI went away?)");
      if (fatal) return make_error(ErrorCode::parse, "a stdio frame was not a request object");
    }
  }
}

}  // namespace tfwsl::agent
