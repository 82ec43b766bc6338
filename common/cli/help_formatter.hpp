#pragma once
// --help wrapped to the terminal (item: nothing past the width, no word split by the terminal):
// CLI11's formatter pads an option's name to a column and writes its description unbroken, so a
// long description ran on and the terminal cut it mid-word. This one wraps every description with a
// hanging indent at that column, the description and footer paragraphs at the width, and never
// breaks inside a command (text_wrap.hpp). A value is named for what it is (PATH, DIR, DISTRO, the
// choices in braces), never CLI11's TEXT, and CLI11's "Excludes:" and "Needs:" lists are left out:
// the parser still enforces them and says so when given both (issue 43, item 11).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>

namespace tfwsl {

class WrappingFormatter : public CLI::Formatter {
 public:
  explicit WrappingFormatter(std::size_t width);

  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;

 private:
  std::string two_columns(const std::string& left, const std::string& description) const;
  std::size_t m_width;
};

// Sets a WrappingFormatter of `width` columns on `app` (its subcommands added later inherit it).
void use_wrapping_help(CLI::App& app, std::size_t width);

}  // namespace tfwsl
