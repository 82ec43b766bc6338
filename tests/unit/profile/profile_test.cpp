#include <algorithm>
#include <catch2/catch.hpp>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_validator.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

namespace {

ProfileLoadResult load_mem(std::map<std::string, std::string> files, const std::string& root,
                           ProfileLoadOptions options = {}) {
  InMemoryProfileResolver resolver(std::move(files));
  auto text = resolver.open(root);
  REQUIRE(text);
  return load_profile(*text, resolver, options);
}

std::string all_issues(const ProfileLoadResult& r) {
  std::string out;
  for (const auto& i : r.issues) out += i.to_string() + "\n";
  return out;
}

bool has_issue(const ProfileLoadResult& r, const std::string& needle, IssueSeverity severity = IssueSeverity::error) {
  return std::any_of(r.issues.begin(), r.issues.end(), [&](const ProfileIssue& i) {
    return i.severity == severity && i.to_string().find(needle) != std::string::npos;
  });
}

const char* k_good =
    "name: team\n"
    "distro: Ubuntu-22.04\n"
    "wsl:      { memory: 16GB, processors: 8, swap: 8GB }\n"
    "cuda:     { toolkit: \"12.2\", cudnn: \"8.9\" }\n"
    "python:   { version: \"3.10\", venv: ~/.venvs/tf-2.15 }\n"
    "tensorflow: { version: \"2.15.*\", extras: [and-cuda] }\n"
    "packages: { apt: [build-essential], pip: [\"numpy<2\"] }\n"
    "env:      { TF_GPU_ALLOCATOR: cuda_malloc_async, TF_FORCE_GPU_ALLOW_GROWTH: \"true\" }\n"
    "datasets: [ { name: imagenet-mini, source: 'D:\\data\\imagenet-mini' } ]\n";

}  // namespace

TEST_CASE("the documented example profile loads with every setting and where it came from", "[profile]") {
  auto r = load_mem({{"team.yaml", k_good}}, "team.yaml");
  INFO(all_issues(r));
  REQUIRE(r.ok());
  CHECK(r.issues.empty());
  const Profile& p = *r.profile;
  CHECK(*p.name == "team");
  CHECK(*p.route == ProfileRoute::wsl);  // from the built-in defaults
  CHECK(*p.wsl_memory == 16ULL << 30);
  CHECK(*p.wsl_processors == 8);
  CHECK(*p.wsl_swap == 8ULL << 30);
  CHECK(*p.cuda_toolkit == "12.2");
  CHECK(*p.python_version == "3.10");
  CHECK(*p.python_venv == "~/.venvs/tf-2.15");
  CHECK(*p.tensorflow_extras == std::vector<std::string>{"and-cuda"});
  CHECK(*p.pip_packages == std::vector<std::string>{"numpy<2"});
  REQUIRE(p.env.size() == 2);
  CHECK(p.env[0].name == "TF_GPU_ALLOCATOR");
  CHECK(*p.find_env("TF_FORCE_GPU_ALLOW_GROWTH")->value == "true");
  REQUIRE(p.datasets->size() == 1);
  CHECK((*p.datasets)[0].source == "D:\\data\\imagenet-mini");
  CHECK(p.wsl_memory.where.to_string() == "team.yaml:3:21");
  CHECK(p.tensorflow_version.where.to_string() == "team.yaml:6:24");
  CHECK(p.route.where.file == "builtin:builtin-defaults.yaml");
  CHECK(p.sources == std::vector<std::string>{"team.yaml"});
  CHECK(target_tf_release(p, builtin_compat_db())->release.to_string() == "2.15");
  CHECK(cuda_toolkit_apt_package(*p.cuda_toolkit) == "cuda-toolkit-12-2");
}

