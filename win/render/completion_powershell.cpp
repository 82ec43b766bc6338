// The PowerShell script: a table of the words after each command and of the values after each
// option, and an argument completer that finds the command typed so far and the word before the
// cursor.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "win/render/completion_script.hpp"

namespace tfwsl {
namespace {

std::string single_quoted(const std::string& w) {
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : ", ") + single_quoted(w);
  return text;
}

// '|--color' = @('auto', ...), or 'provision|--profile' = 'profiles' for a list the program prints.
std::string value_table(const std::vector<CompletionEntry>& entries) {
  std::string s = "$tfwslCompletionValues = @{\n";
  for (const auto& e : entries)
    for (const auto& v : e.values)
      for (const auto& spelling : v.spellings)
        s += "  " + single_quoted(e.path + "|" + spelling) + " = " +
             (v.list.empty() ? "@(" + quoted_list(v.choices) + ")" : single_quoted(v.list)) + "\n";
  return s + "}\n";
}

}  // namespace

std::string powershell_completion_script(const CLI::App& app, const std::string& program) {
  const auto entries = completion_entries(app);
  std::string s = "# PowerShell completion for " + program + ", made by '" + program +
                  " completion powershell' from its own command table.\n"
                  "# Use: " +
                  program + " completion powershell | Out-String | Invoke-Expression (or add that line to $PROFILE)\n";
  s += "$tfwslCompletionWords = @{\n";
  for (const auto& e : entries) s += "  " + single_quoted(e.path) + " = @(" + quoted_list(e.words) + ")\n";
  s += "}\n";
  s += value_table(entries);
  s += "Register-ArgumentCompleter -Native -CommandName " + single_quoted(program) + ", " +
       single_quoted(program + ".exe") +
       " -ScriptBlock {\n"
       "  param($wordToComplete, $commandAst, $cursorPosition)\n"
       "  $path = ''\n"
       "  $prev = ''\n"
       "  foreach ($element in $commandAst.CommandElements | Select-Object -Skip 1) {\n"
       "    if ($element.Extent.StartOffset -ge $cursorPosition) { break }\n"
       "    $word = $element.ToString()\n"
       "    if ($element.Extent.EndOffset -ge $cursorPosition -and $word -eq $wordToComplete) { break }\n"
       "    $next = if ($path) { \"$path $word\" } else { $word }\n"
       "    if ($tfwslCompletionWords.ContainsKey($next)) { $path = $next }\n"
       "    $prev = $word\n"
       "  }\n"
       "  $candidates = $tfwslCompletionWords[$path]\n"
       "  $values = $tfwslCompletionValues[\"$path|$prev\"]\n"
       "  if ($values -is [string]) { $candidates = @(& " +
       single_quoted(program) +
       " completion --list $values 2>$null) }\n"
       "  elseif ($values) { $candidates = $values }\n"
       "  $candidates | Where-Object { $_ -like \"$wordToComplete*\" } | ForEach-Object {\n"
       "    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)\n"
       "  }\n"
       "}\n";
  return s;
}

}  // namespace tfwsl
