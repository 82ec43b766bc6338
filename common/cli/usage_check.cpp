#include "common/cli/usage_check.hpp"

#include <algorithm>

#include "common/util/suggest.hpp"

namespace tfwsl {
namespace {

std::vector<CLI::App*> subcommands_of(CLI::App& app) {
  return app.get_subcommands([](CLI::App*) { return true; });
}

// The option `name` ("--json", "-v") as `app` accepts it: its own, or one of a command above it
// that it lets fall through (the global options).
const CLI::Option* accepted_option(CLI::App& app, const std::string& name) {
  for (CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    if (const CLI::Option* opt = a->get_option_no_throw(name)) return opt;
    if (!a->get_fallthrough()) break;
  }
  return nullptr;
}

std::vector<std::string> option_spellings(CLI::App& app) {
  std::vector<std::string> names;
  for (CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options()) {
      for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    }
    if (!a->get_fallthrough()) break;
  }
  return names;
}

bool takes_value(const CLI::Option* opt) { return opt->get_items_expected_min() > 0; }

// "-vq" is "-v -q"; "-p3" is "-p 3". Whether every letter up to the one taking a value is known.
bool short_cluster_known(CLI::App& app, const std::string& arg, bool& value_follows) {
  value_follows = false;
  for (std::size_t k = 1; k < arg.size(); ++k) {
    const CLI::Option* opt = accepted_option(app, std::string("-") + arg[k]);
    if (!opt) return false;
    if (takes_value(opt)) {
      value_follows = k + 1 == arg.size();  // "-p 3" when nothing is attached
      return true;
    }
  }
  return true;
}

std::string list_commands(CLI::App& app) {
  std::string text = "The commands are:\n";
  std::size_t width = 0;
  for (auto* s : subcommands_of(app)) width = std::max(width, s->get_name().size());
  for (auto* s : subcommands_of(app))
    text += "  " + s->get_name() + std::string(width - s->get_name().size() + 2, ' ') + s->get_description() + "\n";
  return text;
}

// The commands right below `app` that take `option`: "-v" given before "doctor" belongs after it.
std::vector<std::string> commands_taking(CLI::App& app, const std::string& command, const std::string& option) {
  std::vector<std::string> names;
  for (auto* s : subcommands_of(app))
    if (s->get_option_no_throw(option) != nullptr)
      names.push_back("'" + command + " " + s->get_name() + " " + option + "'");
  return names;
}

std::string unknown_option(CLI::App& app, const std::string& command, const std::string& option) {
  std::string text = command + ": unknown option " + option;
  const auto takers = commands_taking(app, command, option.substr(0, option.find('=')));
  const bool single_letter = option.size() == 2;  // any other letter is one edit away: no guess
  if (!takers.empty()) {
    text += "; it is an option of a command, given after it: ";
    for (std::size_t i = 0; i < takers.size(); ++i) text += (i ? ", " : "") + takers[i];
  } else if (auto suggestion = single_letter ? std::nullopt : closest_match(option, option_spellings(app))) {
    text += "; did you mean " + *suggestion + "?";
  }
  return text + "\nRun '" + command + " --help' for its options.\n";
}

std::string unknown_command(CLI::App& app, const std::string& command, const std::string& word) {
  std::vector<std::string> names;
  for (auto* s : subcommands_of(app)) names.push_back(s->get_name());
  if (auto suggestion = closest_match(word, names))
    return command + ": unknown command '" + word + "'; did you mean '" + *suggestion + "'?\n";
  return command + ": unknown command '" + word + "'.\n" + list_commands(app) + "Run '" + command +
         " COMMAND --help' for a command's options.\n";
}

bool has_positionals(CLI::App& app) {
  return !app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
}

}  // namespace

UsageCheck check_usage(CLI::App& app, const std::vector<std::string>& args) {
  UsageCheck result;
  CLI::App* current = &app;
  result.command = app.get_name();
  bool help = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // A command that runs another (tfwsl run python -c ...): from its first positional on, or after
    // `--`, the words are that command's.
    result.runs_another = current->get_prefix_command();
    if (current->get_prefix_command() && (arg == "--" || arg.empty() || arg[0] != '-')) {
      result.passthrough_from = arg == "--" ? i + 1 : i;
      break;
    }
    if (arg == "--") break;  // the rest are positional
    if (arg.size() > 1 && arg[0] == '-') {
      const bool is_long = arg.rfind("--", 0) == 0;
      const std::string name = is_long ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
      const CLI::Option* opt = accepted_option(*current, name);
      bool value_follows = false;
      bool known = opt != nullptr && (is_long ? true : short_cluster_known(*current, arg, value_follows));
      if (!known) {
        result.mistake = unknown_option(*current, result.command, is_long ? name : arg);
        return result;
      }
      if (is_long) value_follows = takes_value(opt) && arg.find('=') == std::string::npos;
      help = help || name == "--help" || name == "-h";
      if (value_follows) ++i;
      continue;
    }
    auto subs = subcommands_of(*current);
    auto named = std::find_if(subs.begin(), subs.end(), [&](CLI::App* s) { return s->check_name(arg); });
    if (named != subs.end()) {
      current = *named;
      result.command += " " + current->get_name();
    } else if (!subs.empty() && !has_positionals(*current)) {
      result.mistake = unknown_command(*current, result.command, arg);
      return result;
    }
  }
  result.runs_another = current->get_prefix_command();
  if (!help && current->get_require_subcommand_min() > 0)
    result.mistake = result.command + ": which command? " + list_commands(*current) + "Run '" + result.command +
                     " COMMAND --help' for a command's options.\n";
  return result;
}

}  // namespace tfwsl
