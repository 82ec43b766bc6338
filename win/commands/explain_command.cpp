#include "win/commands/explain_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <string>

#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/diagnose/explain_engine.hpp"
#include "common/text/utf_convert.hpp"
#include "win/platform/paste_input.hpp"
#include "win/render/json_schema_names.hpp"

namespace tfwsl::cli {
namespace {

// Pastes and logs are small; a 64 MB cap keeps a wrong file (a dataset, a disk image) from eating
// memory. 10 MB of log is the size we measure (docs/performance.md).
constexpr std::size_t k_max_input_bytes = 64u << 20;

struct ExplainOptions {
  std::vector<std::string> words;
  bool json = false;
  bool verbose = false;
};

Result<std::string> read_stream(std::istream& in, const std::string& name) {
  std::string bytes;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > k_max_input_bytes) {
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{} is larger than {} MB: explain reads pastes and logs; pass the part around the "
                                    "error (e.g. the last 10 MB: `tail -c 10M {} > part.log`)",
                                    name, k_max_input_bytes >> 20, name == "standard input" ? "FILE" : name));
    }
  }
  if (in.bad()) return make_error(ErrorCode::io, fmt::format("could not read {}", name));
  return bytes;
}

}  // namespace

std::filesystem::path explain_input_path(const std::string& argument) {
  // Arguments are UTF-8 (on Windows converted from the UTF-16 command line): a valid name goes
  // through UTF-16 so that Windows opens the right file. A POSIX name need not be UTF-8 at all:
  // its bytes are the name, and "fixing" them (U+FFFD) would name another file.
  if (is_valid_utf8(argument)) return std::filesystem::path(utf8_to_utf16(argument));
  return std::filesystem::path(argument);
}

Result<std::string> read_explain_input(const std::string& input) {
  if (input == "-") {
    read_stdin_as_bytes();
    return read_stream(std::cin, "standard input");
  }
  const std::filesystem::path path = explain_input_path(input);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return make_error(ErrorCode::not_found,
                      fmt::format("'{}' does not exist: pass the file that holds the pasted text, or - to read "
                                  "standard input",
                                  input));
  }
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' is a folder: pass a file with the pasted text", input));
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return make_error(ErrorCode::io, fmt::format("cannot open '{}': check that it is readable", input));
  return read_stream(file, fmt::format("'{}'", input));
}

ExplainSource explain_source(const std::vector<std::string>& words) {
  if (words.size() != 1) return ExplainSource::text;
  const std::string& word = words.front();
  if (word == "-") return ExplainSource::standard_input;
  std::error_code ec;
  if (std::filesystem::exists(explain_input_path(word), ec)) return ExplainSource::file;
  // Error codes hold no '\\', start with no '/' and end in no '.ext'; a path or a file name does: a
  // typo, not a text. A link (https://...) is text.
  if (word.find("://") != std::string::npos) return ExplainSource::text;
  const auto slash = word.find_last_of('/');
  const std::string name = slash == std::string::npos ? word : word.substr(slash + 1);
  const auto dot = name.rfind('.');
  const bool file_name_tail = dot != std::string::npos && dot > 0 && dot + 1 < name.size() && name.size() - dot <= 5 &&
                              std::isalpha(static_cast<unsigned char>(name[dot + 1]));
  const bool absolute_or_relative = word.rfind("/", 0) == 0 || word.rfind("./", 0) == 0 || word.rfind("~/", 0) == 0;
  if (word.find('\\') != std::string::npos || file_name_tail || absolute_or_relative) return ExplainSource::file;
  return ExplainSource::text;
}

namespace {

bool looks_like_error_code(const std::string& text) {
  static const std::regex k_code(R"((0x[0-9A-Fa-f]{8})|(Wsl/[A-Za-z0-9_/]+))");
  return std::regex_match(text, k_code);
}

Result<std::string> explain_bytes(const ExplainOptions& options, Console& console) {
  switch (explain_source(options.words)) {
    case ExplainSource::text: {
      std::string text;
      for (const auto& w : options.words) text += (text.empty() ? "" : " ") + w;
      // A bare code ("0x80370102", "Wsl/Service/E_ACCESSDENIED") is what wsl.exe prints after
      // "Error code:", where the knowledge base looks for codes: give it that line.
      if (looks_like_error_code(text)) text = "Error code: " + text;
      return text + "\n";
    }
    case ExplainSource::standard_input:
      // A paste typed (or pasted) on a terminal ends only when the user ends it: say how.
      if (console.in_is_terminal)
        console.err << "Paste the text, then press " << end_of_paste_keys() << " to end it.\n" << std::flush;
      break;
    case ExplainSource::file:
      break;
  }
  return read_explain_input(options.words.front());
}

int run_explain(const ExplainOptions& options, Console& console) {
  auto bytes = explain_bytes(options, console);
  if (!bytes) {
    console.err << "tfwsl explain: " << bytes.error().describe() << "\n";
    return exit_code::k_failure;
  }
  const auto& base = diagnose::builtin_signature_base();
  if (!base) {
    console.err << "tfwsl explain: " << base.error().describe() << "\n";
    return exit_code::k_internal;
  }
  spdlog::debug("explain: {} bytes from {}", bytes->size(), options.words.front());
  diagnose::Explanation explanation = diagnose::explain(*bytes, *base);
  spdlog::debug("explain: kind {}, {} findings", explanation.kind, explanation.findings.size());
  if (options.json) {
    auto j = with_json_envelope(diagnose::to_json(explanation), json_schema::k_explain, json_schema::k_version);
    console.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    console.out << diagnose::render_text(explanation, {console.color, options.verbose});
  }
  console.out.flush();
  return diagnose::exit_code_for(explanation);
}

}  // namespace

void register_explain_command(CLI::App& app, CommandTable& commands, Console& console) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* sub = app.add_subcommand(
      "explain",
      "Explain a pasted output, a log or an error code (wsl.exe, nvidia-smi, TensorFlow, ldconfig, .wslconfig, "
      "requirements)");
  sub->add_option("input", options->words,
                  "The file with the pasted text, - for standard input, or the text itself (an error code, a message)")
      ->required();
  sub->add_flag("--json", options->json, "Print one JSON object {kind, facts, findings}");
  sub->add_flag("-v,--verbose", options->verbose, "Show the facts in full, the text's encoding and the commands seen");
  sub->footer(
      help_footer("Exit status: 0 nothing wrong, 1 warnings only or a text explain does not recognise, 2 "
                  "errors (or unreadable input).",
                  {"tfwsl explain wsl-output.txt          what a saved wsl.exe output says",
                   "tfwsl explain 0x80370102              what an error code means",
                   "nvidia-smi 2>&1 | tfwsl explain -     explain what a command printed",
                   "tfwsl explain --json train.log        the findings as JSON, for a script"}));
  commands.add(sub, [options, &console] {
    const FittedOutput fitted(console, !options->json);  // text at the terminal's width; JSON as it is
    return run_explain(*options, console);
  });
}

}  // namespace tfwsl::cli
