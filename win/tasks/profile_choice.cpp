#include "win/tasks/profile_choice.hpp"

#include <filesystem>

#include "common/text/utf_convert.hpp"
#include "win/platform/host_platform.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

ProfileSearch profile_search(const std::string& option) {
  ProfileSearch search;
  search.option = option;
  std::error_code ec;
  search.start = std::filesystem::current_path(ec);
  search.getenv = wsl::process_environment_variable;
  search.windows = read_system_info().is_windows;
  return search;
}

ChosenProfile load_chosen_profile(const std::string& option) {
  ChosenProfile chosen{choose_profile(profile_search(option)), {}};
  chosen.loaded = load_profile(chosen.choice.name_or_path);
  return chosen;
}

void announce_profile_choice(const ProfileChoice& choice, std::string_view command, std::ostream& err) {
  for (const auto& ignored : choice.ignored) err << command << ": ignored " << ignored << "\n";
  // A file found by looking is named (the built-in default is no file, a --profile was named).
  if (choice.origin == ProfileOrigin::project || choice.origin == ProfileOrigin::user)
    err << command << ": profile: " << choice.from << "\n";
}

ProfileChoice announced_profile_choice(const std::string& option, std::string_view command, std::ostream& err) {
  auto choice = choose_profile(profile_search(option));
  announce_profile_choice(choice, command, err);
  return choice;
}

}  // namespace tfwsl::cli
