#pragma once
// The one table of agent API errors. Every refusal and failure the agent answers, over HTTP or the
// stdio channel, is one of these: an HTTP status, a stable machine code, and a default message.
// The body is always {"error":{"code":"...","message":"..."}}.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tfwsl::agent_api {

enum class ApiError {
  bad_request,             // 400 malformed request line, headers or JSON
  unknown_field,           // 400 a JSON field the route does not take
  transfer_encoding,       // 400 any Transfer-Encoding on a request (never read chunked bodies)
  invalid_input,           // 400 a well-formed request whose values are wrong (names the field)
  unauthorized,            // 401 missing or wrong bearer token
  forbidden_host,          // 403 Host is not 127.0.0.1:<port>, localhost:<port> or [::1]:<port>
  forbidden_browser,       // 403 Origin or Sec-Fetch-* present: a browser is talking to us
  not_found,               // 404 no such route or resource
  method_not_allowed,      // 405 the route exists but does not take this method
  conflict,                // 409 a job already holds the resource
  payload_too_large,       // 413 Content-Length above the cap
  unsupported_media_type,  // 415 a body that is not application/json, or Content-Encoding
  unprocessable,           // 422 understood but cannot be done (e.g. an unmapped network drive)
  internal,                // 500 a bug; the message says so
  timeout,                 // 504 a probe or child ran past its limit
  too_many_requests,       // 429 a limit on work at once is reached (RFC 6585 4); Retry-After says when to retry
  request_timeout,         // 408 the request head or body did not arrive in full before its deadline
  headers_too_large,       // 431 the request head is larger than the agent reads
  busy,                    // 503 every worker is busy and the queue is full, or the agent is stopping
};

struct ApiErrorInfo {
  ApiError error;
  int status;
  const char* code;     // wire name, e.g. "forbidden_host"
  const char* message;  // default message when the caller gives none
};

const ApiErrorInfo& info(ApiError error);
int http_status(ApiError error);
const char* code_name(ApiError error);
std::optional<ApiError> parse_code_name(const std::string& code);

// {"error":{"code":...,"message":...}}; an empty message takes the table's default.
nlohmann::json error_body(ApiError error, const std::string& message = {});

}  // namespace tfwsl::agent_api
