// The classes of issue 23, each on a real project's files (tests/corpus/migrate-real).
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/diagnose/tensorflow_range.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/version/version_spec.hpp"
#include "tests/unit/migrate/real_corpus.hpp"
#include "win/migrate/migrate_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

Result<MigratePlan> plan_real(const std::string& name, const std::string& profile = "") {
  static const auto profiles = shipped_wsl_profiles();
  static auto fs = migrate::test::FakeProjectFiles{};
  fs = migrate::test::real_project(name);
  REQUIRE_FALSE(fs.files.empty());
  return build_plan({fs, "proj", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles, "", profile});
}

std::string target_of(const MigratePlan& p) { return p.decision.target ? p.decision.target->series.to_string() : ""; }

bool translated(const MigratePlan& p, const std::string& from, const std::string& to) {
  return std::any_of(p.translation.translated.begin(), p.translation.translated.end(),
                     [&](const TranslatedRequirement& t) { return t.from == from && t.to == to; });
}

bool kept(const MigratePlan& p, const std::string& name) {
  return std::find(p.translation.kept.begin(), p.translation.kept.end(), name) != p.translation.kept.end();
}

}  // namespace

TEST_CASE("valid TOML with quoted keys is read (keras-team/keras pyproject.toml)", "[migrate][real][toml]") {
  auto plan = plan_real("real-keras3-keras-quoted-keys");
  REQUIRE(plan);
  CHECK(plan->decision.decision == Decision::needs_wsl);
  CHECK(target_of(*plan) == "2.20");
  CHECK(translated(*plan, "tensorflow-cpu", "tensorflow[and-cuda]==2.20.*"));
}

TEST_CASE("Poetry tables: a bare version is ==, dev-only TensorFlow is read (spleeter, keras-ocr)",
          "[migrate][real][toml]") {
  auto spleeter = plan_real("real-spleeter-poetry");
  REQUIRE(spleeter);
  CHECK(spleeter->decision.decision == Decision::ambiguous);  // ==2.12.1: no shipped profile
  auto ocr = plan_real("real-keras-ocr-poetry-dev");
  REQUIRE(ocr);
  CHECK(ocr->decision.decision == Decision::needs_wsl);
  CHECK(kept(*ocr, "efficientnet"));
}

TEST_CASE("a pyproject.toml that is not TOML names file:line:col and changes nothing", "[migrate][real][toml]") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs = migrate::test::real_project("real-keras3-keras-quoted-keys");
  fs.files["pyproject.toml"].insert(fs.files["pyproject.toml"].find("[project]"), "[broken\n");
  auto plan = build_plan({fs, "proj", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("pyproject.toml:") == 0);
  CHECK(plan.error().message.find("nothing was changed") != std::string::npos);
}

TEST_CASE("setup.py pins behind a module-level variable are read (magenta, GPflow, keras-tcn)",
          "[migrate][real][setup-py]") {
  auto magenta = plan_real("real-magenta-setup-variable");
  REQUIRE(magenta);
  CHECK(magenta->decision.decision == Decision::native_ok);  // 'tensorflow == 2.9.1' in REQUIRED_PACKAGES
  CHECK(translated(*magenta, "tensorflow==2.9.1", "tensorflow[and-cuda]==2.15.*"));
  auto gpflow = plan_real("real-gpflow-requirements-variable");
  REQUIRE(gpflow);
  REQUIRE_FALSE(gpflow->decision.pins.empty());
  CHECK(gpflow->decision.pins.front().spec == ">=2.4.0");
  auto tcn = plan_real("real-keras-tcn-conditional");
  REQUIRE(tcn);
  CHECK(translated(*tcn, "tensorflow", "tensorflow[and-cuda]==2.15.*"));
}

TEST_CASE("setup.py that reads a file follows it, what is computed is named, not guessed",
          "[migrate][real][setup-py]") {
  auto tfrs = plan_real("real-tfrs-pathlib-read-text");
  REQUIRE(tfrs);
  CHECK(std::any_of(tfrs->scan.notes.begin(), tfrs->scan.notes.end(), [](const std::string& n) {
    return n.find("install_requires reads requirements.txt") != std::string::npos;
  }));
  auto stellar = plan_real("real-stellargraph-fstring");
  REQUIRE(stellar);
  CHECK(std::any_of(stellar->scan.notes.begin(), stellar->scan.notes.end(), [](const std::string& n) {
    return n.find("setup.py:") == 0 && n.find("is computed (an f-string): not read") != std::string::npos;
  }));
  CHECK(stellar->decision.python_ok == std::optional<bool>(false));  // python_requires >=3.6.0, <3.9.0
}

TEST_CASE("a Keras 3 pin stays Keras 3: keras==3.3.3 next to TF 2.16 (keras-nlp)", "[migrate][real][keras]") {
  auto plan = plan_real("real-keras-nlp-keras3-pin");
  REQUIRE(plan);
  CHECK(target_of(*plan) == "2.16");
  CHECK_FALSE(plan->decision.legacy_keras);
  CHECK(kept(*plan, "keras"));
  CHECK(plan->translation.added.empty());
}

TEST_CASE("a spec admits a series by its interval, not by probing made-up versions", "[migrate][keras]") {
  const auto series = [](const char* spec, const char* s) {
    return VersionSpec::parse(spec)->admits_series(version_literal(s));
  };
  CHECK(series("==3.3.3", "3"));
  CHECK_FALSE(series("==3.3.3", "2"));
  CHECK(series(">=3.1,<3.2", "3"));  // 3.3.0 would have said no
  CHECK(series(">=2.2.0", "2"));
  CHECK(series(">=2.2.0", "3"));
  CHECK_FALSE(series("<3", "3"));
  CHECK(series("~=2.15.0", "2.15"));
  CHECK_FALSE(series("~=2.15.0", "2.16"));
  CHECK(series("==2.16.*", "2.16"));
  CHECK_FALSE(series("==2.15.1,!=2.15.1", "2.15"));
}

