#include "linux/agent/router.hpp"

#include <spdlog/spdlog.h>

#include <cctype>

namespace tfwsl::agent {

namespace {

std::vector<std::string> split_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 1;
  if (path.empty() || path[0] != '/') return {"\x01invalid"};
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool match_pattern(const std::string& pattern, const std::string& path, std::map<std::string, std::string>& params) {
  auto want = split_segments(pattern);
  auto have = split_segments(path);
  if (want.size() != have.size()) return false;
  std::map<std::string, std::string> found;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& w = want[i];
    if (w.size() > 2 && w.front() == '{' && w.back() == '}') {
      if (have[i].empty()) return false;
      found[w.substr(1, w.size() - 2)] = have[i];
    } else if (w != have[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

}  // namespace

void split_target(const std::string& target, std::string& path, std::map<std::string, std::string>& query) {
  auto q = target.find('?');
  path = target.substr(0, q);
  query.clear();
  if (q == std::string::npos) return;
  auto decode = [](const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+') {
        out.push_back(' ');
      } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                 std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
        i += 2;
      } else {
        out.push_back(s[i]);
      }
    }
    return out;
  };
  std::string rest = target.substr(q + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    auto amp = rest.find('&', start);
    if (amp == std::string::npos) amp = rest.size();
    auto pair = rest.substr(start, amp - start);
    if (!pair.empty()) {
      auto eq = pair.find('=');
      query[decode(pair.substr(0, eq))] = eq == std::string::npos ? std::string() : decode(pair.substr(eq + 1));
    }
    start = amp + 1;
  }
}

void Router::add(RouteSpec spec) { m_routes.push_back(std::move(spec)); }

RouteMatch Router::match(const std::string& method, const std::string& path, const RouteSpec** route,
                         std::map<std::string, std::string>* params) const {
  bool path_known = false;
  for (const auto& r : m_routes) {
    std::map<std::string, std::string> found;
    if (!match_pattern(r.pattern, path, found)) continue;
    path_known = true;
    if (r.method != method) continue;
    if (route) *route = &r;
    if (params) *params = std::move(found);
    return RouteMatch::found;
  }
  return path_known ? RouteMatch::wrong_method : RouteMatch::no_path;
}

std::vector<std::string> Router::methods_for(const std::string& path) const {
  std::vector<std::string> out;
  for (const auto& r : m_routes) {
    std::map<std::string, std::string> ignored;
    if (match_pattern(r.pattern, path, ignored)) out.push_back(r.method);
  }
  return out;
}

ApiResponse Router::dispatch(ApiRequest request) const {
  using agent_api::ApiError;
  const RouteSpec* route = nullptr;
  switch (match(request.method, request.path, &route, &request.params)) {
    case RouteMatch::no_path:
      return error_response(ApiError::not_found, "no route " + request.path);
    case RouteMatch::wrong_method:
      return error_response(ApiError::method_not_allowed, request.path + " does not take " + request.method);
    case RouteMatch::found:
      break;
  }
  if (request.method == "POST") {
    if (!request.body.is_object()) return error_response(ApiError::bad_request, "the body must be a JSON object");
    for (auto it = request.body.begin(); it != request.body.end(); ++it)
      if (!route->body_fields.count(it.key()))
        return error_response(ApiError::unknown_field, "unknown field '" + it.key() + "' for " + request.path);
  } else if (!request.body.is_null()) {
    return error_response(ApiError::bad_request, request.method + " " + request.path + " takes no body");
  }
  try {
    return route->handler(request);
  } catch (const std::exception& e) {
    spdlog::error("handler for {} {} threw: {}", request.method, request.path, e.what());
  } catch (...) {
    spdlog::error("handler for {} {} threw a non-standard exception", request.method, request.path);
  }
  return error_response(ApiError::internal);
}

}  // namespace tfwsl::agent
