#include "common/agent_api/api_error.hpp"

#include <array>

namespace tfwsl::agent_api {

namespace {

constexpr std::array k_table{
    ApiErrorInfo{ApiError::bad_request, 400, "bad_request", "the request could not be parsed"},
    ApiErrorInfo{ApiError::unknown_field, 400, "unknown_field", "the request has a field this route does not take"},
    ApiErrorInfo{ApiError::transfer_encoding, 400, "transfer_encoding",
                 "Transfer-Encoding is not accepted: send a Content-Length body"},
    ApiErrorInfo{ApiError::invalid_input, 400, "invalid_input", "a request field has a value that is not valid"},
    ApiErrorInfo{ApiError::unauthorized, 401, "unauthorized",
                 "missing or wrong bearer token: send 'Authorization: Bearer <token>'"},
    ApiErrorInfo{ApiError::forbidden_host, 403, "forbidden_host",
                 "Host must be 127.0.0.1:<port>, localhost:<port> or [::1]:<port>"},
    ApiErrorInfo{ApiError::forbidden_browser, 403, "forbidden_browser",
                 "requests from a browser (Origin or Sec-Fetch-* headers) are refused"},
    ApiErrorInfo{ApiError::not_found, 404, "not_found", "no such route"},
    ApiErrorInfo{ApiError::method_not_allowed, 405, "method_not_allowed", "this route does not take that method"},
    ApiErrorInfo{ApiError::conflict, 409, "conflict", "another job holds this resource"},
    ApiErrorInfo{ApiError::payload_too_large, 413, "payload_too_large",
                 "the request body is larger than the agent accepts"},
    ApiErrorInfo{ApiError::unsupported_media_type, 415, "unsupported_media_type",
                 "the body must be application/json without Content-Encoding"},
    ApiErrorInfo{ApiError::unprocessable, 422, "unprocessable", "the request was understood but cannot be carried out"},
    ApiErrorInfo{ApiError::internal, 500, "internal", "internal error in the agent (a bug: please report it)"},
    ApiErrorInfo{ApiError::timeout, 504, "timeout", "the operation ran past its time limit"},
    ApiErrorInfo{ApiError::too_many_requests, 429, "too_many_requests",
                 "the agent is at its limit of work at once: retry after the Retry-After seconds"},
    ApiErrorInfo{ApiError::request_timeout, 408, "request_timeout",
                 "the request did not arrive in full before its deadline"},
    ApiErrorInfo{ApiError::headers_too_large, 431, "headers_too_large",
                 "the request head is larger than the agent reads"},
    ApiErrorInfo{ApiError::busy, 503, "busy", "the agent is busy: retry in a moment"},
};

}  // namespace

const ApiErrorInfo& info(ApiError error) {
  for (const auto& entry : k_table)
    if (entry.error == error) return entry;
  return k_table[static_cast<std::size_t>(ApiError::internal)];
}

int http_status(ApiError error) { return info(error).status; }
const char* code_name(ApiError error) { return info(error).code; }

std::optional<ApiError> parse_code_name(const std::string& code) {
  for (const auto& entry : k_table)
    if (code == entry.code) return entry.error;
  return std::nullopt;
}

nlohmann::json error_body(ApiError error, const std::string& message) {
  const auto& entry = info(error);
  return {{"error", {{"code", entry.code}, {"message", message.empty() ? std::string(entry.message) : message}}}};
}

}  // namespace tfwsl::agent_api