TEST_CASE("unknown keys are rejected with did-you-mean and line:col", "[profile]") {
  auto r = load_mem({{"team.yaml", std::string(k_good) + "cdua: { toolkit: \"12.2\" }\npython2: {}\n"}}, "team.yaml");
  CHECK_FALSE(r.ok());
  CHECK(has_issue(r, "team.yaml:10:1: error: unknown key 'cdua' (did you mean 'cuda'?); fix: rename it to 'cuda'"));
  CHECK(has_issue(r, "team.yaml:11:1: error: unknown key 'python2' (did you mean 'python'?)"));
  auto nested = load_mem(
      {{"t.yaml", "name: t\ntensorflow: { verison: \"2.15.*\" }\nwsl: { memroy: 8GB, frobnicate: 1 }\n"}}, "t.yaml");
  CHECK(has_issue(nested, "t.yaml:2:15: error: unknown key 'tensorflow.verison' (did you mean 'version'?)"));
  CHECK(has_issue(nested, "t.yaml:3:8: error: unknown key 'wsl.memroy' (did you mean 'memory'?)"));
  CHECK(has_issue(nested, "unknown key 'wsl.frobnicate'; fix: remove it; 'wsl' takes: memory, processors, swap"));
  auto dup = load_mem({{"d.yaml", "name: a\nname: b\n"}}, "d.yaml");
  CHECK(has_issue(dup, "d.yaml:2:1: error: key 'name' appears twice"));
}

TEST_CASE("bad values are reported, all of them, each with its position and fix", "[profile]") {
  const char* text =
      "name: 'bad name'\n"
      "wsl: { memory: 16 GB, processors: lots, swap: 8gb }\n"
      "cuda: { toolkit: twelve }\n"
      "tensorflow: { version: \"=2.15\", extras: and-cuda }\n"
      "packages: { pip: [\"tensorflow=2.15\"], apt: [\"rm -rf\"] }\n"
      "env: { 1BAD: x, GOOD: [1] }\n"
      "datasets: [ { name: x }, { name: y, source: 'D:\\y', size: 3 } ]\n"
      "route: natve-windows\n";
  auto r = load_mem({{"b.yaml", text}}, "b.yaml");
  INFO(all_issues(r));
  CHECK_FALSE(r.ok());
  CHECK(has_issue(r, "b.yaml:1:7: error: profile name 'bad name'"));
  CHECK(has_issue(r, "b.yaml:2:16: error: 'wsl.memory': invalid size '16 GB'"));
  CHECK(has_issue(r, "b.yaml:2:35: error: 'wsl.processors' must be a whole number"));
  CHECK(has_issue(r,
                  "b.yaml:2:47: error: 'wsl.swap': invalid size '8gb': WSL only understands the upper-case unit 'GB'"));
  CHECK(has_issue(r, "b.yaml:3:18: error: 'cuda.toolkit' must be a version such as 12.2"));
  CHECK(has_issue(r, "b.yaml:4:24: error: 'tensorflow.version': invalid version specifier '=2.15'"));
  CHECK(has_issue(
      r, "b.yaml:4:41: error: 'tensorflow.extras' must be a list; fix: write e.g. tensorflow.extras: [and-cuda]"));
  CHECK(has_issue(r, "b.yaml:5:19: error: 'packages.pip' item: invalid requirement 'tensorflow=2.15'"));
  CHECK(has_issue(r, "'rm -rf' is not an apt package name"));
  CHECK(has_issue(r, "b.yaml:6:8: error: '1BAD' is not an environment variable name"));
  CHECK(has_issue(r, "b.yaml:6:23: error: 'env.GOOD' must be a single value, not a list"));
  CHECK(has_issue(r, "b.yaml:7:13: error: dataset needs both 'name' and 'source' ('x' has no source)"));
  CHECK(has_issue(r, "unknown key 'datasets.size'"));
  CHECK(has_issue(r, "b.yaml:8:8: error: route 'natve-windows' is not known (did you mean 'native-windows'?)"));
}

