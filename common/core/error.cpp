#include "common/core/error.hpp"

namespace tfwsl {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_input:
      return "invalid_input";
    case ErrorCode::not_found:
      return "not_found";
    case ErrorCode::io:
      return "io";
    case ErrorCode::no_space:
      return "no_space";
    case ErrorCode::permission:
      return "permission";
    case ErrorCode::timeout:
      return "timeout";
    case ErrorCode::process:
      return "process";
    case ErrorCode::parse:
      return "parse";
    case ErrorCode::unsupported:
      return "unsupported";
    case ErrorCode::conflict:
      return "conflict";
    case ErrorCode::cancelled:
      return "cancelled";
    case ErrorCode::internal:
      return "internal";
    case ErrorCode::busy:
      return "busy";
  }
  return "internal";
}

std::string Error::describe() const {
  std::string out;
  for (auto it = context.rbegin(); it != context.rend(); ++it) {
    out += *it;
    out += ": ";
  }
  out += message;
  return out;
}

}  // namespace tfwsl
