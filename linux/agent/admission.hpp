#pragma once
// Request admission (docs/agent-api.md "Request admission"): the checks every
// HTTP request passes before a handler runs or a body byte is read. A pure function of the request
// head, so it is side-effect free by construction, unit-testable, and fuzzable.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linux/agent/router.hpp"

namespace tfwsl::agent {

struct RequestHead {
  std::string method;
  std::string target;  // request target as received: "/v1/checks?refresh=1"
  // Header names and FULL values as the HTTP library stored them (cpp-httplib percent-decodes
  // values, so a "%00" arrives as a NUL byte inside the value: never use a C-string accessor).
  std::vector<std::pair<std::string, std::string>> headers;
};

struct AdmissionPolicy {
  int port = 0;       // the port we are bound to: Host must name it
  std::string token;  // the bearer token (never logged)
  std::size_t max_body = 0;
};

// Nothing when admitted; the error response otherwise.
std::optional<ApiResponse> admit(const RequestHead& head, const AdmissionPolicy& policy, const Router& router);

// RFC 9110 section 5.1: a field name is a token (1*tchar): no whitespace, separators, controls or
// bytes above 0x7f.
bool is_header_name(const std::string& name);

// The Host rule alone: exactly 127.0.0.1:<port>, localhost:<port> or [::1]:<port>, every byte in
// [A-Za-z0-9.:[]-].
bool is_allowed_host(const std::string& value, int port);

}  // namespace tfwsl::agent
