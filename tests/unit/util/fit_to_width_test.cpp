// fit_to_width, the one renderer every text output ends in (common/cli/fitted_output.hpp): a line
// that fits stays, prose wraps at words under its indent, and a printed command continues on the
// next line with its shell's continuation between arguments, never inside one. A real bash runs a
// wrapped command in fit_to_width_bash_posix_test.cpp.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/util/shell_quote.hpp"
#include "common/util/text_wrap.hpp"
#include "tests/support/wrap_style.hpp"

using namespace tfwsl;

TEST_CASE("a line that fits is left exactly as it is, spaces and all") {
  const std::string text = "installed:   /usr/local/lib/tfwsl   (0.9.1)\n\n  - one  two\nno newline at the end";
  CHECK(fit_to_width(text, test::wrap_style_at(80)) == text);
}

TEST_CASE("prose wraps at words under its indent, a list item under its text") {
  const std::string item = "  - " + std::string(30, 'a') + " " + std::string(30, 'b') + " " + std::string(30, 'c');
  const auto lines = test::text_lines(fit_to_width(item + "\n", test::wrap_style_at(40)));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "  - " + std::string(30, 'a'));
  CHECK(lines[1] == "    " + std::string(30, 'b'));
  CHECK(lines[2] == "    " + std::string(30, 'c'));
  const auto numbered =
      test::text_lines(fit_to_width(" 3. step " + std::string(40, 'x') + "\n", test::wrap_style_at(30)));
  REQUIRE(numbered.size() == 2);
  CHECK(numbered[1] == "    " + std::string(40, 'x'));
  const auto plain = test::text_lines(fit_to_width("  word " + std::string(30, 'y') + "\n", test::wrap_style_at(30)));
  CHECK(plain[1] == "    " + std::string(30, 'y'));
}

TEST_CASE("a table's row wraps under its second column, its spacing kept") {
  const auto lines = test::text_lines(
      fit_to_width("  explain     Explain a pasted output, a log or an error code\n", test::wrap_style_at(40)));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "  explain     Explain a pasted output, a");
  CHECK(lines[1] == "              log or an error code");
  // A second column right of two thirds of the width leaves too little room: two columns in instead.
  const auto far = test::text_lines(
      fit_to_width("  kernel                     the Microsoft-built kernel\n", test::wrap_style_at(40)));
  REQUIRE(far.size() == 2);
  CHECK(far[1] == "    Microsoft-built kernel");
}

TEST_CASE("a word longer than the width stands alone on its line and is never cut") {
  const std::string url = "https://example.com/" + std::string(80, 'u');
  const auto lines = test::text_lines(fit_to_width("see " + url + " for more\n", test::wrap_style_at(40)));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "see");
  CHECK(lines[1] == "  " + url);
  CHECK(lines[2] == "  for more");
}

TEST_CASE("printed_arguments cuts a printed command where its shell splits it") {
  for (Shell shell : {Shell::bash, Shell::powershell, Shell::cmd}) {
    INFO(to_string(shell));
    const std::vector<std::string> argv = {"C:\\my tools\\x.exe", "it's", "a \"b\" c", "50%", "", "plain"};
    const std::string command = shell_command(shell, argv);
    std::vector<std::string> expected;
    for (const auto& a : argv)
      expected.push_back(shell == Shell::bash ? bash_quote(a) : shell == Shell::powershell ? powershell_quote(a) : "");
    const auto pieces = printed_arguments(shell, command);
    std::string joined;
    for (const auto& p : pieces) joined += (joined.empty() ? "" : " ") + p;
    CHECK(joined == command);
    if (shell == Shell::cmd) {
      CHECK(pieces.size() == argv.size());
    } else if (shell == Shell::powershell) {
      CHECK(pieces.front() == "& " + expected.front());
      CHECK(std::vector<std::string>(pieces.begin() + 1, pieces.end()) ==
            std::vector<std::string>(expected.begin() + 1, expected.end()));
    } else {
      CHECK(pieces == expected);
    }
  }
}

TEST_CASE("PowerShell continues with a backtick, cmd.exe with a caret, each after a whole argument") {
  const std::vector<std::string> argv = {"wsl",
                                         "-d",
                                         "Ubuntu-22.04",
                                         "--cd",
                                         "/home/me/projects/flowers",
                                         "--exec",
                                         "bash",
                                         "-lc",
                                         "~/.venvs/tf/bin/python -m train"};
  struct Row {
    Shell shell;
    std::string expected;
  };
  const std::vector<Row> table = {
      {Shell::powershell,
       "run: wsl -d Ubuntu-22.04 --cd `\n  /home/me/projects/flowers --exec `\n  bash -lc `\n"
       "  '~/.venvs/tf/bin/python -m train'\n"},
      {Shell::cmd,
       "run: wsl -d Ubuntu-22.04 --cd ^\n  /home/me/projects/flowers --exec ^\n  bash -lc ^\n"
       "  ^\"~/.venvs/tf/bin/python -m train^\"\n"},
  };
  for (const auto& row : table) {
    INFO(to_string(row.shell));
    const std::string command = shell_command(row.shell, argv);
    CHECK(fit_to_width("run: " + command + "\n", test::wrap_style_at(36, {{row.shell, command}})) == row.expected);
  }
}

TEST_CASE("prose around a printed command wraps as prose, and the command's end needs no continuation") {
  const std::string command = bash_command({"tfwsl", "provision", "--profile", "tfwsl.yaml"});
  const std::string text = "then run " + command + " and the doctor again to see what changed\n";
  CHECK(fit_to_width(text, test::wrap_style_at(30, {{Shell::bash, command}})) ==
        "then run tfwsl provision \\\n  --profile tfwsl.yaml and the\n  doctor again to see what\n  changed\n");
  CHECK(fit_to_width(text, test::wrap_style_at(50, {{Shell::bash, command}})) ==
        "then run tfwsl provision --profile tfwsl.yaml and\n  the doctor again to see what changed\n");
}