TEST_CASE("conda files by other names, in subfolders, are read, recipes are not (stardist, CSBDeep, deepchem)",
          "[migrate][real][conda]") {
  auto stardist = plan_real("real-stardist-conda-subfolder");
  REQUIRE(stardist);
  CHECK(stardist->decision.decision == Decision::native_ok);
  auto deepchem = plan_real("real-deepchem-env-subfolder");
  REQUIRE(deepchem);
  CHECK(translated(*deepchem, "tensorflow<2.16", "tensorflow[and-cuda]==2.15.*"));
  auto spleeter = plan_real("real-spleeter-poetry");
  REQUIRE(spleeter);
  for (const auto& f : spleeter->scan.requirements) CHECK(f.path != "conda/spleeter/meta.yaml");
}

TEST_CASE("a conda match spec with a build string pins the version (name=version=build, name version build)",
          "[migrate][conda]") {
  auto eq = parse::parse_requirement("tensorflow=2.18.1=cpu_py311h18e2dce_0", true, 1);
  REQUIRE(eq);
  CHECK(eq->spec == "=2.18.1=cpu_py311h18e2dce_0");  // as written
  CHECK(diagnose::to_pep440_spec(eq->spec, true) == "==2.18.1");
  auto spaced = parse::parse_requirement("tensorflow 2.6.0 cuda112py38hbe5352d_2", true, 1);
  REQUIRE(spaced);
  CHECK(spaced->spec == "=2.6.0=cuda112py38hbe5352d_2");
  CHECK(diagnose::to_pep440_spec(spaced->spec, true) == "==2.6.0");
  CHECK(diagnose::to_pep440_spec("=2.10", true) == "==2.10.*");
  auto channel = parse::parse_requirement("conda-forge::cudatoolkit=11.2", true, 1);
  REQUIRE(channel);
  CHECK(channel->package == "cudatoolkit");
  CHECK(channel->spec == "=11.2");
}

TEST_CASE("TF only in extras decides when they agree (alibi-detect), files that disagree are ambiguous (orthoseg)",
          "[migrate][real][alternatives]") {
  auto alibi = plan_real("real-alibi-detect-extras-tf-keras");
  REQUIRE(alibi);
  CHECK(alibi->decision.decision == Decision::needs_wsl);
  CHECK(target_of(*alibi) == "2.18");
  CHECK(alibi->decision.legacy_keras);
  auto ortho = plan_real("real-orthoseg-env-files-disagree");
  REQUIRE(ortho);
  CHECK(ortho->decision.decision == Decision::ambiguous);
  CHECK(std::any_of(ortho->decision.choices.begin(), ortho->decision.choices.end(),
                    [](const std::string& c) { return c.find("env-k2-win-gpu-dev.yml") != std::string::npos; }));
}

TEST_CASE("Pipfile and .python-version: a version is read, a pyenv environment name is not (steel, keras-cv)",
          "[migrate][real][python]") {
  auto steel = plan_real("real-pipfile-python-version");
  REQUIRE(steel);
  REQUIRE(steel->scan.python);
  CHECK(steel->scan.python->file == ".python-version");
  CHECK(steel->decision.python_ok == std::optional<bool>(false));
  auto cv = plan_real("real-keras-cv-pyenv-name");
  REQUIRE(cv);
  if (cv->scan.python)
    CHECK(cv->scan.python->file != ".python-version");  // setup.py's python_requires may still say one
}

TEST_CASE("migrate --profile picks the target, and is refused when the pins exclude it", "[migrate][real][profile]") {
  auto asked = plan_real("real-deepface-setup-reads-file", "tf-2.21-cuda-12.5");
  REQUIRE(asked);
  CHECK(target_of(*asked) == "2.21");
  CHECK(asked->decision.decision == Decision::needs_wsl);
  auto refused = plan_real("real-deepchem-env-subfolder", "tf-2.21-cuda-12.5");  // tensorflow<2.16
  REQUIRE(refused);
  CHECK(refused->decision.decision == Decision::ambiguous);
  CHECK(std::any_of(refused->decision.reasons.begin(), refused->decision.reasons.end(), [](const std::string& r) {
    return r.find("--profile tf-2.21-cuda-12.5 is refused") != std::string::npos;
  }));
  auto by_default = plan_real("real-deepface-setup-reads-file");
  REQUIRE(by_default);
  CHECK(target_of(*by_default) == "2.15");  // tensorflow>=1.9.0: Keras 2 by default
}

TEST_CASE("a hash-pinned requirement keeps its continuation and hashes when translated", "[migrate][translation]") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] =
      "tensorflow-gpu==2.10.0 \\\n    --hash=sha256:aaaa \\\n    --hash=sha256:bbbb\nnumpy==1.26.4 \\\n    "
      "--hash=sha256:cccc\n";
  auto plan = build_plan({fs, "proj", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  REQUIRE_FALSE(plan->translation.files.empty());
  CHECK(plan->translation.files.front().text ==
        "tensorflow[and-cuda]==2.15.* \\\n    --hash=sha256:aaaa \\\n    --hash=sha256:bbbb\nnumpy==1.26.4 \\\n    "
        "--hash=sha256:cccc\n");
}