// Issue 43, item 8: a syntax error says the mistake in a reader's words with its own fix, not
// yaml-cpp's parser states ("end of map flow not found") and one general fix for all of them.
TEST_CASE("YAML syntax errors name the mistake and its fix, not the parser's state", "[profile]") {
  struct Case {
    const char* text;
    const char* message;
    const char* fix;
  };
  for (const Case& c : {
           Case{"name: x\ncuda: { toolkit: \"12.2\"\n", "a '{' is never closed with '}'", "close it with '}'"},
           Case{"name: x\npackages: { pip: [numpy\n", "a '[' is never closed with ']'", "close it with ']'"},
           Case{"name: x\ndatasets:\n  - { name: a, source: \"C:\\Users\\me\" }\n",
                "without hex digits after it (a Windows path", "single quotes"},
           Case{"name: x\nwsl:\n  memory: 8GB\n\tswap: 1GB\n", "a tab in the indentation",
                "replace the tab with spaces"},
           Case{"name: x\ndistro: Ubuntu\n  tensorflow: 2.15\n", "a ':' where no value can start", "quote a value"},
       }) {
    INFO(c.text);
    auto r = load_mem({{"s.yaml", c.text}}, "s.yaml");
    REQUIRE(r.issues.size() == 1);
    CHECK(r.issues[0].message.find(c.message) != std::string::npos);
    CHECK(r.issues[0].fix.find(c.fix) != std::string::npos);
    CHECK(r.issues[0].message.find("not found") == std::string::npos);
  }
}

TEST_CASE("YAML syntax errors carry file:line:col, junk is an error, not a crash", "[profile]") {
  auto r = load_mem({{"s.yaml", "name: x\ncuda: { toolkit: \"12.2\"\n"}}, "s.yaml");
  CHECK_FALSE(r.profile);
  REQUIRE(r.issues.size() == 1);
  CHECK(r.issues[0].where.file == "s.yaml");
  CHECK(r.issues[0].where.line >= 2);
  CHECK(r.issues[0].message.find("YAML syntax error") != std::string::npos);
  for (const char* junk :
       {"- just\n- a list\n", "42", "\"text\"", "name: [unclosed", "{a: {b: {c: {d: [[[[]]]]}}}}", ""}) {
    INFO(junk);
    auto j = load_mem({{"j.yaml", junk}}, "j.yaml");
    CHECK_FALSE(j.ok());
  }
}

TEST_CASE("extends: relative paths, precedence, maps merge key by key, lists replace", "[profile]") {
  std::map<std::string, std::string> files{
      {"team/base.yaml",
       "name: base\ndistro: Ubuntu-22.04\npython: { version: \"3.10\", venv: ~/.venvs/base }\n"
       "tensorflow: { version: \"2.15.*\", extras: [and-cuda] }\npackages: { apt: [git], pip: [\"numpy<2\"] }\n"
       "env: { A: base, B: base }\n"},
      {"team/gpu/dev.yaml",
       "extends: ../base.yaml\nname: dev\npython: { venv: ~/.venvs/dev }\npackages: { apt: [htop] }\nenv: { B: dev, C: "
       "dev }\n"},
  };
  ProfileLoadOptions options;
  options.overrides = {"python.venv=~/.venvs/cli", "env.C=cli"};
  auto r = load_mem(files, "team/gpu/dev.yaml", options);
  INFO(all_issues(r));
  REQUIRE(r.ok());
  const Profile& p = *r.profile;
  CHECK(*p.name == "dev");
  CHECK(*p.python_version == "3.10");  // from the extended file
  CHECK(p.python_version.where.file == "team/base.yaml");
  CHECK(*p.python_venv == "~/.venvs/cli");  // command line beats the file
  CHECK(p.python_venv.where.file == "<command line>");
  CHECK(*p.apt_packages == std::vector<std::string>{"htop"});  // a list replaces
  CHECK(*p.pip_packages == std::vector<std::string>{"numpy<2"});
  CHECK(*p.find_env("A")->value == "base");
  CHECK(*p.find_env("B")->value == "dev");
  CHECK(*p.find_env("C")->value == "cli");
  CHECK(p.distro.where.file == "team/base.yaml");  // the file beats the built-in default
  CHECK(p.sources == std::vector<std::string>{"team/base.yaml", "team/gpu/dev.yaml", "<command line>"});
}

