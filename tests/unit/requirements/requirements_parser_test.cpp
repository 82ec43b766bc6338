#include "common/parse/requirements_parser.hpp"

#include <catch2/catch.hpp>

#include "common/diagnose/signature_base.hpp"
#include "common/diagnose/tensorflow_range.hpp"

using namespace tfwsl::parse;
using tfwsl::diagnose::to_pep440_spec;

namespace {

const DeclaredRequirement& tf_of(const RequirementsResult& r) {
  const DeclaredRequirement* tf = find_tensorflow(r);
  REQUIRE(tf != nullptr);
  return *tf;
}

}  // namespace

TEST_CASE("requirements.txt: options, includes, markers, extras and comments") {
  auto r = parse_requirements(
      "-r base.txt\n--extra-index-url https://x\n# comment\n"
      "numpy>=1.22 ; python_version >= '3.8'\n"
      "TensorFlow[and-cuda] >= 2.15 , < 2.17  # pinned\n"
      "pkg @ https://example.com/pkg.whl\n");
  CHECK(r.format == RequirementsFormat::requirements_txt);
  REQUIRE(r.includes.size() == 1);
  CHECK(r.includes[0] == "base.txt");
  const auto& tf = tf_of(r);
  CHECK(tf.package == "tensorflow");
  CHECK(tf.spec == ">=2.15,<2.17");
  REQUIRE(tf.extras.size() == 1);
  CHECK(tf.extras[0] == "and-cuda");
  CHECK(r.requirements[0].marker == "python_version >= '3.8'");
}

TEST_CASE("environment.yml: conda specs with spaces and the pip subsection") {
  auto r = parse_requirements(
      "name: env\nchannels:\n  - conda-forge\ndependencies:\n  - python =3.10  # note\n"
      "  - cudatoolkit <12\n  - conda-forge::cudnn=8.1.0\n  - pip\n  - pip:\n"
      "    - tensorflow <2.11  # last native\n    - \"other[x]\"\n");
  CHECK(r.format == RequirementsFormat::conda_environment);
  const auto& tf = tf_of(r);
  CHECK(tf.spec == "<2.11");
  CHECK_FALSE(tf.conda);
  auto facts = to_json(r);
  CHECK(facts["conda_packages"] == nlohmann::json({"python", "cudatoolkit", "cudnn", "pip"}));
  CHECK(facts["tensorflow"] == nlohmann::json({{"package", "tensorflow"}, {"spec", "<2.11"}}));
}

TEST_CASE("environment.yml: a conda version range in quotes (conda's match spec allows it)") {
  auto r = parse_requirements(
      "name: env\ndependencies:\n  - python='3.10'\n  - tensorflow-gpu=\"2.6.*\"\n  - numpy='>=1.20,<1.24'\n");
  REQUIRE(r.python);
  CHECK(r.python->spec == "=3.10");
  CHECK(tf_of(r).spec == "=2.6.*");
  CHECK(r.requirements.size() == 3);
}

TEST_CASE("pyproject.toml: PEP 621 arrays and Poetry tables") {
  auto pep621 = parse_requirements(
      "[project]\nname = \"x\"\ndependencies = [\n  \"numpy\",\n  \"tensorflow-cpu>=2.10,<2.11\",\n]\n");
  CHECK(pep621.format == RequirementsFormat::pyproject_pep621);
  CHECK(tf_of(pep621).package == "tensorflow-cpu");
  CHECK(tf_of(pep621).spec == ">=2.10,<2.11");
  auto poetry = parse_requirements(
      "[tool.poetry.dependencies]\npython = \"^3.10\"\n"
      "tensorflow = {version = \"^2.15\", extras = [\"and-cuda\"]}\n");
  CHECK(poetry.format == RequirementsFormat::poetry);
  CHECK(tf_of(poetry).spec == "^2.15");
  CHECK(tf_of(poetry).extras == std::vector<std::string>{"and-cuda"});
}

