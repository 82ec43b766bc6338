#pragma once
// Errors as values. Failure that is expected (a missing file, a probe that finds no GPU, a garbled
// wsl.exe output) travels as Result<T>; exceptions are kept for the truly exceptional: caught where a
// library that throws is called, at the top of each thread and request, and once per command line
// (docs/architecture.md, "Errors and logs").

#include <string>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace tfwsl {

// What kind of failure: lets callers branch (and the CLI pick an exit code) without string matching.
enum class ErrorCode {
  invalid_input,  // the user's input is wrong: names the input and the fix
  not_found,      // a file, program or distro that should exist does not
  io,             // read/write failed
  no_space,       // ENOSPC or a preflight that found too little room
  permission,     // EACCES, a token file with loose permissions
  timeout,        // a child or a request ran past its limit
  process,        // a child could not be started or failed
  parse,          // text we read could not be understood
  unsupported,    // this platform or version cannot do it
  conflict,       // another job holds the resource
  cancelled,      // the user or a client asked to stop
  internal,       // a bug: should not happen
  busy,           // a limit on work at once is reached: retry later (the message says when)
};

const char* to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;               // for the user: what went wrong, naming the input, and the fix
  std::string detail;                // for the log: errno text, raw output, the command line
  std::vector<std::string> context;  // what was being done, outermost last ("reading profile X")

  // "reading profile p.yaml: line 3: unknown key 'cdua' (did you mean 'cuda'?)"
  std::string describe() const;
};

template <class T>
using Result = tl::expected<T, Error>;
using Status = Result<void>;

inline tl::unexpected<Error> make_error(ErrorCode code, std::string message, std::string detail = {}) {
  return tl::unexpected<Error>(Error{code, std::move(message), std::move(detail), {}});
}

// Adds "what was being done" to an error on its way up; values pass through untouched.
template <class T>
Result<T> with_context(Result<T> result, std::string what) {
  if (!result) result.error().context.push_back(std::move(what));
  return result;
}

}  // namespace tfwsl

// Early return of the error from an expression yielding a Result; binds the value otherwise.
#define TFWSL_TRY(var, expr)                                                   \
  auto var##_result_ = (expr);                                                 \
  if (!var##_result_) return tl::unexpected(std::move(var##_result_).error()); \
  auto var = std::move(*var##_result_)

#define TFWSL_TRY_STATUS(expr)                                                   \
  do {                                                                           \
    auto tfwsl_status_ = (expr);                                                 \
    if (!tfwsl_status_) return tl::unexpected(std::move(tfwsl_status_).error()); \
  } while (0)