TEST_CASE("extends: cycles, missing files and escapes are errors at the extends line", "[profile]") {
  auto cycle = load_mem(
      {{"a.yaml", "name: a\nextends: b.yaml\n"}, {"b.yaml", "extends: ./c.yaml\n"}, {"c.yaml", "extends: a.yaml\n"}},
      "a.yaml");
  CHECK(has_issue(cycle, "c.yaml:1:10: error: extends cycle: a.yaml -> b.yaml -> c.yaml -> a.yaml"));
  auto self = load_mem({{"a.yaml", "extends: a.yaml\n"}}, "a.yaml");
  CHECK(has_issue(self, "extends cycle: a.yaml -> a.yaml"));
  auto missing = load_mem({{"a.yaml", "name: a\nextends: nope.yaml\n"}}, "a.yaml");
  CHECK(has_issue(missing, "a.yaml:2:10: error: extends 'nope.yaml': there is no such profile"));
  auto escape = load_mem({{"d/a.yaml", "extends: ../../etc/passwd\n"}}, "d/a.yaml");
  CHECK(has_issue(escape, "leaves the folder of the profiles"));
  auto absolute = load_mem({{"a.yaml", "extends: /etc/passwd\n"}}, "a.yaml");
  CHECK(has_issue(absolute, "leaves the folder"));
  std::map<std::string, std::string> deep;
  for (int i = 0; i < 30; ++i)
    deep["p" + std::to_string(i) + ".yaml"] = "extends: p" + std::to_string(i + 1) + ".yaml\n";
  deep["p30.yaml"] = "name: deep\n";
  CHECK(has_issue(load_mem(deep, "p0.yaml"), "extends goes more than 16 files deep"));
}

TEST_CASE("extends on disk is relative to the including file, and builtin: reaches shipped profiles", "[profile]") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "base");
  test::write_file(dir.path() / "base" / "common.yaml", "distro: Ubuntu-24.04\npython: { version: \"3.12\" }\n");
  test::write_file(dir.path() / "team.yaml",
                   "extends: base/common.yaml\nname: team\ntensorflow: { version: \"2.17.*\" }\n");
  auto r = load_profile((dir.path() / "team.yaml").string());
  INFO(all_issues(r));
  REQUIRE(r.ok());
  CHECK(*r.profile->distro == "Ubuntu-24.04");
  CHECK(r.profile->distro.where.line == 1);

  test::write_file(dir.path() / "mine.yaml", "extends: builtin:tf-2.18-cuda-12.5\nname: mine\nwsl: { memory: 24GB }\n");
  auto b = load_profile((dir.path() / "mine.yaml").string());
  INFO(all_issues(b));
  REQUIRE(b.ok());
  CHECK(*b.profile->cuda_cudnn == "9.3");
  CHECK(*b.profile->distro == "Ubuntu-24.04");  // from the built-in base the built-in profile extends
  CHECK(b.profile->sources.size() == 3);

  test::write_file(dir.path() / "loop1.yaml", "extends: loop2.yaml\n");
  test::write_file(dir.path() / "loop2.yaml", "extends: ./loop1.yaml\n");
  CHECK(has_issue(load_profile((dir.path() / "loop1.yaml").string()), "extends cycle"));
  auto missing = load_valid_profile((dir.path() / "absent.yaml").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("does not exist") != std::string::npos);
  auto unknown = load_valid_profile("tf-2.15-cuda-12.3");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("did you mean 'tf-2.15-cuda-12.2'?") != std::string::npos);
}

