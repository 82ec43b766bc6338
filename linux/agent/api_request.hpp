#pragma once
// A request and a response as the router sees them, whatever transport carried them (HTTP or the
// stdio frames). Handlers are plain functions from one to the other.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/agent_api/api_error.hpp"

namespace tfwsl::agent {

struct ApiRequest {
  std::string method;                         // "GET", "POST", ...
  std::string path;                           // "/v1/jobs/3", no query
  std::map<std::string, std::string> query;   // decoded query parameters
  nlohmann::json body;                        // parsed JSON object for POST, null otherwise
  std::map<std::string, std::string> params;  // path parameters: "/v1/jobs/{id}" -> {"id": "3"}
};

struct ApiResponse {
  int status = 200;
  nlohmann::json body = nlohmann::json::object();
  std::map<std::string, std::string> headers;  // extra HTTP headers (Retry-After); the stdio channel has none
};

inline ApiResponse ok(nlohmann::json body) { return {200, std::move(body)}; }
inline ApiResponse error_response(agent_api::ApiError error, const std::string& message = {}) {
  return {agent_api::http_status(error), agent_api::error_body(error, message)};
}

// "/v1/checks?refresh=1&x=%20" -> path "/v1/checks", query {refresh: "1", x: " "}.
void split_target(const std::string& target, std::string& path, std::map<std::string, std::string>& query);

}  // namespace tfwsl::agent
