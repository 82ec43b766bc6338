#pragma once
// Whether a run writes colour: the rules users know from other tools. --color always/never decide;
// otherwise (auto) colour needs stdout to be a terminal, no NO_COLOR with a value
// (https://no-color.org: "when present and not an empty string"), and a TERM other than "dumb".
// A command-line flag overrides NO_COLOR, as no-color.org allows. Pure: the mains supply isatty
// and the environment.

#include <functional>
#include <optional>
#include <string>

namespace tfwsl {

enum class ColorMode { automatic, always, never };

// "auto", "always", "never" (what --color takes).
std::optional<ColorMode> parse_color_mode(const std::string& text);

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

bool use_color(ColorMode mode, bool out_is_terminal, const EnvironmentLookup& environment);

// A live status line (rewritten in place with \r and erase-in-line) needs stderr to be a terminal
// that understands the sequences: not TERM=dumb. NO_COLOR is about colour, not cursor movement.
bool use_live_line(bool err_is_terminal, const EnvironmentLookup& environment);

}  // namespace tfwsl