TEST_CASE("validation: TF 2.15 on Ubuntu-24.04's Python 3.12 is an error with the fix", "[profile][validate]") {
  auto r = load_mem({{"p.yaml", "name: p\ndistro: Ubuntu-24.04\ntensorflow: { version: \"2.15.*\" }\n"}}, "p.yaml");
  INFO(all_issues(r));
  CHECK_FALSE(r.ok());
  CHECK(has_issue(r,
                  "p.yaml:2:9: error: Ubuntu-24.04's Python 3.12 cannot run tensorflow.version '2.15.*': TensorFlow "
                  "2.15 supports Python 3.9-3.11"));
  CHECK(has_issue(
      r,
      "fix: use distro: Ubuntu-22.04 (Python 3.10), or tensorflow.version: \">=2.16.1\" which supports Python 3.12"));
  // With an explicit Python the error points at python.version.
  auto explicit_py = load_mem(
      {{"p.yaml", "name: p\npython: { version: \"3.12\" }\ntensorflow: { version: \"==2.15.1\" }\n"}}, "p.yaml");
  CHECK(has_issue(explicit_py, "p.yaml:2:20: error: Python 3.12 cannot run"));
  // A range that includes a fitting release is fine: pip picks it.
  auto range =
      load_mem({{"p.yaml", "name: p\ndistro: Ubuntu-24.04\ntensorflow: { version: \">=2.15,<2.17\" }\n"}}, "p.yaml");
  CHECK(range.ok());
  CHECK(target_tf_release(*range.profile, builtin_compat_db())->release.to_string() == "2.16");
  // Plain Ubuntu is 26.04 with Python 3.14: nothing runs there.
  auto plain = load_mem({{"p.yaml", "name: p\ndistro: Ubuntu\ntensorflow: { version: \"2.21.*\" }\n"}}, "p.yaml");
  CHECK(has_issue(plain, "distro 'Ubuntu' means whatever WSL installs by default: Ubuntu 26.04 now (python3 3.14)",
                  IssueSeverity::warning));
  CHECK(has_issue(plain, "no TensorFlow release supports Python 3.14 yet"));
}

TEST_CASE("validation: CUDA and cuDNN must be what the TF release is built for", "[profile][validate]") {
  auto cudnn9 = load_mem(
      {{"p.yaml", "name: p\ncuda: { toolkit: \"12.2\", cudnn: \"9.3\" }\ntensorflow: { version: \"2.15.*\" }\n"}},
      "p.yaml");
  CHECK(has_issue(cudnn9,
                  "p.yaml:2:33: error: TensorFlow 2.15 is built against cuDNN 8.9; cuDNN 9.3 is a different major "
                  "version and will not load; fix: write cudnn: \"8.9\""));
  auto cuda11 =
      load_mem({{"p.yaml", "name: p\ncuda: { toolkit: \"11.8\" }\ntensorflow: { version: \"2.16.*\" }\n"}}, "p.yaml");
  CHECK(has_issue(cuda11, "TensorFlow 2.16 is built for CUDA 12.3; CUDA 11.8 is a different major version"));
  auto older =
      load_mem({{"p.yaml", "name: p\ncuda: { toolkit: \"12.2\" }\ntensorflow: { version: \"2.18.*\" }\n"}}, "p.yaml");
  CHECK(older.ok());
  CHECK(has_issue(older, "minor-version compatibility", IssueSeverity::warning));
  auto bogus =
      load_mem({{"p.yaml", "name: p\ncuda: { toolkit: \"12.7\" }\ntensorflow: { version: \"2.18.*\" }\n"}}, "p.yaml");
  CHECK(has_issue(bogus, "CUDA 12.7 is not a CUDA release"));
}

