// Issue 38, item 4: a project's text reaches the terminal before migrate's question. Escape
// sequences in a .py line, in a `-r` include's name or in a file name, and a file name holding a line
// break and "Requirements:", must neither act on the terminal nor forge or erase a line of the plan;
// a run line whose word holds one names it instead of printing a command that is not what runs.
#include <catch2/catch.hpp>
#include <string>

#include "common/util/text_lines.hpp"
#include "common/util/visible_text.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

const std::string k_title_and_erase = "\x1b]0;OWNED\x07\x1b[1A\x1b[2K";

// No ESC, CR, BEL or other C0 control but the line ends, no C1 control: each line as visible_text shows it.
void require_no_raw_controls(const std::string& text) {
  INFO(text);
  CHECK(text.find('\r') == std::string::npos);
  for (std::string_view line : lines_of(text)) CHECK_FALSE(needs_visible_text(line));
}

MigratePlan hostile_plan(migrate::test::FakeProjectFiles& fs) {
  static const auto profiles = shipped_wsl_profiles();
  fs.drives = std::set<char>{'c', 'd'};
  auto plan = build_plan({fs, "flowers", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  return *plan;
}

}  // namespace

TEST_CASE("migrate's plan shows a project's escape sequences and line breaks visibly", "[migrate][terminal]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\n-r \x1b[2J.txt\npandas" + k_title_and_erase + "==1.0\n";
  fs.files["train.py"] = "import tensorflow as tf\ndata = 'D:\\\\sets\\\\x" + k_title_and_erase + "'\n";
  fs.files["requirements-\nRequirements:\n  fake.txt -> ok.txt [create]\n.txt"] =
      "numpy\xC2\x9b"
      "2J\n";
  const MigratePlan plan = hostile_plan(fs);
  const std::string text = render_text(plan);
  require_no_raw_controls(text);
  // Exactly one "Requirements:" heading: the file name's stays inside its line.
  std::size_t headings = 0;
  for (std::string_view line : lines_of(text)) headings += line == "Requirements:";
  CHECK(headings == 1);
  CHECK(text.find("\\x1b]0;OWNED\\x07\\x1b[1A\\x1b[2K") != std::string::npos);
  CHECK(text.find("requirements-\\nRequirements:\\n  fake.txt") != std::string::npos);
}

TEST_CASE("migrate's run lines name a main file with an escape sequence instead of printing it",
          "[migrate][terminal]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\n";
  fs.files["train" + k_title_and_erase + ".py"] = "import tensorflow as tf\nif __name__ == '__main__':\n    pass\n";
  const auto run = how_to_run(with_home(hostile_plan(fs), "/home/tf"));
  for (const std::string& line : {run.wsl, run.wsl_cmd, run.in_wsl, run.vscode}) {
    INFO(line);
    CHECK_FALSE(needs_visible_text(line));
  }
  CHECK(run.wsl.rfind("(command not shown: its argument 'train\\x1b]0;OWNED", 0) == 0);
}
