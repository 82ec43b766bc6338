// The quoting of printed commands (issue 22, item 6): a folder named `R&D $(touch PWNED)` must reach
// the program as one argument, in bash, PowerShell and cmd.exe. For bash the printed line is run by
// a real bash -c (and sh -c) and the argv that arrives is compared byte for byte; for cmd.exe the
// argument layer is split again by the system's CommandLineToArgvW (under Wine).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#ifdef _WIN32
// shellapi.h needs windows.h before it.
// clang-format off
#include <windows.h>
#include <shellapi.h>
// clang-format on

#include "common/text/utf_convert.hpp"
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"

using namespace tfwsl;

namespace {

// Every character a shell acts on, and text no shell should touch.
const std::vector<std::string> k_torture = {
    "R&D $(touch PWNED)",
    "a;b",
    "a|b",
    "`id`",
    "$HOME",
    "${HOME}",
    "it's",
    "say \"hi\"",
    "two  spaces",
    "tab\there",
    "%PATH%",
    "%",
    "!x!",
    "^caret",
    "(paren)",
    "<in",
    ">out",
    "a\\b\\",
    "\\\"",
    "trailing\\",
    "*",
    "?",
    "[a]",
    "{a,b}",
    "~",
    "~/x",
    "#comment",
    "-",
    "--",
    "--%",
    "a=b",
    "",
    "caf\xC3\xA9 \xE2\x82\xAC \xE4\xB8\xAD\xE6\x96\x87",
    "\xE2\x80\x98smart\xE2\x80\x99 \xE2\x80\x9Bquotes\xE2\x80\x9A",
    "new\nline",
    "@splat",
    "plain-word_1.2/x:y+z",
};

}  // namespace

TEST_CASE("bash: plain words stay bare, anything else is single-quoted", "[shell_quote]") {
  CHECK(bash_quote("wsl") == "wsl");
  CHECK(bash_quote("--cd") == "--cd");
  CHECK(bash_quote("/home/me/projects/app") == "/home/me/projects/app");
  CHECK(bash_quote("R&D $(touch PWNED)") == "'R&D $(touch PWNED)'");
  CHECK(bash_quote("it's") == "'it'\\''s'");
  CHECK(bash_quote("") == "''");
  CHECK(bash_quote("~/x") == "'~/x'");
  CHECK(bash_command({"A=1", "x"}) == "'A=1' x");
  CHECK(bash_quote_keeping_home("~/.venvs/my env") == "~/'.venvs/my env'");
  CHECK(bash_quote_keeping_home("~") == "~");
  CHECK(bash_quote_keeping_home("~other/x") == "'~other/x'");
  CHECK(bash_command({"ls", "~/a b", "/x", "~", "~other/x"}) == "ls ~/'a b' /x ~ '~other/x'");
}

TEST_CASE("PowerShell: single quotes, every single-quote character doubled, & for a quoted program", "[shell_quote]") {
  CHECK(powershell_quote("-d") == "-d");
  CHECK(powershell_quote("Ubuntu-22.04") == "Ubuntu-22.04");
  CHECK(powershell_quote("R&D $(touch PWNED)") == "'R&D $(touch PWNED)'");
  CHECK(powershell_quote("it's") == "'it''s'");
  CHECK(powershell_quote("\xE2\x80\x98x\xE2\x80\x99") == "'\xE2\x80\x98\xE2\x80\x98x\xE2\x80\x99\xE2\x80\x99'");
  CHECK(powershell_quote("`n $x @a") == "'`n $x @a'");
  CHECK(powershell_quote("--") == "'--'");
  CHECK(powershell_quote("--%") == "'--%'");
  CHECK(powershell_command({"wsl", "--cd", "/p/R&D"}) == "wsl --cd '/p/R&D'");
  CHECK(powershell_command({"C:\\my tools\\x.exe", "a"}) == "& 'C:\\my tools\\x.exe' a");
  CHECK_FALSE(powershell5_passes_exactly(""));
  CHECK_FALSE(powershell5_passes_exactly("say \"hi\""));
  CHECK(powershell5_passes_exactly("R&D $(touch PWNED)"));
}

