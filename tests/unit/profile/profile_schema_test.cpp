#include "common/profile/profile_schema.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"

using namespace tfwsl;

namespace {

ProfileLoadOptions raw_options() {
  ProfileLoadOptions raw;
  raw.apply_builtin_defaults = false;
  raw.validate = false;
  return raw;
}

ProfileLoadResult load_text(std::map<std::string, std::string> files, const std::string& root,
                            ProfileLoadOptions options) {
  InMemoryProfileResolver resolver(std::move(files));
  auto text = resolver.open(root);
  REQUIRE(text);
  return load_profile(*text, resolver, options);
}

std::string issues_text(const ProfileLoadResult& r) {
  std::string out;
  for (const auto& i : r.issues) out += i.to_string() + "\n";
  return out;
}

bool any_issue_says(const std::vector<ProfileIssue>& issues, const std::string& needle) {
  return std::any_of(issues.begin(), issues.end(),
                     [&](const ProfileIssue& i) { return i.to_string().find(needle) != std::string::npos; });
}

// What a profile that sets nothing has for `key`: its built-in default as text, or "<unset>".
std::string default_of(const std::string& key) {
  ProfileLoadOptions options;
  options.validate = false;
  const auto loaded = load_text({{"empty.yaml", ""}}, "empty.yaml", options);
  REQUIRE(loaded.profile);
  REQUIRE(loaded.issues.empty());
  const ProfileKeyRow* row = find_profile_key(key);
  REQUIRE(row);
  if (row->is_set(*loaded.profile)) CHECK(row->where(*loaded.profile).file == "builtin:builtin-defaults.yaml");
  return row->value_text(*loaded.profile).value_or("<unset>");
}

// One row's value as a whole profile file: "wsl:\n  memory: 16GB\n".
std::string as_document(const ProfileKeyRow& row, std::string_view value) {
  if (row.section().empty()) return std::string(row.key) + ": " + std::string(value) + "\n";
  return std::string(row.section()) + ":\n  " + std::string(row.leaf()) + ": " + std::string(value) + "\n";
}

std::vector<std::string> table_keys() {
  std::vector<std::string> keys;
  for (const auto& row : profile_key_table()) keys.emplace_back(row.key);
  return keys;
}

}  // namespace

TEST_CASE("schema: every key's built-in default is pinned", "[profile][schema]") {
  // A new row fails here until its default is pinned below.
  CHECK(table_keys() == std::vector<std::string>{"name",
                                                 "extends",
                                                 "route",
                                                 "distro",
                                                 "wsl.memory",
                                                 "wsl.processors",
                                                 "wsl.swap",
                                                 "gpu.driver",
                                                 "cuda.toolkit",
                                                 "cuda.cudnn",
                                                 "python.version",
                                                 "python.venv",
                                                 "tensorflow.version",
                                                 "tensorflow.extras",
                                                 "packages.apt",
                                                 "packages.pip",
                                                 "env",
                                                 "datasets",
                                                 "container.engine",
                                                 "container.image",
                                                 "container.digest",
                                                 "container.build",
                                                 "container.mounts"});
  for (const char* key :
       {"container.engine", "container.image", "container.digest", "container.build", "container.mounts"})
    CHECK(default_of(key) == "<unset>");
  CHECK(default_of("name") == "<unset>");
  CHECK(default_of("extends") == "<unset>");
  CHECK(default_of("route") == "wsl");
  CHECK(default_of("distro") == "Ubuntu-22.04");
  CHECK(default_of("wsl.memory") == "<unset>");
  CHECK(default_of("wsl.processors") == "<unset>");
  CHECK(default_of("wsl.swap") == "<unset>");
  CHECK(default_of("gpu.driver") == "<unset>");
  CHECK(default_of("cuda.toolkit") == "<unset>");
  CHECK(default_of("cuda.cudnn") == "<unset>");
  CHECK(default_of("python.version") == "<unset>");
  CHECK(default_of("python.venv") == "~/.venvs/tfwsl");
  CHECK(default_of("tensorflow.version") == "<unset>");
  CHECK(default_of("tensorflow.extras") == "<unset>");
  CHECK(default_of("packages.apt") == "<unset>");
  CHECK(default_of("packages.pip") == "<unset>");
  CHECK(default_of("env") == "<unset>");
  CHECK(default_of("datasets") == "<unset>");
}

TEST_CASE("schema: the built-in defaults are a profile a file can extend", "[profile][schema]") {
  auto r = load_text({{"d.yaml", "extends: builtin:builtin-defaults\nname: d\n"}}, "d.yaml", raw_options());
  INFO(issues_text(r));
  REQUIRE(r.profile);
  CHECK(r.issues.empty());
  CHECK(*r.profile->distro == "Ubuntu-22.04");
  CHECK(r.profile->distro.where.to_string().rfind("builtin:builtin-defaults.yaml:", 0) == 0);
  CHECK(r.profile->sources == std::vector<std::string>{"builtin:builtin-defaults.yaml", "d.yaml"});
}