TEST_CASE("validation: and-cuda, tensorflow-gpu, Linux drivers in WSL, missing pieces", "[profile][validate]") {
  auto old_extra =
      load_mem({{"p.yaml", "name: p\ntensorflow: { version: \"2.13.*\", extras: [and-cuda] }\n"}}, "p.yaml");
  CHECK(has_issue(old_extra,
                  "tensorflow[and-cuda] exists from TensorFlow 2.14; tensorflow.version '2.13.*' allows only 2.13"));
  auto mixed_extra =
      load_mem({{"p.yaml", "name: p\ntensorflow: { version: \">=2.12,<2.16\", extras: [and-cuda] }\n"}}, "p.yaml");
  CHECK(mixed_extra.ok());
  CHECK(has_issue(mixed_extra, "also allows 2.12, 2.13", IssueSeverity::warning));
  auto typo_extra =
      load_mem({{"p.yaml", "name: p\ntensorflow: { version: \"2.15.*\", extras: [and_cuda] }\n"}}, "p.yaml");
  CHECK(has_issue(typo_extra, "TensorFlow has no extra 'and_cuda' (did you mean 'and-cuda'?)"));
  auto gpu = load_mem(
      {{"p.yaml", "name: p\ntensorflow: { version: \"2.15.*\" }\npackages: { pip: [\"tensorflow-gpu==2.11.0\"] }\n"}},
      "p.yaml");
  CHECK(has_issue(gpu, "the tensorflow-gpu package was removed in TensorFlow 2.12"));
  auto driver = load_mem({{"p.yaml",
                           "name: p\ncuda: { toolkit: \"12.2\" }\ntensorflow: { version: \"2.15.*\" }\n"
                           "packages: { apt: [cuda-drivers, nvidia-driver-535, cuda-12-2, cuda-toolkit-12-2] }\n"}},
                         "p.yaml");
  CHECK(has_issue(driver, "apt package 'cuda-drivers' installs a Linux NVIDIA driver inside WSL"));
  CHECK(has_issue(driver, "apt package 'nvidia-driver-535'"));
  CHECK(has_issue(driver, "apt package 'cuda-12-2'"));
  CHECK_FALSE(has_issue(driver, "'cuda-toolkit-12-2' installs"));
  CHECK(has_issue(driver, "use cuda-toolkit-12-2"));
  auto empty = load_mem({{"e.yaml", "distro: Ubuntu-22.04\n"}}, "e.yaml");
  CHECK(has_issue(empty, "e.yaml: error: the profile has no name"));
  CHECK(has_issue(empty, "e.yaml: error: the profile does not say which TensorFlow to install"));
  // A key that is there with a value it refuses is reported once, for what is wrong with it, and
  // never also as missing ("has no name" about a file whose first line is its name).
  auto bad_name = load_mem({{"b.yaml", "name: \"bad name!\"\ntensorflow: { version: \"2.15.*\" }\n"}}, "b.yaml");
  CHECK(has_issue(bad_name, "profile name 'bad name!' may only use letters"));
  CHECK_FALSE(has_issue(bad_name, "the profile has no name"));
  auto list_name = load_mem({{"l.yaml", "name: [a, b]\ntensorflow: { version: \"2.15.*\" }\n"}}, "l.yaml");
  CHECK(has_issue(list_name, "'name' must be a single value, not a list"));
  CHECK_FALSE(has_issue(list_name, "the profile has no name"));
  auto bad_tf = load_mem({{"t.yaml", "name: t\ntensorflow: { version: [2] }\n"}}, "t.yaml");
  CHECK(has_issue(bad_tf, "t.yaml:2:"));
  CHECK_FALSE(has_issue(bad_tf, "does not say which TensorFlow to install"));
  auto none = load_mem({{"p.yaml", "name: p\ntensorflow: { version: \">=3\" }\n"}}, "p.yaml");
  CHECK(has_issue(none, "allows no TensorFlow release tfwsl knows (2.9 to 2.21)"));
}