TEST_CASE("cmd.exe: C runtime quoting, then ^ before each character cmd acts on", "[shell_quote]") {
  CHECK(windows_argument_quote("plain") == "plain");
  CHECK(windows_argument_quote("") == "\"\"");
  CHECK(windows_argument_quote("a b") == "\"a b\"");
  CHECK(windows_argument_quote("say \"hi\"") == "\"say \\\"hi\\\"\"");
  CHECK(windows_argument_quote("a\\b\\") == "a\\b\\");
  CHECK(windows_argument_quote("a b\\") == "\"a b\\\\\"");
  CHECK(windows_argument_quote("\\\"") == "\"\\\\\\\"\"");
  CHECK(cmd_command({"wsl", "--cd", "/p/R&D $(touch PWNED)"}) == "wsl --cd ^\"/p/R^&D $^(touch PWNED^)^\"");
  CHECK(cmd_command({"echo", "%PATH%", "!x!", "a|b", "<c>", "^"}) == "echo ^%PATH^% ^!x^! a^|b ^<c^> ^^");
}

// Issue 38, item 4: printed raw, an argument's escape sequence reaches the terminal; written out, the
// line no longer runs as printed. No command is printed then, and the sentence names the argument.
TEST_CASE("a command whose argument holds a control character is not printed, in any shell", "[shell_quote]") {
  const std::string expected =
      "(command not shown: its argument 'C:\\data\\x\\x1b]52;c;SGVsbG8=\\x07' holds a control character";
  const std::string osc52 = "C:\\data\\x\x1b]52;c;SGVsbG8=\x07";  // a clipboard write
  for (Shell shell : {Shell::bash, Shell::powershell, Shell::cmd}) {
    const std::string line = shell_command(shell, {"tfwsl", "data", "push", osc52});
    INFO(line);
    CHECK(line.rfind(expected, 0) == 0);
    CHECK(line.find('\x1b') == std::string::npos);
  }
  CHECK(bash_command({"ls", "~/new\nline"}).find("'~/new\\nline'") != std::string::npos);
  CHECK(bash_command({"echo", "tab\there"}).rfind("(command not shown", 0) == 0);
  CHECK(powershell_command({"echo", "c1\xC2\x9b"}).find("'c1\\u009b'") != std::string::npos);
}

