#include "common/util/text_wrap.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace tfwsl;

namespace {

WrapStyle style(std::size_t width, std::string first = "", std::string hanging = "") {
  WrapStyle s;
  s.width = width;
  s.first_indent = std::move(first);
  s.hanging_indent = std::move(hanging);
  s.starts_command = [](std::string_view w) { return w == "wsl" || w == "tfwsl"; };
  return s;
}

}  // namespace

TEST_CASE("wrap_lines breaks at spaces with a hanging indent and keeps every line within the width") {
  const auto lines = wrap_lines("the quick brown fox jumps over the lazy dog again and again", style(20, "- ", "  "));
  REQUIRE(lines.size() > 2);
  CHECK(lines[0].rfind("- the quick", 0) == 0);
  for (std::size_t i = 1; i < lines.size(); ++i) CHECK(lines[i].rfind("  ", 0) == 0);
  for (const auto& l : lines) CHECK(display_width(l) <= 20);
}

TEST_CASE("a command is never split: it moves to the next line whole") {
  const std::string text = "make WSL 2 the default: wsl --set-default-version 2 so new distributions get the GPU";
  const auto lines = wrap_lines(text, style(40, "fix: ", "     "));
  bool whole = false;
  for (const auto& l : lines) whole = whole || l.find("wsl --set-default-version 2") != std::string::npos;
  CHECK(whole);
  for (const auto& l : lines) {
    const bool no_command_or_whole =
        l.find("wsl --") == std::string::npos || l.find("wsl --set-default-version 2") != std::string::npos;
    CHECK(no_command_or_whole);
  }
}

TEST_CASE("a command ends where prose resumes or a clause ends") {
  const auto atoms =
      wrap_atoms("run wsl --shutdown so WSL loads it; tfwsl wslconfig set memory=16GB --apply, then retry", style(80));
  CHECK(std::find(atoms.begin(), atoms.end(), "wsl --shutdown") != atoms.end());
  CHECK(std::find(atoms.begin(), atoms.end(), "tfwsl wslconfig set memory=16GB --apply,") != atoms.end());
  CHECK(std::find(atoms.begin(), atoms.end(), "so") != atoms.end());
  CHECK(std::find(atoms.begin(), atoms.end(), "then") != atoms.end());
}

TEST_CASE("a quoted span is one atom, and an apostrophe in a word opens nothing") {
  const auto atoms = wrap_atoms("run 'python3 -c import' in the profile's venv", style(80));
  CHECK(atoms == std::vector<std::string>{"run", "'python3 -c import'", "in", "the", "profile's", "venv"});
}

TEST_CASE("a path is one word and an atom too long for a line gets a line of its own") {
  const std::string path = "/home/someone/a/rather/long/path/to/a/dataset/folder/that/goes/on";
  const auto lines = wrap_lines("copy " + path + " now", style(30, "", "  "));
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "  " + path);
}

TEST_CASE("display_width counts code points and skips colour sequences") {
  CHECK(display_width("\xE2\x9C\x93 ok") == 4);
  CHECK(display_width("\x1b[32mok\x1b[0m") == 2);
}

TEST_CASE("shorten_middle keeps the start and the end (the ETA) of a long status line") {
  const std::string line = "tfwsl data push: copying 1200/5000 files, 3.1 GiB/12.0 GiB, 85.0 MiB/s, ETA 1:47 (12 s)";
  const std::string shorter = shorten_middle(line, 60);
  CHECK(display_width(shorter) == 60);
  CHECK(shorter.rfind("tfwsl data push: copying", 0) == 0);
  CHECK(shorter.substr(shorter.size() - 15) == "ETA 1:47 (12 s)");
  CHECK(shorten_middle("short", 60) == "short");
  CHECK(display_width(shorten_middle(
            "\xE2\x9C\x93\xE2\x9C\x93\xE2\x9C\x93\xE2\x9C\x93\xE2\x9C\x93\xE2\x9C\x93\xE2\x9C\x93", 5)) == 5);
}

TEST_CASE("shorten_fields drops whole fields before the last, never cutting a number in two") {
  const std::string line =
      "tfwsl data push: copying 17%: 512/3000 files, 8.0/46.9 MiB, 12.0 MiB/s, 3 problems, ETA 0:03 (12 s)";
  CHECK(shorten_fields(line, 200, ", ") == line);
  CHECK(shorten_fields(line, 92, ", ") ==
        "tfwsl data push: copying 17%: 512/3000 files, 8.0/46.9 MiB, 12.0 MiB/s, ..., ETA 0:03 (12 s)");
  CHECK(shorten_fields(line, 80, ", ") ==
        "tfwsl data push: copying 17%: 512/3000 files, 8.0/46.9 MiB, ..., ETA 0:03 (12 s)");
  CHECK(shorten_fields(line, 79, ", ") == "tfwsl data push: copying 17%: 512/3000 files, ..., ETA 0:03 (12 s)");
  CHECK(shorten_fields(line, 66, ", ") == "tfwsl data push: copying 17%: 512/3000 files, ..., ETA 0:03 (12 s)");
  // No field boundary left to use: the middle is cut, as shorten_middle does.
  CHECK(shorten_fields(line, 40, ", ") == shorten_middle(line, 40));
  CHECK(shorten_fields("no fields here " + std::string(80, 'x'), 30, ", ") ==
        shorten_middle("no fields here " + std::string(80, 'x'), 30));
}

TEST_CASE("a quoted command ends at its closing quote") {
  const auto atoms = wrap_atoms("run 'wsl --shutdown' WSL then reads it", style(80));
  CHECK(atoms == std::vector<std::string>{"run", "'wsl --shutdown'", "WSL", "then", "reads", "it"});
}

TEST_CASE("an atom that is no command and no path (a JSON blob) is cut at the width") {
  const std::string blob =
      "{\"cuda_compute_capabilities\":[\"sm_50\",\"sm_60\",\"sm_70\",\"sm_80\",\"compute_90\"],"
      "\"cuda_version\":\"12.2\",\"cudnn_version\":\"8\",\"is_cuda_build\":true}";
  const auto lines = wrap_lines("build info: " + blob, style(40, "      ", "        "));
  std::string joined;
  for (const auto& l : lines) {
    CHECK(display_width(l) <= 40);
    joined += l.substr(l.find_first_not_of(' '));
  }
  CHECK(joined == "build info:" + blob);
}
