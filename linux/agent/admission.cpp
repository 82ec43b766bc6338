#include "linux/agent/admission.hpp"

#include <algorithm>
#include <string_view>

#include "common/agent_api/token.hpp"
#include "common/util/ascii.hpp"
#include "linux/agent/request_head.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

namespace {

std::vector<const std::string*> values_of(const RequestHead& head, const char* name) {
  std::vector<const std::string*> out;
  for (const auto& [key, value] : head.headers)
    if (iequals(key, name)) out.push_back(&value);
  return out;
}

bool is_host_byte(unsigned char c) {
  return ascii_is_alnum(static_cast<char>(c)) || c == '.' || c == ':' || c == '[' || c == ']' || c == '-';
}

// RFC 9110 section 5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" /
// "_" / "`" / "|" / "~" / DIGIT / ALPHA.
bool is_tchar(unsigned char c) {
  return ascii_is_alnum(static_cast<char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

// What a refusal may say about a name it cannot trust: printable ASCII, the rest as '?'; 64 bytes.
std::string printable(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, 64)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace

bool is_header_name(const std::string& name) {
  return !name.empty() &&
         std::all_of(name.begin(), name.end(), [](char c) { return is_tchar(static_cast<unsigned char>(c)); });
}

bool is_allowed_host(const std::string& value, int port) {
  if (value.empty() || value.size() > 64) return false;
  if (!std::all_of(value.begin(), value.end(), [](char c) { return is_host_byte(static_cast<unsigned char>(c)); }))
    return false;
  auto suffix = ":" + std::to_string(port);
  return value == "127.0.0.1" + suffix || value == "localhost" + suffix || value == "[::1]" + suffix;
}

std::optional<ApiResponse> admit(const RequestHead& head, const AdmissionPolicy& policy, const Router& router) {
  // 0. Header names are tokens. cpp-httplib keeps "Host " (a space before the colon) as a name of
  // its own, which no rule below would recognise: RFC 9112 section 5.1 says a server MUST answer 400.
  for (const auto& header : head.headers) {
    const std::string& key = header.first;
    if (!is_header_name(key))
      return error_response(ApiError::bad_request,
                            "the header name '" + printable(key) +
                                "' is not a token (no whitespace before the colon: RFC 9112 section 5.1)");
  }

  // 1. Framing we never accept, before anything else: no body will ever be read for it.
  if (!values_of(head, "Transfer-Encoding").empty()) return error_response(ApiError::transfer_encoding);

  // 2. DNS rebinding: one Host header, exactly our loopback name and port.
  auto hosts = values_of(head, "Host");
  if (hosts.size() != 1)
    return error_response(ApiError::forbidden_host, hosts.empty() ? "the request has no Host header"
                                                                  : "the request has more than one Host header");
  if (!is_allowed_host(*hosts.front(), policy.port)) return error_response(ApiError::forbidden_host);

  // 3. Browser signals: our only client is a native CLI.
  for (const auto& header : head.headers) {
    const std::string& key = header.first;
    if (iequals(key, "Origin") || istarts_with(key, "Sec-Fetch-")) return error_response(ApiError::forbidden_browser);
  }

  std::string path;
  std::map<std::string, std::string> query;
  split_target(head.target, path, query);
  const RouteSpec* route = nullptr;
  auto match = router.match(head.method, path, &route);

  // 4. The token, unless the matched route is the challenge. Only the Authorization header counts.
  bool needs_token = !(match == RouteMatch::found && !route->needs_token);
  if (needs_token) {
    auto auths = values_of(head, "Authorization");
    bool good = auths.size() == 1 &&
                agent_api::constant_time_equal(agent_api::bearer_token(*auths.front()), policy.token) &&
                !policy.token.empty();
    if (!good) return error_response(ApiError::unauthorized);
  }

  // 5. Route and method, after auth so that an unauthenticated caller learns nothing.
  if (match == RouteMatch::no_path) return error_response(ApiError::not_found, "no route " + path);
  if (match == RouteMatch::wrong_method)
    return error_response(ApiError::method_not_allowed, path + " does not take " + head.method);

  // 6. Body framing: one Content-Length, numeric, under the cap; JSON only, never encoded.
  auto lengths = values_of(head, "Content-Length");
  std::size_t length = 0;
  if (lengths.size() > 1) return error_response(ApiError::bad_request, "more than one Content-Length header");
  if (lengths.size() == 1) {
    auto parsed = parse_content_length(*lengths.front());
    if (!parsed) return error_response(ApiError::bad_request, "Content-Length is not a decimal number");
    length = *parsed;
  }
  if (length > policy.max_body)
    return error_response(ApiError::payload_too_large, "the body of " + std::to_string(length) +
                                                           " bytes is over the limit of " +
                                                           std::to_string(policy.max_body) + " bytes");
  if (!values_of(head, "Content-Encoding").empty())
    return error_response(ApiError::unsupported_media_type, "Content-Encoding is not accepted");
  if (head.method == "POST") {
    auto types = values_of(head, "Content-Type");
    bool json = types.size() == 1 &&
                (iequals(*types.front(), "application/json") || istarts_with(*types.front(), "application/json;"));
    if (!json)
      return error_response(ApiError::unsupported_media_type, "POST bodies must be Content-Type: application/json");
    if (lengths.empty()) return error_response(ApiError::bad_request, "a POST needs a Content-Length");
  } else if (length > 0) {
    return error_response(ApiError::bad_request, head.method + " takes no body");
  }
  return std::nullopt;
}

}  // namespace tfwsl::agent
