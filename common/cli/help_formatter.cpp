#include "common/cli/help_formatter.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "common/check/command_words.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_wrap.hpp"

namespace tfwsl {
namespace {

constexpr std::size_t k_name_column = 26;  // where option descriptions start

WrapStyle style(std::size_t width, std::string first, std::string hanging) {
  WrapStyle s;
  s.width = width;
  s.first_indent = std::move(first);
  s.hanging_indent = std::move(hanging);
  s.starts_command = starts_known_command;
  return s;
}

// A footer line "  tfwsl doctor -v     the same, with ..." keeps its command and wraps the words
// after the gap under themselves; any other line wraps under its own indent plus two.
std::string wrap_footer_line(const std::string& line, std::size_t width) {
  if (display_width(line) <= width) return line + "\n";
  const std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return "\n";
  const std::size_t gap = line.find("  ", lead);
  if (gap != std::string::npos) {
    const std::size_t text = line.find_first_not_of(' ', gap);
    if (text != std::string::npos && text < width / 2)
      return wrap_text(line.substr(text), style(width, line.substr(0, text), std::string(text, ' ')));
  }
  return wrap_text(line.substr(lead), style(width, std::string(lead, ' '), std::string(lead + 2, ' ')));
}

// Options whose value is a file or a folder, by long name; any other value is named by its option
// (--distro DISTRO, --profile PROFILE, --port PORT).
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> k_value_words = {{
    {"agent", "PATH"},
    {"bundle", "PATH"},
    {"file", "PATH"},
    {"log-file", "PATH"},
    {"input", "JSON"},
    {"to", "DIR"},
    {"data-to", "DIR"},
    {"root", "DIR"},
    {"data", "DIR"},
    {"pip-find-links", "DIR"},
    {"keyring-url", "URL"},
    {"jobs", "N"},
}};

// What an option's value is: the choices of an IsMember check ("{auto,always,never}"), else by name.
// A positional names its value itself (PROFILE, project), so it shows no word.
std::string value_word(const CLI::Option* opt) {
  const std::string type = opt->get_type_name();
  const std::size_t choices = type.find(":{");
  if (choices != std::string::npos) return " " + type.substr(choices + 1);
  const std::string cli11_word = type.substr(0, type.find(':'));  // "TEXT", "UINT:INT": CLI11's own
  if (cli11_word != "TEXT" && cli11_word != "INT" && cli11_word != "UINT" && cli11_word != "FLOAT")
    return " " + type;  // set by the command (--exclude NAME)
  if (opt->get_positional() && !opt->nonpositional()) return "";
  const std::string name = opt->get_single_name();
  for (const auto& [option, word] : k_value_words)
    if (option == name) return " " + std::string(word);
  std::string word = " ";
  for (char c : name) word += ascii_upper(c);
  return word;
}

}  // namespace

WrappingFormatter::WrappingFormatter(std::size_t width) : m_width(std::max<std::size_t>(width, 40)) {
  column_width(k_name_column);
}

std::string WrappingFormatter::two_columns(const std::string& left, const std::string& description) const {
  const std::string hanging(k_name_column, ' ');
  if (description.empty()) return left + "\n";
  if (display_width(left) + 1 >= k_name_column)
    return left + "\n" + wrap_text(description, style(m_width, hanging, hanging));
  std::string first = left + std::string(k_name_column - display_width(left), ' ');
  return wrap_text(description, style(m_width, first, hanging));
}

std::string WrappingFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return two_columns("  " + make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string WrappingFormatter::make_option_opts(const CLI::Option* opt) const {
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  if (opt->get_type_size() == 0) return "";  // a flag
  std::string out = value_word(opt);
  if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
  if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
  if (opt->get_required()) out += " REQUIRED";
  return out;
}

std::string WrappingFormatter::make_subcommand(const CLI::App* sub) const {
  return two_columns("  " + sub->get_display_name(true), sub->get_description());
}

std::string WrappingFormatter::make_description(const CLI::App* app) const {
  const std::string description = CLI::Formatter::make_description(app);
  if (description.empty()) return description;
  return wrap_text(description.substr(0, description.size() - 1), style(m_width, "", ""));
}

std::string WrappingFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  if (footer.empty()) return footer;
  std::string out;
  std::size_t start = 0;
  while (start <= footer.size()) {
    std::size_t end = footer.find('\n', start);
    if (end == std::string::npos) end = footer.size();
    out += wrap_footer_line(footer.substr(start, end - start), m_width);
    start = end + 1;
  }
  return out;
}

std::string WrappingFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::string usage = CLI::Formatter::make_usage(app, std::move(name));
  if (!usage.empty() && usage.back() == '\n') usage.pop_back();
  return wrap_text(usage, style(m_width, "", "  "));
}

void use_wrapping_help(CLI::App& app, std::size_t width) { app.formatter(std::make_shared<WrappingFormatter>(width)); }

}  // namespace tfwsl
