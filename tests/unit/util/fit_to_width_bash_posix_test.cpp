// A bash command fit_to_width continued over lines with a backslash, run by a real bash, gives the
// program the same arguments as the command on one line (printf prints each on its own line).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/util/shell_quote.hpp"
#include "common/util/text_wrap.hpp"
#include "tests/support/wrap_style.hpp"

using namespace tfwsl;

namespace {

// What `script` prints when a real bash runs it (popen: /bin/sh -c, which runs bash).
std::string bash_output(const std::string& script) {
  const auto file = std::filesystem::temp_directory_path() / "tfwsl_fit_to_width_test.sh";
  std::ofstream(file, std::ios::binary) << script;
  FILE* pipe = popen(("bash " + file.string()).c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  REQUIRE(WEXITSTATUS(pclose(pipe)) == 0);
  std::filesystem::remove(file);
  return out;
}

const std::vector<std::string> k_argv = {
    "printf",
    "%s\\n",
    "apt-get",
    "install",
    "-y",
    "it's here",
    "$(rm -rf /)",
    "~/.venvs/tf/bin/python",
    "a \"quoted\" word",
    "--index-url",
    "https://download.pytorch.org/whl/cu121/with/a/long/path/that/keeps/going/on/and/on",
    "last; arg",
    "back\\slash",
    "*.py",
    "",
    "x"};

}  // namespace

TEST_CASE("a long bash command continues with a backslash between arguments and bash gets the same argv") {
  const std::string command = bash_command(k_argv);
  const std::string text = "      run as root: " + command + "\n";
  const std::string wrapped = fit_to_width(text, test::wrap_style_at(40, {{Shell::bash, command}}));
  const auto lines = test::text_lines(wrapped);
  REQUIRE(lines.size() > 3);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) CHECK(lines[i].substr(lines[i].size() - 2) == " \\");
  for (const auto& line : lines) {
    INFO(line);
    const std::string body = line.substr(line.find_first_not_of(' '));
    const bool one_argument = body.find(' ') == std::string::npos || body.rfind(" \\") == body.find(' ');
    CHECK((display_width(line) <= 40 || one_argument));
  }
  const std::string plain = bash_output(command + "\n");
  CHECK(bash_output(wrapped.substr(wrapped.find("printf"))) == plain);
  CHECK(plain.find("$(rm -rf /)\n") != std::string::npos);
}
