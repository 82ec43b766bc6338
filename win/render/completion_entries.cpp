// The command tree as the completion scripts see it (completion_script.hpp).
#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "win/render/completion_script.hpp"

namespace tfwsl {
namespace {

// The closed set an option's validator allows, or nothing. CLI::IsMember describes its set as
// "{a,b,c}" (CLI11's detail::generate_set), and it is the only validator of this CLI whose
// description has that shape: the set itself is not reachable through CLI11's interface.
std::vector<std::string> closed_choices(const CLI::Option& option) {
  auto& opt = const_cast<CLI::Option&>(option);
  for (int i = 0;; ++i) {
    std::string description;
    try {
      description = opt.get_validator(i)->get_description();
    } catch (const CLI::OptionNotFound&) {
      return {};
    }
    if (description.size() < 2 || description.front() != '{' || description.back() != '}') continue;
    std::vector<std::string> choices;
    std::string choice;
    for (char c : description.substr(1, description.size() - 2)) {
      if (c != ',') {
        choice += c;
        continue;
      }
      choices.push_back(choice);
      choice.clear();
    }
    choices.push_back(choice);
    return choices;
  }
}

// The list an option's values come from, by what the option is: a distribution, a profile.
std::string machine_list(const CLI::Option& option) {
  for (const auto& name : option.get_lnames()) {
    if (name == "distro") return "distros";
    if (name == "profile") return "profiles";
  }
  return {};
}

// The options `app` takes: its own, and those of the commands above it that it lets fall through.
std::vector<const CLI::Option*> options_of(const CLI::App& app) {
  std::vector<const CLI::Option*> options;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options())
      if (!opt->get_positional()) options.push_back(opt);
    if (!a->get_fallthrough()) break;
  }
  return options;
}

void add_option(const CLI::Option& opt, CompletionEntry& entry) {
  ValueCompletion value;
  for (const auto& l : opt.get_lnames()) value.spellings.push_back("--" + l);
  for (const auto& s : opt.get_snames()) value.spellings.push_back("-" + s);
  entry.words.insert(entry.words.end(), value.spellings.begin(), value.spellings.end());
  if (opt.get_type_size() == 0) return;  // a flag takes no value
  value.choices = closed_choices(opt);
  if (value.choices.empty()) value.list = machine_list(opt);
  if (!value.choices.empty() || !value.list.empty()) entry.values.push_back(std::move(value));
}

void collect(const CLI::App& app, const std::string& path, std::vector<CompletionEntry>& out) {
  CompletionEntry entry{path, {}, {}};
  const auto subs = const_cast<CLI::App&>(app).get_subcommands([](const CLI::App*) { return true; });
  for (const CLI::App* sub : subs) entry.words.push_back(sub->get_name());
  for (const CLI::Option* opt : app.get_options())
    if (opt->get_positional())
      for (auto& choice : closed_choices(*opt)) entry.words.push_back(std::move(choice));
  for (const CLI::Option* opt : options_of(app)) add_option(*opt, entry);
  out.push_back(std::move(entry));
  for (const CLI::App* sub : subs) collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

}  // namespace

const std::vector<std::string>& completion_lists() {
  static const std::vector<std::string> lists{"distros", "profiles"};
  return lists;
}

std::pair<std::string, std::string> split_command_path(const std::string& path) {
  const auto space = path.rfind(' ');
  if (space == std::string::npos) return {"", path};
  return {path.substr(0, space), path.substr(space + 1)};
}

std::vector<CompletionEntry> completion_entries(const CLI::App& app) {
  std::vector<CompletionEntry> out;
  collect(app, "", out);
  return out;
}

}  // namespace tfwsl
