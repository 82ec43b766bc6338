// choose_profile (common/profile/profile_locate.hpp): --profile > tfwsl.yaml in the folder or a
// parent > the user's default profile > the built-in default; and relative `extends` found from
// the profile file's folder whatever the current folder.
#include <catch2/catch.hpp>

#include <map>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_locate.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_template.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

ProfileSearch search_in(const fs::path& start, std::map<std::string, std::string> env, bool windows = false) {
  ProfileSearch s;
  s.start = start;
  s.windows = windows;
  s.getenv = [env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  return s;
}

}  // namespace

TEST_CASE("choose_profile: --profile, then the project's tfwsl.yaml, then the user's, then the built-in", "[profile][locate]") {
  test::TempDir dir;
  const fs::path project = dir.path() / "repo";
  const fs::path deep = project / "src" / "models";
  fs::create_directories(deep);
  const fs::path config = dir.path() / "config";
  auto search = search_in(deep, {{"XDG_CONFIG_HOME", config.string()}, {"HOME", (dir.path() / "home").string()}});

  auto builtin = choose_profile(search);
  CHECK(builtin.origin == ProfileOrigin::builtin);
  CHECK(builtin.name_or_path == default_profile_name());
  CHECK(builtin.from.find("no " + (config / "tfwsl" / "profile.yaml").string()) != std::string::npos);

  fs::create_directories(config / "tfwsl");
  test::write_file(config / "tfwsl" / "profile.yaml", "extends: builtin:tf-2.17-cuda-12.3\nname: mine\n");
  auto user = choose_profile(search);
  CHECK(user.origin == ProfileOrigin::user);
  CHECK(user.name_or_path == (config / "tfwsl" / "profile.yaml").string());
  CHECK(user.from == (config / "tfwsl" / "profile.yaml").string() + " (your default profile)");

  test::write_file(project / "tfwsl.yaml", "extends: builtin:tf-2.16-cuda-12.3\nname: project\n");
  auto from_project = choose_profile(search);
  CHECK(from_project.origin == ProfileOrigin::project);
  CHECK(from_project.name_or_path == (project / "tfwsl.yaml").string());
  CHECK(from_project.from.find("the project's tfwsl.yaml, found from " + deep.string()) != std::string::npos);

  search.option = "tf-2.18-cuda-12.5";
  auto option = choose_profile(search);
  CHECK(option.origin == ProfileOrigin::command_line);
  CHECK(option.name_or_path == "tf-2.18-cuda-12.5");
}

TEST_CASE("user_profile_path: %APPDATA% on Windows, XDG_CONFIG_HOME else ~/.config", "[profile][locate]") {
  CHECK(user_profile_path(search_in(".", {{"APPDATA", "C:\\Users\\me\\AppData\\Roaming"}}, true)) ==
        fs::path("C:\\Users\\me\\AppData\\Roaming") / "tfwsl" / "profile.yaml");
  CHECK_FALSE(user_profile_path(search_in(".", {{"HOME", "/home/me"}}, true)));
  const fs::path cfg = fs::absolute("cfg");  // XDG_CONFIG_HOME must be absolute, on this platform's terms
  CHECK(user_profile_path(search_in(".", {{"XDG_CONFIG_HOME", cfg.string()}, {"HOME", "/home/me"}})) ==
        cfg / "tfwsl" / "profile.yaml");
  // A relative XDG_CONFIG_HOME is invalid (the basedir specification): ignored.
  CHECK(user_profile_path(search_in(".", {{"XDG_CONFIG_HOME", "cfg"}, {"HOME", "/home/me"}})) ==
        fs::path("/home/me/.config/tfwsl/profile.yaml"));
  CHECK_FALSE(user_profile_path(search_in(".", {})));
}

TEST_CASE("a team base in another folder is found through a relative extends, from any current folder", "[profile][locate]") {
  test::TempDir dir;
  fs::create_directories(dir.path() / "team-base");
  fs::create_directories(dir.path() / "project");
  test::write_file(dir.path() / "team-base" / "base.yaml",
                   "name: team-base\nextends: builtin:tf-2.15-cuda-12.2\nwsl: { memory: 24GB }\n");
  test::write_file(dir.path() / "project" / "tfwsl.yaml", "extends: ../team-base/base.yaml\nname: project\n");
  fs::create_directories(dir.path() / "elsewhere");
  const fs::path before = fs::current_path();
  fs::current_path(dir.path() / "elsewhere");
  auto chosen = choose_profile(search_in(dir.path() / "project", {}));
  auto loaded = load_profile("../project/tfwsl.yaml");  // a relative name, from another folder
  auto by_choice = load_profile(chosen.name_or_path);
  fs::current_path(before);
  INFO([&] { std::string s; for (const auto& i : loaded.issues) s += i.to_string() + "\n"; return s; }());
  REQUIRE(loaded.ok());
  REQUIRE(by_choice.ok());
  for (const auto* r : {&loaded, &by_choice}) {
    CHECK(*r->profile->name == "project");
    CHECK(*r->profile->wsl_memory == 24ull << 30);
    CHECK(r->profile->wsl_memory.where.file.find("base.yaml") != std::string::npos);
    CHECK(*r->profile->tensorflow_version == "2.15.*");
  }
}

TEST_CASE("the commented profile init writes loads as the default it came from", "[profile][template]") {
  ProfileLoadOptions raw;
  raw.apply_builtin_defaults = false;
  auto def = load_profile("builtin:" + default_profile_name(), raw);
  REQUIRE(def.ok());
  const std::string text = commented_profile(*def.profile, "A test profile.\nSecond line.");
  INFO(text);
  CHECK(text.rfind("# A test profile.\n# Second line.\n", 0) == 0);
  CHECK(text.find("toolkit: \"12.2\"  # installs apt cuda-toolkit-X-Y") != std::string::npos);
  CHECK(text.find("# wsl:\n#   memory: 16GB  # .wslconfig [wsl2] memory=\n") != std::string::npos);
  InMemoryProfileResolver resolver({{"tfwsl.yaml", text}});
  auto again = load_profile(*resolver.open("tfwsl.yaml"), resolver, raw);
  REQUIRE(again.ok());
  CHECK(again.issues.empty());
  CHECK(emit_profile(*again.profile) == emit_profile(*def.profile));
}
