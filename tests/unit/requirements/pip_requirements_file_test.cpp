#include "common/parse/pip_requirements_file.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace tfwsl;
using namespace tfwsl::parse;

namespace {

std::vector<std::string> texts(const std::vector<PipRequirementLine>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(l.text);
  return out;
}

PipFileReader reader_of(const std::map<std::string, std::string>& files) {
  return [files](const std::string& path) -> Result<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return make_error(ErrorCode::not_found, path + ": no such file");
    return it->second;
  };
}

}  // namespace

TEST_CASE("pip requirements: comments, blanks, continuations, options", "[pip-requirements]") {
  const auto parsed = parse_pip_requirements_text(
      "\xEF\xBB\xBF# a comment\n"
      "\n"
      "numpy>=1.26  # pinned for TF\n"
      "--extra-index-url https://example.invalid/simple\n"
      "-f ./wheels\n"
      "--no-index\n"
      "tensorflow[and-cuda]\\\n"
      "==2.15.1 \\\n"
      "    --hash=sha256:0123\n"
      "pywin32; sys_platform == \"win32\"\n"
      "url#frag-not-comment\n",
      "req.txt");
  REQUIRE(texts(parsed.lines) == std::vector<std::string>{"numpy>=1.26", "tensorflow[and-cuda]==2.15.1",
                                                          "pywin32; sys_platform == \"win32\"",
                                                          "url#frag-not-comment"});
  CHECK(parsed.lines[0].line == 3);
  CHECK(parsed.lines[1].line == 7);  // a joined line is where it starts
  CHECK(parsed.lines[2].line == 10);
  CHECK(parsed.lines[0].file == "req.txt");
  for (int i = 0; i < 3; ++i) CHECK(parsed.lines[i].kind == PipLineKind::requirement);
  CHECK(parsed.includes.empty());
}

TEST_CASE("pip requirements: includes in every spelling", "[pip-requirements]") {
  const auto parsed = parse_pip_requirements_text(
      "-r base.txt\n--requirement=dev.txt\n--requirement more.txt\n-rtight.txt\n"
      "-c constraints.txt\n--constraint=c2.txt\n",
      "req.txt");
  REQUIRE(parsed.includes.size() == 6);
  CHECK(parsed.includes[0].target == "base.txt");
  CHECK(parsed.includes[1].target == "dev.txt");
  CHECK(parsed.includes[2].target == "more.txt");
  CHECK(parsed.includes[3].target == "tight.txt");
  CHECK(parsed.includes[4].target == "constraints.txt");
  CHECK(parsed.includes[4].constraint);
  CHECK(parsed.includes[5].constraint);
  CHECK_FALSE(parsed.includes[0].constraint);
  CHECK(parsed.includes[0].line == 1);
}

TEST_CASE("pip requirements: URLs, paths and editables are not checkable requirements", "[pip-requirements]") {
  const auto parsed = parse_pip_requirements_text(
      "pkg @ https://example.invalid/pkg-1.0.tar.gz\n./local/project\n"
      "/abs/dist/x-1.0-py3-none-any.whl\nx-1.0-py3-none-any.whl\n"
      "git+https://example.invalid/repo.git#egg=repo\n"
      "https://example.invalid/y.zip\n-e .\n--editable ../lib\n"
      "this is prose, not a requirement\n",
      "req.txt");
  REQUIRE(parsed.lines.size() == 9);
  for (int i = 0; i < 6; ++i) CHECK(parsed.lines[i].kind == PipLineKind::direct_reference);
  CHECK(parsed.lines[6].kind == PipLineKind::editable);
  CHECK(parsed.lines[6].text == "-e .");
  CHECK(parsed.lines[7].kind == PipLineKind::editable);
  CHECK(parsed.lines[8].kind == PipLineKind::unparsed);
}

TEST_CASE("pip requirements: includes are read relative to the including file, once each", "[pip-requirements]") {
  auto read = read_pip_requirements(
      {"proj/requirements.txt"},
      reader_of({{"proj/requirements.txt", "-r reqs/base.txt\nnumpy\n-c constraints.txt\n"},
                 {"proj/reqs/base.txt", "pyyaml>=6\n-r ../requirements.txt\n-r https://example.invalid/r.txt\n"},
                 {"proj/constraints.txt", "numpy<2\n"}}));
  REQUIRE(read);
  CHECK(texts(read->lines) ==
        std::vector<std::string>{"pyyaml>=6", "-r https://example.invalid/r.txt", "numpy", "numpy<2"});
  CHECK(read->lines[0].file == "proj/reqs/base.txt");
  CHECK(read->lines[1].kind == PipLineKind::direct_reference);
  CHECK_FALSE(read->lines[2].constraint);
  CHECK(read->lines[3].constraint);
  CHECK(read->files == std::vector<std::string>{"proj/requirements.txt", "proj/reqs/base.txt", "proj/constraints.txt"});
}

TEST_CASE("pip requirements: a missing file or include is an error naming it", "[pip-requirements]") {
  auto missing = read_pip_requirements({"nope.txt"}, reader_of({}));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().describe().find("nope.txt") != std::string::npos);
  auto include = read_pip_requirements({"a/req.txt"}, reader_of({{"a/req.txt", "x\n-r gone.txt\n"}}));
  REQUIRE_FALSE(include);
  const std::string why = include.error().describe();
  CHECK(why.find("a/gone.txt") != std::string::npos);
  CHECK(why.find("a/req.txt:2") != std::string::npos);  // where it was named
}
