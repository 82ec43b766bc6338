// choose_profile (common/profile/profile_locate.hpp): --profile > tfwsl.yaml in the folder or a
// parent > the user's default profile > the built-in default; and relative `extends` found from
// the profile file's folder whatever the current folder.
#include "common/profile/profile_locate.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
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

TEST_CASE("choose_profile: --profile, then the project's tfwsl.yaml, then the user's, then the built-in",
          "[profile][locate]") {
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

TEST_CASE("a team base in another folder is found through a relative extends, from any current folder",
          "[profile][locate]") {
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
  INFO([&] {
    std::string s;
    for (const auto& i : loaded.issues) s += i.to_string() + "\n";
    return s;
  }());
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

namespace {

// Issue 22, item 11: the filesystem port with owners and devices set by the test (the real
// files' existence, this user uid 1000 unless told).
class FakeProfileFiles final : public ProfileFiles {
 public:
  std::map<std::string, AccountId> owners;       // a file's owner (default: "1000", the user)
  std::map<std::string, std::uint64_t> devices;  // a folder and all below it (default: device 1)
  ProfilePathFacts facts(const fs::path& path) const override {
    ProfilePathFacts out;
    std::error_code ec;
    out.exists = fs::exists(path, ec);
    out.regular_file = fs::is_regular_file(path, ec);
    const auto key = path.lexically_normal().string();
    out.owners = {owners.count(key) ? owners.at(key) : me};
    out.device = 1;
    std::size_t longest = 0;
    for (const auto& [prefix, device] : devices)
      if (key.rfind(prefix, 0) == 0 && prefix.size() > longest) longest = prefix.size(), out.device = device;
    return out;
  }
  std::optional<AccountId> current_user() const override { return me; }
  AccountId me = "1000";
};

bool names(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a tfwsl.yaml another user owns is ignored and named, the user's own and root's are taken",
          "[profile][locate]") {
  test::TempDir dir;
  const fs::path shared = dir.path() / "tmp";
  fs::create_directories(shared / "work");
  test::write_file(shared / "tfwsl.yaml", "name: evil\npackages: { pip: [evilpkg] }\n");
  FakeProfileFiles files;
  files.owners[(shared / "tfwsl.yaml").string()] = "1001";
  // HOME at the temporary folder: the climb stops there, whatever lies in this machine's /tmp.
  auto search = search_in(shared / "work", {{"HOME", dir.path().string()}});
  search.files = &files;
  auto choice = choose_profile(search);
  CHECK(choice.origin == ProfileOrigin::builtin);
  CHECK(names(choice.ignored, (shared / "tfwsl.yaml").string() + ": owned by uid 1001, not by you (uid 1000) or root"));
  files.owners[(shared / "tfwsl.yaml").string()] = "0";
  CHECK(choose_profile(search).name_or_path == (shared / "tfwsl.yaml").string());
  files.owners.clear();
  CHECK(choose_profile(search).name_or_path == (shared / "tfwsl.yaml").string());
  CHECK(choose_profile(search).ignored.empty());
}

TEST_CASE("the climb stops at the home folder: a tfwsl.yaml above it is not the project's", "[profile][locate]") {
  test::TempDir dir;
  const fs::path home = dir.path() / "home" / "me";
  fs::create_directories(home / "proj" / "src");
  test::write_file(dir.path() / "home" / "tfwsl.yaml", "name: above\n");
  FakeProfileFiles files;
  auto search = search_in(home / "proj" / "src", {{"HOME", home.string() + "/"}});
  search.files = &files;
  CHECK(choose_profile(search).origin == ProfileOrigin::builtin);
  test::write_file(home / "tfwsl.yaml", "name: mine\n");  // the home itself is still looked in
  CHECK(choose_profile(search).name_or_path == (home / "tfwsl.yaml").string());
}

TEST_CASE("the climb stops at a filesystem boundary, as git does", "[profile][locate]") {
  test::TempDir dir;
  const fs::path mount = dir.path() / "mnt" / "usb";
  fs::create_directories(mount / "proj");
  test::write_file(dir.path() / "tfwsl.yaml", "name: other-filesystem\n");
  FakeProfileFiles files;
  files.devices[mount.string()] = 2;
  auto search = search_in(mount / "proj", {});
  search.files = &files;
  CHECK(choose_profile(search).origin == ProfileOrigin::builtin);
  files.devices.clear();
  CHECK(choose_profile(search).name_or_path == (dir.path() / "tfwsl.yaml").string());
}

TEST_CASE("a default profile file another user owns is ignored and named", "[profile][locate]") {
  test::TempDir dir;
  const fs::path config = dir.path() / "config";
  fs::create_directories(config / "tfwsl");
  test::write_file(config / "tfwsl" / "profile.yaml", "name: planted\n");
  FakeProfileFiles files;
  files.owners[(config / "tfwsl" / "profile.yaml").string()] = "1001";
  auto search = search_in(dir.path(), {{"XDG_CONFIG_HOME", config.string()}, {"HOME", dir.path().string()}});
  search.files = &files;
  auto choice = choose_profile(search);
  CHECK(choice.origin == ProfileOrigin::builtin);
  CHECK(names(choice.ignored, (config / "tfwsl" / "profile.yaml").string() + ": owned by uid 1001"));
}

// Issue 38, item 7: on Windows owners are SIDs (folders made under C:\\ are writable by Authenticated
// Users, so anyone may plant a tfwsl.yaml above a project): the user's own, SYSTEM's and the
// Administrators' are used, any other account's is skipped and named.
TEST_CASE("Windows owners: a tfwsl.yaml another SID owns is skipped and named, SYSTEM's and Administrators' are used",
          "[profile][locate]") {
  test::TempDir dir;
  const fs::path drive = dir.path() / "C";
  fs::create_directories(drive / "work" / "proj");
  const fs::path planted = drive / "work" / "tfwsl.yaml";
  test::write_file(planted, "name: planted\n");
  FakeProfileFiles files;
  files.me = "S-1-5-21-1-2-3-1001";
  auto search = search_in(drive / "work" / "proj", {{"USERPROFILE", (dir.path() / "Users" / "me").string()}});
  search.windows = true;
  search.files = &files;
  struct Row {
    const char* owner;
    bool used;
  };
  for (const Row row : {Row{"S-1-5-21-1-2-3-1002", false}, Row{"S-1-5-11", false}, Row{"S-1-5-21-1-2-3-1001", true},
                        Row{"S-1-5-18", true}, Row{"S-1-5-32-544", true}}) {
    files.owners[planted.string()] = row.owner;
    auto choice = choose_profile(search);
    CAPTURE(row.owner);
    CHECK((choice.name_or_path == planted.string()) == row.used);
    if (!row.used)
      CHECK(names(choice.ignored, planted.string() + ": owned by " + row.owner +
                                      ", not by you (S-1-5-21-1-2-3-1001) or "
                                      "SYSTEM or the Administrators"));
  }
}
