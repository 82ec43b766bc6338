// The fish script: one function that prints the candidates for the command line so far, read with
// `commandline`, and `complete -a` calling it for the program and the program with `.exe`.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "win/render/completion_script.hpp"

namespace tfwsl {
namespace {

// fish's single quotes keep everything but \\ and \' as it is.
std::string fish_quoted(const std::string& word) {
  std::string q = "'";
  for (char c : word) {
    if (c == '\\' || c == '\'') q += '\\';
    q += c;
  }
  return q + "'";
}

std::string fish_words(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += " " + fish_quoted(w);
  return text;
}

std::string fish_function_name(const std::string& program) {
  std::string name = "__" + program + "_complete";
  for (char& c : name)
    if (c == '-' || c == '.') c = '_';
  return name;
}

std::string fish_path_switch(const std::vector<CompletionEntry>& entries) {
  std::string s = "    for word in $words\n        switch \"$cmd_path|$word\"\n";
  for (const auto& e : entries) {
    if (e.path.empty()) continue;
    const auto [parent, name] = split_command_path(e.path);
    s += "            case " + fish_quoted(parent + "|" + name) + "\n                set cmd_path " +
         fish_quoted(e.path) + "\n";
  }
  return s + "        end\n    end\n";
}

std::string fish_value_switch(const std::vector<CompletionEntry>& entries, const std::string& program) {
  std::string s = "    switch \"$cmd_path|$prev\"\n";
  for (const auto& e : entries)
    for (const auto& v : e.values)
      for (const auto& spelling : v.spellings) {
        s += "        case " + fish_quoted(e.path + "|" + spelling) + "\n";
        s += v.list.empty() ? "            printf '%s\\n'" + fish_words(v.choices) + "\n"
                            : "            " + program + " completion --list " + v.list + " 2>/dev/null\n";
        s += "            return\n";
      }
  return s + "    end\n";
}

}  // namespace

std::string fish_completion_script(const CLI::App& app, const std::string& program) {
  const auto entries = completion_entries(app);
  const std::string function = fish_function_name(program);
  std::string s = "# fish completion for " + program + ", made by '" + program +
                  " completion fish' from its own command table.\n"
                  "# Use: " +
                  program + " completion fish | source  (or save it as ~/.config/fish/completions/" + program +
                  ".fish)\n";
  s += "function " + function +
       "\n"
       "    set -l words (commandline -opc)\n"
       "    set -e words[1]\n"
       "    set -l prev ''\n"
       "    set -q words[1]; and set prev $words[-1]\n"
       "    set -l cmd_path ''\n";
  s += fish_path_switch(entries);
  s += fish_value_switch(entries, program);
  s += "    switch \"$cmd_path\"\n";
  for (const auto& e : entries)
    s += "        case " + fish_quoted(e.path) + "\n            printf '%s\\n'" + fish_words(e.words) + "\n";
  s += "    end\nend\n";
  s += "complete -c " + program + " -a '(" + function + ")'\n";
  s += "complete -c " + program + ".exe -a '(" + function + ")'\n";
  return s;
}

}  // namespace tfwsl
