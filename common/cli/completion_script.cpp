#include "common/cli/completion_script.hpp"

#include <functional>

namespace tfwsl {
namespace {

// The options `app` takes: its own, and those of the commands above it that it lets fall through.
std::vector<std::string> option_words(const CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options()) {
      if (opt->get_positional()) continue;
      for (const auto& l : opt->get_lnames()) words.push_back("--" + l);
      for (const auto& s : opt->get_snames()) words.push_back("-" + s);
    }
    if (!a->get_fallthrough()) break;
  }
  return words;
}

void collect(const CLI::App& app, const std::string& path, std::vector<CompletionEntry>& out) {
  CompletionEntry entry{path, {}};
  const auto subs = const_cast<CLI::App&>(app).get_subcommands([](const CLI::App*) { return true; });
  for (const CLI::App* sub : subs) entry.words.push_back(sub->get_name());
  for (auto& w : option_words(app)) entry.words.push_back(std::move(w));
  out.push_back(std::move(entry));
  for (const CLI::App* sub : subs) collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

std::string joined(const std::vector<std::string>& words, const std::string& separator,
                   const std::function<std::string(const std::string&)>& quote) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : separator) + quote(w);
  return text;
}

std::string bash_function_name(const std::string& program) {
  std::string name = "_" + program + "_complete";
  for (char& c : name)
    if (c == '-' || c == '.') c = '_';
  return name;
}

}  // namespace

std::vector<CompletionEntry> completion_entries(const CLI::App& app) {
  std::vector<CompletionEntry> out;
  collect(app, "", out);
  return out;
}

std::string bash_completion_script(const CLI::App& app, const std::string& program) {
  const auto entries = completion_entries(app);
  auto plain = [](const std::string& w) { return w; };
  const std::string function = bash_function_name(program);
  std::string s = "# bash completion for " + program + ", made by '" + program + " completion bash' from its own\n"
                  "# command table. Use: source <(" + program + " completion bash)\n";
  s += function + "() {\n"
       "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" path=\"\" word i\n"
       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
       "    word=\"${COMP_WORDS[i]}\"\n"
       "    case \"$path|$word\" in\n";
  for (const auto& e : entries) {
    if (e.path.empty()) continue;
    const auto space = e.path.rfind(' ');
    const std::string parent = space == std::string::npos ? "" : e.path.substr(0, space);
    const std::string name = space == std::string::npos ? e.path : e.path.substr(space + 1);
    s += "      \"" + parent + "|" + name + "\") path=\"" + e.path + "\" ;;\n";
  }
  s += "    esac\n"
       "  done\n"
       "  local words\n"
       "  case \"$path\" in\n";
  for (const auto& e : entries) s += "    \"" + e.path + "\") words=\"" + joined(e.words, " ", plain) + "\" ;;\n";
  s += "  esac\n"
       "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "}\n"
       "complete -o default -F " + function + " " + program + "\n";
  return s;
}

std::string powershell_completion_script(const CLI::App& app, const std::string& program) {
  const auto entries = completion_entries(app);
  auto single_quoted = [](const std::string& w) {
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
  };
  std::string s = "# PowerShell completion for " + program + ", made by '" + program +
                  " completion powershell' from its own command table.\n"
                  "# Use: " + program + " completion powershell | Out-String | Invoke-Expression (or add that line to $PROFILE)\n";
  s += "$tfwslCompletionWords = @{\n";
  for (const auto& e : entries) s += "  " + single_quoted(e.path) + " = @(" + joined(e.words, ", ", single_quoted) + ")\n";
  s += "}\n"
       "Register-ArgumentCompleter -Native -CommandName " + single_quoted(program) + ", " + single_quoted(program + ".exe") +
       " -ScriptBlock {\n"
       "  param($wordToComplete, $commandAst, $cursorPosition)\n"
       "  $path = ''\n"
       "  foreach ($element in $commandAst.CommandElements | Select-Object -Skip 1) {\n"
       "    $word = $element.ToString()\n"
       "    if ($word -eq $wordToComplete) { break }\n"
       "    $next = if ($path) { \"$path $word\" } else { $word }\n"
       "    if ($tfwslCompletionWords.ContainsKey($next)) { $path = $next }\n"
       "  }\n"
       "  $tfwslCompletionWords[$path] | Where-Object { $_ -like \"$wordToComplete*\" } | ForEach-Object {\n"
       "    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)\n"
       "  }\n"
       "}\n";
  return s;
}

}  // namespace tfwsl
