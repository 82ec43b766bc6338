#include "common/cli/color_choice.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace tfwsl;

namespace {
EnvironmentLookup fake_environment(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}
const bool k_terminal = true;
const bool k_pipe = false;
}  // namespace

TEST_CASE("colour: auto is on for a terminal and off for a pipe or a file", "[color]") {
  auto env = fake_environment({{"TERM", "xterm-256color"}});
  CHECK(use_color(ColorMode::automatic, k_terminal, env));
  CHECK_FALSE(use_color(ColorMode::automatic, k_pipe, env));
  CHECK(use_color(ColorMode::automatic, k_terminal, fake_environment({})));  // Windows consoles set no TERM
  CHECK(use_color(ColorMode::automatic, k_terminal, nullptr));
}

TEST_CASE("colour: NO_COLOR with any non-empty value turns auto off, an empty one does not", "[color]") {
  CHECK_FALSE(use_color(ColorMode::automatic, k_terminal, fake_environment({{"NO_COLOR", "1"}})));
  CHECK_FALSE(use_color(ColorMode::automatic, k_terminal, fake_environment({{"NO_COLOR", "0"}})));
  CHECK_FALSE(use_color(ColorMode::automatic, k_terminal, fake_environment({{"NO_COLOR", "false"}})));
  CHECK(use_color(ColorMode::automatic, k_terminal, fake_environment({{"NO_COLOR", ""}})));
}

TEST_CASE("colour: TERM=dumb turns auto off", "[color]") {
  CHECK_FALSE(use_color(ColorMode::automatic, k_terminal, fake_environment({{"TERM", "dumb"}})));
  CHECK(use_color(ColorMode::automatic, k_terminal, fake_environment({{"TERM", "dumber"}})));
}

TEST_CASE("colour: --color always and never win over the terminal and the environment", "[color]") {
  auto hostile = fake_environment({{"NO_COLOR", "1"}, {"TERM", "dumb"}});
  CHECK(use_color(ColorMode::always, k_pipe, hostile));  // no-color.org: a flag may override NO_COLOR
  CHECK_FALSE(use_color(ColorMode::never, k_terminal, fake_environment({{"TERM", "xterm"}})));
}

TEST_CASE("colour: --color takes auto, always and never only", "[color]") {
  CHECK(parse_color_mode("auto") == ColorMode::automatic);
  CHECK(parse_color_mode("always") == ColorMode::always);
  CHECK(parse_color_mode("never") == ColorMode::never);
  CHECK_FALSE(parse_color_mode("yes"));
  CHECK_FALSE(parse_color_mode("Always"));
}

TEST_CASE("the live status line needs a terminal that is not dumb and NO_COLOR leaves it alone", "[color]") {
  CHECK(use_live_line(k_terminal, fake_environment({{"NO_COLOR", "1"}})));
  CHECK_FALSE(use_live_line(k_terminal, fake_environment({{"TERM", "dumb"}})));
  CHECK_FALSE(use_live_line(k_pipe, fake_environment({})));
}