#ifndef _WIN32
namespace {

// Runs `shell -c LINE` and returns the NUL-separated words printf '%s\0' printed.
std::vector<std::string> argv_through(const std::string& shell, const std::string& line) {
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::execlp(shell.c_str(), shell.c_str(), "-c", line.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out[1]);
  std::string bytes;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) bytes.append(buffer, static_cast<std::size_t>(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::vector<std::string> words;
  for (std::size_t start = 0; start < bytes.size();) {
    const std::size_t end = bytes.find('\0', start);
    words.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

}  // namespace

TEST_CASE("bash -c and sh -c hand the program exactly the argv that was quoted", "[shell_quote]") {
  std::vector<std::string> argv{"printf", "%s\\0"};
  std::vector<std::string> expected;
  for (const std::string& word : k_torture) {
    if (word.empty()) continue;              // printf '%s\0' '' prints a lone NUL: compared on its own below
    if (needs_visible_text(word)) continue;  // not printed at all (the test above)
    argv.push_back(word);
    // A leading ~/ (or a lone ~) is the home folder of whoever pastes the line (issue 43, item 4).
    const bool home = word == "~" || word.rfind("~/", 0) == 0;
    expected.push_back(home ? std::string(::getenv("HOME")) + word.substr(1) : word);
  }
  const std::string line = bash_command(argv);
  INFO(line);
  CHECK(argv_through("bash", line) == expected);
  CHECK(argv_through("sh", line) == expected);
  CHECK(argv_through("bash", bash_command({"printf", "[%s]\\0", ""})) == std::vector<std::string>{"[]"});
  // Nothing ran: the $(touch PWNED) stayed text.
  CHECK(::access("PWNED", F_OK) != 0);
}
namespace {

// Runs `bash -c LINE` in `folder` with HOME=`home`, as a person pasting LINE into a fresh shell there.
int run_pasted(const std::string& line, const std::string& folder, const std::string& home) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0 || ::setenv("HOME", home.c_str(), 1) != 0) ::_exit(126);
    ::execlp("bash", "bash", "-c", line.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

// Issue 43, item 4: `python3.10 -m venv '~/.venvs/tf-2.15'` made a folder named "~" where it was
// pasted. Each printed bash command is run by a real bash in a scratch HOME and its effect checked.
TEST_CASE("a printed bash command's ~/ path lands in the home folder of whoever pastes it", "[shell_quote]") {
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / ("tfwsl-tilde-" + std::to_string(::getpid()));
  std::filesystem::remove_all(scratch);
  const std::filesystem::path home = scratch / "home", here = scratch / "here";
  std::filesystem::create_directories(home);
  std::filesystem::create_directories(here);
  const std::vector<std::vector<std::string>> printed = {
      {"mkdir", "-p", "~/.venvs/tf-2.15"},                // the provision plan's venv, as the profile names it
      {"mkdir", "-p", "~/.venvs/my env $(touch PWNED)"},  // a name with blanks and shell characters
      {"touch", "~/.config-token"},                       // the agent's token file, for $(cat ...)
  };
  for (const auto& argv : printed) {
    const std::string line = bash_command(argv);
    INFO(line);
    CHECK(run_pasted(line, here.string(), home.string()) == 0);
  }
  CHECK(std::filesystem::is_directory(home / ".venvs" / "tf-2.15"));
  CHECK(std::filesystem::is_directory(home / ".venvs" / "my env $(touch PWNED)"));
  CHECK(std::filesystem::is_regular_file(home / ".config-token"));
  CHECK_FALSE(std::filesystem::exists(here / "~"));  // no literal "~" folder where it was pasted
  CHECK_FALSE(std::filesystem::exists(here / "PWNED"));
  std::filesystem::remove_all(scratch);
}

// PowerShell and cmd.exe never expand a "~" for a program: the printed line hands it the text "~/x",
// which tfwsl (distro_commands) and the distro's bash expand. The table pins that each line passes
// the path through unchanged, as one argument.
TEST_CASE("PowerShell and cmd.exe hand a ~/ path to the program as text, by table", "[shell_quote]") {
  struct Row {
    std::vector<std::string> argv;
    std::string powershell, cmd;
  };
  const std::vector<Row> rows = {
      {{"tfwsl", "data", "push", "C:\\data", "--to", "~/datasets"},
       "tfwsl data push C:\\data --to '~/datasets'",
       "tfwsl data push C:\\data --to ~/datasets"},
      {{"tfwsl", "migrate", ".", "--to", "~/my projects"},
       "tfwsl migrate . --to '~/my projects'",
       "tfwsl migrate . --to ^\"~/my projects^\""},
  };
  for (const Row& row : rows) {
    CHECK(powershell_command(row.argv) == row.powershell);
    CHECK(cmd_command(row.argv) == row.cmd);
  }
}
#else
TEST_CASE("CommandLineToArgvW splits the cmd.exe argument layer back into the argv", "[shell_quote]") {
  std::string line = "prog";
  for (const std::string& word : k_torture) line += " " + windows_argument_quote(word);
  int count = 0;
  LPWSTR* split = CommandLineToArgvW(utf8_to_wide(line).c_str(), &count);
  REQUIRE(split != nullptr);
  REQUIRE(count == static_cast<int>(k_torture.size()) + 1);
  for (int i = 1; i < count; ++i) CHECK(wide_to_utf8(split[i]) == k_torture[static_cast<std::size_t>(i - 1)]);
  LocalFree(split);
}
#endif
