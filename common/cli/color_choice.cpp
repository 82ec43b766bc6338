#include "common/cli/color_choice.hpp"

namespace tfwsl {
namespace {

bool is_set_and_not_empty(const EnvironmentLookup& environment, const std::string& name) {
  if (!environment) return false;
  auto value = environment(name);
  return value && !value->empty();
}

bool is_dumb_terminal(const EnvironmentLookup& environment) {
  if (!environment) return false;
  auto term = environment("TERM");
  return term && *term == "dumb";
}

}  // namespace

std::optional<ColorMode> parse_color_mode(const std::string& text) {
  if (text == "auto") return ColorMode::automatic;
  if (text == "always") return ColorMode::always;
  if (text == "never") return ColorMode::never;
  return std::nullopt;
}

bool use_color(ColorMode mode, bool out_is_terminal, const EnvironmentLookup& environment) {
  if (mode == ColorMode::always) return true;
  if (mode == ColorMode::never) return false;
  if (!out_is_terminal) return false;
  if (is_set_and_not_empty(environment, "NO_COLOR")) return false;
  return !is_dumb_terminal(environment);
}

bool use_live_line(bool err_is_terminal, const EnvironmentLookup& environment) {
  return err_is_terminal && !is_dumb_terminal(environment);
}

}  // namespace tfwsl
