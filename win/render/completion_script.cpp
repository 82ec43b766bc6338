// The bash script (and zsh's, which runs the same function through bashcompinit).
#include "win/render/completion_script.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace tfwsl {
namespace {

std::string words_joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

std::string bash_function_name(const std::string& program) {
  std::string name = "_" + program + "_complete";
  for (char& c : name)
    if (c == '-' || c == '.') c = '_';
  return name;
}

// The commands typed so far, word by word: `cmd_path` ends as the deepest command they name.
std::string bash_path_loop(const std::vector<CompletionEntry>& entries) {
  std::string s =
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    word=\"${COMP_WORDS[i]}\"\n"
      "    case \"$cmd_path|$word\" in\n";
  for (const auto& e : entries) {
    if (e.path.empty()) continue;
    const auto [parent, name] = split_command_path(e.path);
    s += "      \"" + parent + "|" + name + "\") cmd_path=\"" + e.path + "\" ;;\n";
  }
  return s + "    esac\n  done\n";
}

// The value after an option: its closed set, or the list the program prints (read line by line
// and compared as text: a name is never expanded by the shell, as compgen -W would).
std::string bash_value_case(const std::vector<CompletionEntry>& entries, const std::string& program) {
  std::string s = "  case \"$cmd_path|$prev\" in\n";
  for (const auto& e : entries)
    for (const auto& v : e.values)
      for (const auto& spelling : v.spellings) {
        s += "    \"" + e.path + "|" + spelling + "\") ";
        s += v.list.empty() ? "COMPREPLY=($(compgen -W \"" + words_joined(v.choices) + "\" -- \"$cur\"));"
                            : "COMPREPLY=()\n      while IFS= read -r word; do [[ \"$word\" == \"$cur\"* ]] && "
                              "COMPREPLY+=(\"$word\"); done < <(" +
                                  program + " completion --list " + v.list + " 2>/dev/null)\n     ";
        s += " return ;;\n";
      }
  return s + "  esac\n";
}

}  // namespace

std::string bash_completion_script(const CLI::App& app, const std::string& program) {
  const auto entries = completion_entries(app);
  const std::string function = bash_function_name(program);
  std::string s = "# bash completion for " + program + ", made by '" + program +
                  " completion bash' from its own\n"
                  "# command table. Use: source <(" +
                  program + " completion bash)\n";
  s += function +
       "() {\n"
       "  # zsh (bashcompinit) runs this function too: index its arrays from 0, as bash does.\n"
       "  # (Its variables are not named path: zsh ties that one to PATH.)\n"
       "  [ -n \"${ZSH_VERSION-}\" ] && setopt local_options ksh_arrays\n"
       "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cmd_path=\"\" word i\n"
       "  ((COMP_CWORD > 0)) && prev=\"${COMP_WORDS[COMP_CWORD - 1]}\"\n";
  s += bash_path_loop(entries);
  s += bash_value_case(entries, program);
  s += "  local words\n"
       "  case \"$cmd_path\" in\n";
  for (const auto& e : entries) s += "    \"" + e.path + "\") words=\"" + words_joined(e.words) + "\" ;;\n";
  s += "  esac\n"
       "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "}\n"
       "complete -o default -F " +
       function + " " + program + "\n";
  return s;
}

std::string zsh_completion_script(const CLI::App& app, const std::string& program) {
  return "# zsh completion for " + program + ", made by '" + program +
         " completion zsh': the bash function, through zsh's\n"
         "# bashcompinit. Use: source <(" +
         program +
         " completion zsh)  (in ~/.zshrc, after compinit)\n"
         "autoload -U +X compinit && { (( ${+_comps} )) || compinit; }\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         bash_completion_script(app, program);
}

}  // namespace tfwsl