TEST_CASE("schema: every row round-trips through emit and load", "[profile][schema]") {
  for (const auto& row : profile_key_table()) {
    INFO(row.key);
    const std::string yaml = as_document(row, row.example);
    INFO(yaml);
    auto first = load_text({{"one.yaml", yaml}, {"base.yaml", ""}}, "one.yaml", raw_options());
    INFO(issues_text(first));
    REQUIRE(first.profile);
    REQUIRE(first.issues.empty());
    const std::string emitted = emit_profile(*first.profile);
    INFO(emitted);
    if (row.emit == ProfileEmitStyle::not_emitted) {
      CHECK_FALSE(row.is_set(*first.profile));  // a file's own, not part of the merged profile
      CHECK(emitted.find(std::string(row.key)) == std::string::npos);
      continue;
    }
    REQUIRE(row.is_set(*first.profile));
    for (const auto& other : profile_key_table()) CHECK(other.is_set(*first.profile) == (&other == &row));
    CHECK(row.where(*first.profile).to_string().rfind("one.yaml:", 0) == 0);

    auto again = load_text({{"again.yaml", emitted}}, "again.yaml", raw_options());
    INFO(issues_text(again));
    REQUIRE(again.profile);
    CHECK(again.issues.empty());
    CHECK(row.same_value(*first.profile, *again.profile));
    CHECK(row.value_text(*again.profile).value_or("<unset>") == row.value_text(*first.profile).value_or("<unset>"));
    CHECK(emit_profile(*again.profile) == emitted);
    CHECK_FALSE(row.same_value(*first.profile, Profile{}));

    // The command line takes the same value text as the file.
    if (row.on_command_line && row.type != ProfileValueType::env_map) {
      Profile overridden;
      const auto issues = apply_profile_override(overridden, std::string(row.key) + "=" + std::string(row.example));
      CHECK(issues.empty());
      CHECK(row.same_value(*first.profile, overridden));
    }
  }
}

TEST_CASE("schema: a key without a row is an unknown key, with did-you-mean", "[profile][schema]") {
  REQUIRE_FALSE(find_profile_key("dataset"));
  REQUIRE_FALSE(find_profile_key("python.venvs"));
  REQUIRE_FALSE(find_profile_key("wsl.kernel"));
  auto r = load_text({{"k.yaml", "name: k\ndataset: []\npython: { venvs: ~/.venvs/x }\nwsl: { kernel: k }\n"}},
                     "k.yaml", raw_options());
  INFO(issues_text(r));
  CHECK(any_issue_says(
      r.issues, "k.yaml:2:1: error: unknown key 'dataset' (did you mean 'datasets'?); fix: rename it to 'datasets'"));
  CHECK(any_issue_says(
      r.issues, "k.yaml:3:11: error: unknown key 'python.venvs' (did you mean 'venv'?); fix: rename it to 'venv'"));
  CHECK(any_issue_says(
      r.issues, "k.yaml:4:8: error: unknown key 'wsl.kernel'; fix: remove it; 'wsl' takes: memory, processors, swap"));
  CHECK(r.issues.size() == 3);

  Profile p;
  auto venvs = apply_profile_override(p, "python.venvs=~/.venvs/x");
  CHECK(any_issue_says(venvs,
                       "<command line>: error: unknown setting 'python.venvs' (did you mean 'python.venv'?); fix: "
                       "write python.venv=..."));
  // `extends` belongs to a file: the command line cannot set it.
  CHECK(any_issue_says(apply_profile_override(p, "extends=base.yaml"), "unknown setting 'extends'"));
  CHECK(any_issue_says(apply_profile_override(p, "env=x"), "unknown setting 'env'"));
  CHECK(flatten_profile(p).empty());
}

TEST_CASE("schema: the setting keys and the table agree", "[profile][schema]") {
  CHECK(profile_setting_keys() == std::vector<std::string>{"name",
                                                           "extends",
                                                           "route",
                                                           "distro",
                                                           "wsl.memory",
                                                           "wsl.processors",
                                                           "wsl.swap",
                                                           "gpu.driver",
                                                           "cuda.toolkit",
                                                           "cuda.cudnn",
                                                           "python.version",
                                                           "python.venv",
                                                           "tensorflow.version",
                                                           "tensorflow.extras",
                                                           "packages.apt",
                                                           "packages.pip",
                                                           "env.<NAME>",
                                                           "datasets",
                                                           "container.engine",
                                                           "container.image",
                                                           "container.digest",
                                                           "container.build",
                                                           "container.mounts"});
  CHECK(profile_top_level_keys() == std::vector<std::string>{"name", "extends", "route", "distro", "wsl", "gpu", "cuda",
                                                             "python", "tensorflow", "packages", "env", "datasets",
                                                             "container"});
  CHECK(profile_section_keys("wsl") == std::vector<std::string>{"memory", "processors", "swap"});
  for (const auto& row : profile_key_table()) {
    INFO(row.key);
    CHECK_FALSE(row.example.empty());
    CHECK_FALSE(row.comment.empty());
    CHECK(find_profile_key(row.key) == &row);
  }
}

TEST_CASE("schema: diff reads values as text and compares them by the row's type", "[profile][schema]") {
  auto a = load_text({{"a.yaml", "wsl: { memory: 16GB }\nenv: { A: x, B: y }\n"}}, "a.yaml", raw_options());
  auto b = load_text({{"b.yaml", "wsl: { memory: 16384MB }\nenv: { B: y, A: x }\n"}}, "b.yaml", raw_options());
  auto c = load_text({{"c.yaml", "wsl: { memory: 8GB }\nenv: { A: x }\n"}}, "c.yaml", raw_options());
  REQUIRE((a.profile && b.profile && c.profile));
  const ProfileKeyRow& memory = *find_profile_key("wsl.memory");
  const ProfileKeyRow& env = *find_profile_key("env");
  CHECK(memory.value_text(*b.profile).value_or("<unset>") == "16GB");
  CHECK(memory.same_value(*a.profile, *b.profile));
  CHECK_FALSE(memory.same_value(*a.profile, *c.profile));
  CHECK(env.value_text(*a.profile).value_or("<unset>") == "{A: x, B: y}");
  CHECK(env.same_value(*a.profile, *b.profile));  // the order of variables does not matter
  CHECK_FALSE(env.same_value(*a.profile, *c.profile));
  CHECK(find_profile_key("cuda.toolkit")->same_value(*a.profile, *c.profile));  // both unset
}
