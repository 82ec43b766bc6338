// The requirements parser's additions for migrate: a format given by the file name, Pipfile,
// --constraint, and setup.py read only inside its requirement lists.
#include <catch2/catch.hpp>

#include "common/parse/requirements_parser.hpp"

using namespace tfwsl::parse;

TEST_CASE("Pipfile: packages, dev-packages, python_version", "[migrate][parser]") {
  auto r = parse_requirements(
      "[packages]\ntensorflow = \"==2.15.0\"\nrequests = {version = \">=2.28\", extras = [\"socks\"]}\n"
      "any = \"*\"\n[dev-packages]\npytest = \"*\"\n[requires]\npython_version = \"3.11\"\n",
      RequirementsFormat::pipfile);
  CHECK(r.format == RequirementsFormat::pipfile);
  REQUIRE(r.requirements.size() == 4);
  CHECK(r.requirements[0].package == "tensorflow");
  CHECK(r.requirements[0].spec == "==2.15.0");
  CHECK(r.requirements[1].extras == std::vector<std::string>{"socks"});
  CHECK(r.requirements[2].spec.empty());
  REQUIRE(r.python);
  CHECK(r.python->spec == "3.11");
}

TEST_CASE("a format given by name is not guessed, a Poetry pyproject stays Poetry", "[migrate][parser]") {
  // Read as requirements.txt this text would be a conda file (it has dependencies: and - items).
  auto txt = parse_requirements("dependencies:\n- numpy\n", RequirementsFormat::requirements_txt);
  CHECK(txt.format == RequirementsFormat::requirements_txt);
  auto poetry =
      parse_requirements("[tool.poetry.dependencies]\ntensorflow = \"^2.15\"\n", RequirementsFormat::pyproject_pep621);
  CHECK(poetry.format == RequirementsFormat::poetry);
  REQUIRE(poetry.requirements.size() == 1);
}

TEST_CASE("constraint files (-c, --constraint) are includes", "[migrate][parser]") {
  auto r = parse_requirements("-c constraints.txt\n--constraint=more.txt\n--requirement base.txt\nnumpy\n");
  CHECK(r.includes == std::vector<std::string>{"constraints.txt", "more.txt", "base.txt"});
}

TEST_CASE("setup.py: only the strings of its requirement lists count", "[migrate][parser]") {
  auto r = parse_requirements(
      "from setuptools import setup\nsetup(\n    name=\"flowers\",\n"
      "    long_description=open(\"README.md\").read(),\n    install_requires=[\n"
      "        \"tensorflow>=2.12\",  # gpu\n        'numpy',\n    ],\n"
      "    extras_require={'dev': ['pytest'], 'docs': [\n        'sphinx']},\n"
      "    package_data={'flowers': ['data.json']},\n    python_requires='>=3.9',\n)\n",
      RequirementsFormat::setup_py);
  std::vector<std::string> names;
  for (const auto& req : r.requirements) names.push_back(req.package);
  CHECK(names == std::vector<std::string>{"tensorflow", "numpy", "pytest", "sphinx"});  // not the extras' names
  REQUIRE(r.python);
  CHECK(r.python->spec == ">=3.9");
}
