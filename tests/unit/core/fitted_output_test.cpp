// FittedOutput and print_text, the layer every text output goes through: lines fitted to the
// console's width, machine output (--json, completion scripts) byte for byte as it was.
#include "common/cli/fitted_output.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/util/shell_quote.hpp"
#include "common/util/text_wrap.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/system_machine.hpp"

using namespace tfwsl;

namespace {

struct Run {
  int code;
  std::string out;
  std::string err;
};

Run run_at(std::size_t columns, std::vector<std::string> args) {
  std::ostringstream out, err;
  Console console{out, err, false};
  console.columns = columns;
  cli::SystemMachine system;
  cli::Machine machine = system.machine();
  const int code = cli::run_cli(args, console, machine);
  return {code, out.str(), err.str()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t widest(const std::string& text) {
  std::size_t most = 0;
  for (const auto& line : lines_of(text)) most = std::max(most, display_width(line));
  return most;
}

const std::string k_paste =
    "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object "
    "file: No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64";

}  // namespace

TEST_CASE("a long JSON line and a completion script pass through unchanged at 40 columns", "[cli]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"explain", "--json", k_paste}, std::vector<std::string>{"completion", "bash"}}) {
    INFO(args[0]);
    const Run narrow = run_at(40, args);
    const Run wide = run_at(1000, args);
    CHECK(widest(narrow.out) > 40);  // there is a line to wrap: it stays whole
    CHECK(narrow.out == wide.out);
    CHECK(narrow.code == wide.code);
  }
}

// A line's text holds a single word: a command quoted in prose (`pip install x`) counts as one.
bool one_word(const std::string& line) {
  std::string outside;  // the line without its indent and its `quoted` spans
  bool quoted = false;
  for (char c : line.substr(line.find_first_not_of(' ')))
    if (c == '`')
      quoted = !quoted;
    else if (!quoted)
      outside += c;
  return outside.find(' ') == std::string::npos;
}

TEST_CASE("explain's text fits 40 columns: only a line of one word passes", "[cli]") {
  const Run narrow = run_at(40, {"explain", k_paste});
  const Run wide = run_at(1000, {"explain", k_paste});
  REQUIRE(widest(wide.out) > 40);
  for (const auto& line : lines_of(narrow.out)) {
    INFO(line);
    CHECK((display_width(line) <= 40 || one_word(line)));
  }
}

TEST_CASE("a prompt flushed before its line ends goes out as it is", "[cli]") {
  std::ostringstream out, err;
  Console console{out, err, false};
  console.columns = 20;
  {
    const FittedOutput fitted(console, true);
    console.err << "Apply these twelve steps to the distro now? [y/N] " << std::flush;
    CHECK(err.str() == "Apply these twelve steps to the distro now? [y/N] ");
    console.err << "y\n";
    console.out << "one two three four five six seven\n";
  }
  CHECK(err.str() == "Apply these twelve steps to the distro now? [y/N] y\n");
  CHECK(out.str() == "one two three four\n  five six seven\n");
  console.out << "one two three four five six seven\n";  // put back: no longer fitted
  CHECK(lines_of(out.str()).back() == "one two three four five six seven");
}

TEST_CASE("a line written in pieces on a stream that flushes after each (std::cerr) is fitted whole", "[cli]") {
  std::ostringstream out, err;
  err.setf(std::ios::unitbuf);
  Console console{out, err, false};
  console.columns = 20;
  {
    const FittedOutput fitted(console, false);
    console.err << "tfwsl data push: "
                << "no tfwsl-agent at"
                << " /opt/tfwsl/bin/tfwsl-agent\n";
  }
  CHECK(err.str() == "tfwsl data push: no\n  tfwsl-agent at\n  /opt/tfwsl/bin/tfwsl-agent\n");
  CHECK((err.flags() & std::ios::unitbuf) != 0);  // put back
}

TEST_CASE("print_text inside a FittedOutput fits each line once and knows its commands", "[cli]") {
  std::ostringstream out, err;
  Console console{out, err, false};
  console.columns = 30;
  const std::string command = bash_command({"apt-get", "install", "-y", "python3-venv", "python3-pip"});
  {
    const FittedOutput fitted(console, true);
    console.out << "first ";
    print_text(console, "run: " + command + "\n", {{Shell::bash, command}});
  }
  CHECK(out.str() == "first run: apt-get install -y \\\n  python3-venv python3-pip\n");
}
