#include "linux/agent/http_server.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/json_wire.hpp"
#include "linux/agent/strict_json.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

Result<ListenAddress> parse_listen_address(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size())
    return make_error(ErrorCode::invalid_input, "--listen '" + text + "' needs HOST:PORT, e.g. 127.0.0.1:0");
  auto host = text.substr(0, colon);
  auto port_text = text.substr(colon + 1);
  if (port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string::npos)
    return make_error(ErrorCode::invalid_input, "--listen '" + text + "': the port must be a number from 0 to 65535");
  int port = std::stoi(port_text);
  if (port > 65535) return make_error(ErrorCode::invalid_input, "--listen '" + text + "': the port must be 0 to 65535");
  if (host == "127.0.0.1" || host == "localhost") return ListenAddress{"127.0.0.1", port};
  if (host == "[::1]") return ListenAddress{"::1", port};
  return make_error(ErrorCode::invalid_input,
                    "--listen '" + text +
                        "' is not a loopback address: the agent only listens on 127.0.0.1, localhost "
                        "or [::1] (anything else would expose it to the network)");
}

namespace {

void write_json(httplib::Response& res, const ApiResponse& response) {
  res.status = response.status;
  for (const auto& [name, value] : response.headers) res.set_header(name, value);
  res.set_content(agent_api::wire_text(response.body), "application/json");
}

RequestHead head_of(const httplib::Request& req) {
  RequestHead head;
  head.method = req.method;
  head.target = req.target;
  // The library adds REMOTE_ADDR/LOCAL_ADDR/... pseudo-headers after the client's own (a client can
  // send those names too: CVE-2025-66570). Admission never looks at them.
  head.headers.assign(req.headers.begin(), req.headers.end());
  return head;
}

ApiRequest api_request_of(const httplib::Request& req) {
  ApiRequest request;
  request.method = req.method;
  split_target(req.target, request.path, request.query);  // raw target: the same path admission matched
  return request;
}

GateLimits gate_limits(const ServerLimits& limits) {
  GateLimits gate;
  gate.head_deadline = std::chrono::milliseconds(limits.head_deadline_ms);
  gate.body_deadline = std::chrono::seconds(limits.body_timeout_s);
  gate.max_pending = limits.max_pending;
  gate.max_body = agent_api::k_max_request_body;
  return gate;
}

WorkerLimits worker_limits(const ServerLimits& limits) {
  return {limits.threads, limits.max_queued, std::chrono::seconds(limits.write_timeout_s)};
}

}  // namespace

// One request per connection (the workers answer with Connection: close and hang up): a refused
// request's unread body can never be parsed as a next request on the same connection (no
// smuggling), and a connection holds a worker for one request only.
HttpServer::HttpServer(const Router& router, std::string token, ServerLimits limits)
    : m_router(router), m_server(std::make_unique<GatedServer>(gate_limits(limits), worker_limits(limits))) {
  m_policy.token = std::move(token);
  m_policy.max_body = agent_api::k_max_request_body;
  install_agent_handlers(*m_server, m_router, m_policy);
}

void install_agent_handlers(httplib::Server& s, const Router& router, const AdmissionPolicy& policy) {
  s.set_payload_max_length(policy.max_body);
  s.set_pre_routing_handler([&router, &policy](const httplib::Request& req, httplib::Response& res) {
    auto refused = admit(head_of(req), policy, router);
    if (refused) {
      spdlog::info("refused {} {}: {} {}", req.method, req.path.substr(0, 200), refused->status,
                   refused->body["error"]["code"].get<std::string>());
      write_json(res, *refused);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "POST") return httplib::Server::HandlerResponse::Unhandled;  // body read next, bounded
    write_json(res, router.dispatch(api_request_of(req)));
    return httplib::Server::HandlerResponse::Handled;
  });

  // POSTs that passed admission land here with their body (Content-Length <= the cap). Catch-alls
  // by segment count (path-parameter matchers, no std::regex on client-controlled paths).
  auto post = [&router](const httplib::Request& req, httplib::Response& res) {
    auto request = api_request_of(req);
    auto body = parse_json_strict(req.body);
    if (!body) {
      write_json(res, error_response(ApiError::bad_request, body.error().message));
      return;
    }
    request.body = std::move(*body);
    write_json(res, router.dispatch(std::move(request)));
  };
  std::string pattern;
  for (int i = 0; i < 8; ++i) {
    pattern += "/:p" + std::to_string(i);
    s.Post(pattern, post);
  }

  s.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      spdlog::error("{} {} failed: {}", req.method, req.path.substr(0, 200), e.what());
    } catch (...) {
      spdlog::error("{} {} failed with a non-standard exception", req.method, req.path.substr(0, 200));
    }
    write_json(res, error_response(ApiError::internal));
  });
  // Errors the library produces itself (malformed request line, too many headers, URI too long,
  // body over the cap) get the same JSON shape.
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    auto error = res.status == 413   ? ApiError::payload_too_large
                 : res.status == 404 ? ApiError::not_found
                 : res.status >= 500 ? ApiError::internal
                                     : ApiError::bad_request;
    auto body = agent_api::error_body(error);
    res.set_content(agent_api::wire_text(body), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  });
}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::bind(const ListenAddress& address) {
  int port = address.port;
  if (port == 0) {
    port = m_server->bind_to_any_port(address.host);
    if (port <= 0) return make_error(ErrorCode::io, "could not bind a free port on " + address.host);
  } else if (!m_server->bind_to_port(address.host, port)) {
    return make_error(ErrorCode::io, "could not bind " + address.host + ":" + std::to_string(port) + " (in use?)");
  }
  m_policy.port = port;
  return port;
}

void HttpServer::run() { m_server->serve(); }

void HttpServer::stop() { m_server->request_stop(); }

}  // namespace tfwsl::agent