TEST_CASE("validation: the native-Windows route stops at TF 2.10", "[profile][validate]") {
  auto ok = load_mem({{"n.yaml",
                       "name: n\nroute: native-windows\ncuda: { toolkit: \"11.2\", cudnn: \"8.1\" }\n"
                       "python: { version: \"3.10\" }\ntensorflow: { version: \"<2.11\" }\n"}},
                     "n.yaml");
  INFO(all_issues(ok));
  CHECK(ok.ok());
  CHECK(ok.issues.empty());  // the default distro does not count as "set"
  auto too_new =
      load_mem({{"n.yaml", "name: n\nroute: native-windows\ntensorflow: { version: \"2.15.*\" }\n"}}, "n.yaml");
  CHECK(has_issue(too_new,
                  "n.yaml:3:24: error: tensorflow.version '2.15.*' allows TensorFlow 2.11 or later, which has no GPU "
                  "support on native Windows (the last was 2.10); fix: use route: wsl"));
  auto mixed = load_mem({{"n.yaml", "name: n\nroute: native-windows\ntensorflow: { version: \">=2.9\" }\n"}}, "n.yaml");
  CHECK(has_issue(mixed, "add an upper bound: \">=2.9,<2.11\""));
  auto py = load_mem(
      {{"n.yaml",
        "name: n\nroute: native-windows\npython: { version: \"3.11\" }\ntensorflow: { version: \"==2.10.*\" }\n"
        "wsl: { memory: 8GB }\n"}},
      "n.yaml");
  CHECK(has_issue(py, "TensorFlow 2.10 on Windows supports Python 3.7-3.10, not 3.11"));
  CHECK(has_issue(py, "'wsl' settings do not apply to route native-windows", IssueSeverity::warning));
}

TEST_CASE("command-line overrides: typed like the file, unknown settings suggested", "[profile]") {
  Profile p = *load_mem({{"p.yaml", k_good}}, "p.yaml").profile;
  CHECK(apply_profile_override(p, "wsl.memory=24GB").empty());
  CHECK(*p.wsl_memory == 24ULL << 30);
  CHECK(apply_profile_override(p, "tensorflow.extras=[]").empty());
  CHECK(p.tensorflow_extras->empty());
  auto bad = apply_profile_override(p, "wsl.memroy=8GB");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].to_string() ==
        "<command line>: error: unknown setting 'wsl.memroy' (did you mean 'wsl.memory'?); fix: write wsl.memory=...");
  CHECK(apply_profile_override(p, "novalue").size() == 1);
  auto bad_size = apply_profile_override(p, "wsl.swap=lots");
  REQUIRE(bad_size.size() == 1);
  CHECK(bad_size[0].message.find("invalid size 'lots'") != std::string::npos);
  CHECK(*p.wsl_swap == 8ULL << 30);  // unchanged
}

TEST_CASE("emit round-trips: loading the output gives the same profile", "[profile]") {
  std::vector<std::string> names = shipped_profile_names();
  std::vector<std::pair<std::string, Profile>> profiles;
  profiles.emplace_back("sketch", *load_mem({{"p.yaml", k_good}}, "p.yaml").profile);
  for (const auto& n : names) profiles.emplace_back(n, *load_profile(n).profile);
  ProfileLoadOptions raw;
  raw.apply_builtin_defaults = false;
  for (const auto& [name, p] : profiles) {
    INFO(name);
    const std::string yaml = emit_profile(p);
    auto again = load_mem({{"again.yaml", yaml}}, "again.yaml", raw);
    INFO(yaml);
    INFO(all_issues(again));
    REQUIRE(again.profile);
    CHECK_FALSE(has_errors(again.issues));
    CHECK(emit_profile(*again.profile) == yaml);
    auto flat_a = flatten_profile(p);
    auto flat_b = flatten_profile(*again.profile);
    REQUIRE(flat_a.size() == flat_b.size());
    for (std::size_t i = 0; i < flat_a.size(); ++i) {
      CHECK(flat_a[i].key == flat_b[i].key);
      CHECK(flat_a[i].value == flat_b[i].value);
    }
  }
  const std::string sketch = emit_profile(profiles[0].second);
  CHECK(sketch.find("version: \"3.10\"") != std::string::npos);  // never the number 3.1
  CHECK(sketch.find("memory: 16GB") != std::string::npos);
  CHECK(sketch.find("extends") == std::string::npos);
}

