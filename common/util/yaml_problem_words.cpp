#include "common/util/yaml_problem_words.hpp"

#include <array>

namespace tfwsl {
namespace {

struct ProblemRow {
  std::string_view yaml_cpp;  // the start of yaml-cpp's message (some end with the character found)
  std::string_view what;
  std::string_view fix;
};

// Each row is one ErrorMsg constant of yaml-cpp/exceptions.h, with the mistake that causes it when a
// person writes a configuration file by hand.
constexpr std::array k_rows = {
    ProblemRow{"end of map flow not found", "a '{' is never closed with '}'",
               "close it with '}', with commas between its items"},
    ProblemRow{"end of sequence flow not found", "a '[' is never closed with ']'",
               "close it with ']', with commas between its items"},
    ProblemRow{"end of map not found", "a map ends where YAML expected more of it",
               "start every key of one map in the same column"},
    ProblemRow{"end of sequence not found", "a list ends where YAML expected more of it",
               "start every '- ' item of one list in the same column"},
    ProblemRow{"illegal map value", "a ':' where no value can start (a value holding ': ', or a key out of line)",
               "quote a value that holds ': ', and start the key in the same column as the others of its map"},
    ProblemRow{"illegal map key", "a key where none can start (a line out of line with its map)",
               "start the key in the same column as the others of its map"},
    ProblemRow{"illegal block entry", "a '- ' item where no list can start",
               "put the list under its key, each item on its own line starting with '- '"},
    ProblemRow{"illegal tab when looking for indentation", "a tab in the indentation (YAML indents with spaces only)",
               "replace the tab with spaces"},
    ProblemRow{"illegal EOF in scalar", "a quoted value is never closed", "close the quote on the same value"},
    ProblemRow{"illegal document indicator in scalar", "a line '---' or '...' inside a quoted value",
               "close the quote before it"},
    ProblemRow{"illegal character in scalar", "a character an unquoted value cannot hold there",
               "put the value in quotes"},
    ProblemRow{"illegal flow end", "a ']' or '}' that closes nothing", "remove it, or open what it closes"},
    ProblemRow{"bad character found while scanning hex number",
               "a '\\x', '\\u' or '\\U' in a double-quoted value without hex digits after it (a Windows path "
               "such as \"C:\\Users\")",
               "write the value in single quotes ('C:\\Users'), or double each backslash"},
    ProblemRow{"unknown escape character", "a backslash escape that double quotes do not know (a Windows path?)",
               "write the value in single quotes, or double each backslash"},
    ProblemRow{"invalid unicode", "an escape that names no Unicode character", "write the character itself"},
    ProblemRow{"alias not found after *", "a '*' with no alias name after it", "quote a value that starts with '*'"},
    ProblemRow{"anchor not found after &", "a '&' with no anchor name after it", "quote a value that starts with '&'"},
    ProblemRow{"the referenced anchor is not defined", "an alias '*name' with no anchor '&name' before it",
               "define the anchor first, or quote a value that starts with '*'"},
    ProblemRow{"unknown token", "something YAML cannot read there (often a stray quote or bracket)",
               "quote the value, or remove the stray character"},
};

constexpr std::string_view k_general_fix = "fix the indentation or quoting there (values with ':' or '#' need quotes)";

}  // namespace

YamlProblemWords yaml_problem_words(std::string_view yaml_cpp_message) {
  for (const ProblemRow& row : k_rows) {
    if (yaml_cpp_message.starts_with(row.yaml_cpp)) return {std::string(row.what), std::string(row.fix)};
  }
  return {std::string(yaml_cpp_message), std::string(k_general_fix)};
}

}  // namespace tfwsl