TEST_CASE("setup.cfg: install_requires continuation lines") {
  auto r =
      parse_requirements("[metadata]\nname = x\n[options]\ninstall_requires =\n    numpy\n    tensorflow-gpu==2.6.0\n");
  CHECK(r.format == RequirementsFormat::setup_cfg);
  CHECK(tf_of(r).package == "tensorflow-gpu");
  CHECK(tf_of(r).spec == "==2.6.0");
}

TEST_CASE("requirements: no TensorFlow, prose and the recogniser") {
  CHECK(find_tensorflow(parse_requirements("numpy\nscipy\n")) == nullptr);
  CHECK(looks_like_requirements("numpy==1.2\nscipy>=1.0\ntensorflow\n") >= 0.5);
  CHECK(looks_like_requirements("Hello there, this is a sentence.\nAnother one here.\n") < 0.5);
}

TEST_CASE("spec translation: conda and poetry forms to PEP 440") {
  CHECK(to_pep440_spec("=2.10", true) == "==2.10.*");
  CHECK(to_pep440_spec("^2.15", false) == ">=2.15,<3.0");
  CHECK(to_pep440_spec("~2.15", false) == ">=2.15,<2.16");
  CHECK(to_pep440_spec("~=2.17.0", false) == "~=2.17.0");
  CHECK(to_pep440_spec(">=2.7.0,<2.11.0", false) == ">=2.7.0,<2.11.0");
}

TEST_CASE("TensorFlow ranges: native Windows, WSL only, TF 1") {
  const auto& base = tfwsl::diagnose::builtin_signature_base();
  REQUIRE(base);
  auto allows = [&base](const std::string& line) {
    auto r = parse_requirements(line + "\n");
    auto range = tfwsl::diagnose::tensorflow_allows(tf_of(r), *base);
    REQUIRE(range.has_value());
    return tfwsl::diagnose::to_json(*range);
  };
  auto native = allows("tensorflow>=2.7.0,<2.11.0");
  CHECK(native["native_gpu"] == true);
  CHECK(native["wsl_only"] == false);
  auto wsl = allows("tensorflow~=2.17.0");
  CHECK(wsl["native_gpu"] == false);
  CHECK(wsl["wsl_only"] == true);
  auto and_cuda = allows("tensorflow[and-cuda]");
  CHECK(and_cuda["native_gpu"] == false);
  CHECK(and_cuda["wsl_only"] == true);
  auto open = allows("tensorflow");
  CHECK(open["native_gpu"] == true);
  CHECK(open["wsl_only"] == true);
  auto tf1 = allows("tensorflow==1.12.3");
  CHECK(tf1["tf2"] == false);
  CHECK(tf1["any"] == true);
  auto nightly = allows("tf-nightly==2.16.0.dev20231103");
  CHECK(nightly["wsl_only"] == true);
  CHECK(nightly["native_gpu"] == false);
  auto conda = allows("name: e\ndependencies:\n  - tensorflow=2.10");
  CHECK(conda["native_gpu"] == true);
  CHECK(conda["wsl_only"] == false);
}

// Issue 38, item 3: 400 KB of `a.a.a...` overflowed the stack in toml++ (SIGSEGV) wherever a
// pyproject.toml or Pipfile is read: migrate, and `tfwsl explain` on a pasted one.
TEST_CASE("pyproject.toml and Pipfile: a dotted key or header 200,000 parts deep reads as nothing, without a crash") {
  std::string dotted;
  for (int i = 0; i < 200000; ++i) dotted += "a.";
  for (const std::string& text : {"[project]\ndependencies = [\"tensorflow==2.15.0\"]\n" + dotted + "a = 1\n",
                                  "[project]\ndependencies = [\"tensorflow==2.15.0\"]\n[" + dotted + "a]\n"}) {
    CHECK(parse_requirements(text, RequirementsFormat::pyproject_pep621).requirements.empty());
    CHECK(parse_requirements(text, RequirementsFormat::pipfile).requirements.empty());
  }
}