TEST_CASE("the shipped profiles all load and validate", "[profile][shipped]") {
  const auto names = shipped_profile_names();
  CHECK(names == std::vector<std::string>{"container-tf-2.15-cuda-12.2", "legacy-native-tf-2.10", "ngc-tf-25.02",
                                          "tf-2.15-cuda-12.2", "tf-2.16-cuda-12.3", "tf-2.17-cuda-12.3",
                                          "tf-2.18-cuda-12.5", "tf-2.19-cuda-12.5", "tf-2.20-cuda-12.5",
                                          "tf-2.21-cuda-12.5"});
  CHECK(default_profile_name() == "tf-2.15-cuda-12.2");
  for (const auto& name : names) {
    auto r = load_profile(name);
    INFO(name << "\n" << all_issues(r));
    REQUIRE(r.ok());
    CHECK(r.issues.empty());
    CHECK(*r.profile->name == name);
    if (name.rfind("tf-", 0) == 0) {
      const TfRelease* target = target_tf_release(*r.profile, builtin_compat_db());
      REQUIRE(target);
      CHECK(name.rfind("tf-" + target->release.to_string() + "-cuda-" + target->cuda.to_string(), 0) == 0);
      CHECK(*r.profile->cuda_toolkit == target->cuda.to_string());
      CHECK(*r.profile->cuda_cudnn == target->cudnn.to_string());
      CHECK(*r.profile->tensorflow_extras == std::vector<std::string>{"and-cuda"});
    }
  }
  const Profile def = *load_valid_profile(default_profile_name());
  CHECK(*def.distro == "Ubuntu-22.04");
  CHECK(*def.python_version == "3.10");
  CHECK(*def.tensorflow_version == "2.15.*");
  CHECK(cuda_toolkit_apt_package(*def.cuda_toolkit) == "cuda-toolkit-12-2");
  const Profile legacy = *load_valid_profile("legacy-native-tf-2.10");
  CHECK(*legacy.route == ProfileRoute::native_windows);
  CHECK(builtin_compat_db().native_gpu_fit(*VersionSpec::parse(*legacy.tensorflow_version)) == NativeGpuFit::native_ok);
  CHECK_FALSE(open_builtin_profile("compat").has_value());
}

TEST_CASE("control characters and broken UTF-8 in values are errors, not silently kept", "[profile]") {
  auto ctl =
      load_mem({{"c.yaml", "name: c\ndistro: \"Ubuntu\\x01-22.04\"\npackages: { apt: [\"git\\u0007\"] }\n"}}, "c.yaml");
  CHECK(has_issue(ctl, "c.yaml:2:9: error: 'distro' contains control characters or is not valid UTF-8"));
  CHECK(has_issue(ctl, "each item of 'packages.apt' must be a single non-empty value"));
  auto utf8 = load_mem(
      {{"u.yaml", "name: u\npython: { venv: \"~/.venvs/caf\xc3\xa9\" }\ntensorflow: { version: \"2.15.*\" }\n"}},
      "u.yaml");
  INFO(all_issues(utf8));
  CHECK(utf8.ok());
  CHECK(*utf8.profile->python_venv == "~/.venvs/caf\xc3\xa9");
}

// Issue 43, item 8: advice that can be followed. No Ubuntu's python3 is 2.7 and no TensorFlow
// release will support it: "use a distro whose python3 is 2.7" and "yet" both sent the user nowhere.
TEST_CASE("python.version 2.7 is told to go, not to find a distro or wait for a release", "[profile]") {
  auto r = load_mem({{"old.yaml", "name: old\npython: { version: \"2.7\" }\ntensorflow: { version: \"2.15.*\" }\n"}},
                    "old.yaml");
  INFO(all_issues(r));
  CHECK(has_issue(r, "drop python.version: no Ubuntu release's python3 is 2.7", IssueSeverity::warning));
  CHECK_FALSE(has_issue(r, "whose python3 is 2.7", IssueSeverity::warning));
  CHECK(has_issue(r, "Python 2.7 is older than any TensorFlow release supports"));
  CHECK_FALSE(has_issue(r, "supports Python 2.7 yet"));
  auto newer = load_mem(
      {{"new.yaml", "name: new\npython: { version: \"3.14\" }\ntensorflow: { version: \"2.15.*\" }\n"}}, "new.yaml");
  INFO(all_issues(newer));
  CHECK(has_issue(newer, "no TensorFlow release supports Python 3.14 yet"));
}
