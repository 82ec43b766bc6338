#pragma once
// The transport-independent router. Routes are registered by any file that has the Router (core
// routes in core_routes.cpp, dataset routes in dataset_routes.cpp); HTTP (http_server.cpp) and the
// stdio channel (stdio_channel.cpp) are adapters that turn their bytes into an ApiRequest.
//
// A route names its methods, and for each POST the exact set of JSON fields it takes: the router
// answers 404, 405 and 400 unknown_field itself, so handlers see only well-formed requests.

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "linux/agent/api_request.hpp"

namespace tfwsl::agent {

using Handler = std::function<ApiResponse(const ApiRequest&)>;

struct RouteSpec {
  std::string method;                 // "GET" or "POST"
  std::string pattern;                // "/v1/info", "/v1/jobs/{id}/cancel"
  std::set<std::string> body_fields;  // POST: the fields the body may have (others: 400)
  Handler handler;
  bool needs_token = true;  // only /v1/challenge says false
};

// What matching a method and path found, before the body is read.
enum class RouteMatch { found, no_path, wrong_method };

class Router {
 public:
  void add(RouteSpec spec);

  // Finds the route for method + path (no query). Fills params on a match.
  RouteMatch match(const std::string& method, const std::string& path, const RouteSpec** route = nullptr,
                   std::map<std::string, std::string>* params = nullptr) const;

  // Matches, checks the body against the route's fields, runs the handler, and turns any
  // exception into a 500 (the message is logged, not sent).
  ApiResponse dispatch(ApiRequest request) const;

  std::vector<std::string> methods_for(const std::string& path) const;

 private:
  std::vector<RouteSpec> m_routes;
};

}  // namespace tfwsl::agent
