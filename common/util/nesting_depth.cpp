#include "common/util/nesting_depth.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace tfwsl {
namespace {

enum class QuoteEscape { backslash, doubled, none };

// The cursor and the deepest point of one scan; stops once the limit is passed.
class TextScan {
 public:
  TextScan(std::string_view text, std::size_t limit) : text_(text), limit_(limit) {}

  bool done() const { return at_ >= text_.size() || found_.depth > limit_; }
  char peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }
  char take() {
    const char c = text_[at_++];
    if (c == '\n') ++line_;
    return c;
  }
  void reach(std::size_t depth) {
    if (depth > found_.depth) found_ = {depth, line_};
  }
  NestingDepth found() const { return found_; }

  // After an opening quote: up to and including the closing one (a string may span lines).
  void skip_quoted(char quote, QuoteEscape escape) {
    while (at_ < text_.size()) {
      const char c = take();
      if (escape == QuoteEscape::backslash && c == '\\' && at_ < text_.size()) {
        take();
      } else if (c == quote && escape == QuoteEscape::doubled && peek() == quote) {
        take();
      } else if (c == quote) {
        return;
      }
    }
  }
  // After the first quote of three: up to and including the closing three (TOML's multi-line strings).
  void skip_tripled(char quote, QuoteEscape escape) {
    while (at_ < text_.size()) {
      const char c = take();
      if (escape == QuoteEscape::backslash && c == '\\' && at_ < text_.size()) {
        take();
      } else if (c == quote && peek() == quote && peek(1) == quote) {
        take(), take();
        return;
      }
    }
  }
  void skip_to_line_end() {
    while (at_ < text_.size() && text_[at_] != '\n') ++at_;
  }

 private:
  std::string_view text_;
  std::size_t limit_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  NestingDepth found_;
};

NestingDepth json_depth(TextScan scan) {
  std::size_t open = 0;
  while (!scan.done()) {
    const char c = scan.take();
    if (c == '"') {
      scan.skip_quoted('"', QuoteEscape::backslash);
    } else if (c == '[' || c == '{') {
      scan.reach(++open);
    } else if ((c == ']' || c == '}') && open > 0) {
      --open;
    }
  }
  return scan.found();
}

// ---- YAML ----

bool yaml_token_start(char before) {
  return before == '\n' || before == ' ' || before == '\t' || before == '[' || before == '{' || before == ',' ||
         before == ':' || before == '-' || before == '?';
}

// "|", ">", "|-", ">+2" closing a line (a comment may follow): the lines below, more indented, are text.
bool yaml_block_scalar_header(TextScan& scan) {
  for (std::size_t ahead = 0;; ++ahead) {
    const char c = scan.peek(ahead);
    if (c == '\0' || c == '\n' || c == '#') return true;
    if (c != ' ' && c != '\t' && c != '-' && c != '+' && !(c >= '1' && c <= '9')) return false;
  }
}

class YamlScan {
 public:
  explicit YamlScan(TextScan scan) : scan_(scan) {}

  NestingDepth run() {
    while (!scan_.done()) {
      while (line_start_ && !scan_.done()) start_line();
      if (scan_.done()) break;
      const char c = scan_.take();
      if (c == '\n') {
        line_start_ = true;
      } else if (compacting_ && (c == '-' || c == '?') && (scan_.peek() == ' ' || scan_.peek() == '\t')) {
        scan_.reach(flow_ + ++compact_);
      } else {
        compacting_ = compacting_ && (c == ' ' || c == '\t');
        token(c);
      }
      before_ = c;
    }
    return scan_.found();
  }

 private:
  // Indentation, and the text lines of a block scalar (more indented than its header's line) skipped.
  void start_line() {
    std::size_t indent = 0;
    while (scan_.peek(indent) == ' ') ++indent;
    const char first = scan_.peek(indent);
    const bool blank = first == '\n' || first == '\0' || first == '\r';
    if (in_block_scalar_ && (blank || indent > block_indent_)) {
      scan_.skip_to_line_end();
      if (!scan_.done()) scan_.take();
      return;
    }
    in_block_scalar_ = false;
    line_start_ = false;
    compacting_ = true;
    compact_ = 0;
    line_indent_ = indent;
    before_ = '\n';
  }

  void token(char c) {
    if (c == '#' && (before_ == '\n' || before_ == ' ' || before_ == '\t')) {
      scan_.skip_to_line_end();
    } else if ((c == '"' || c == '\'') && yaml_token_start(before_)) {
      scan_.skip_quoted(c, c == '"' ? QuoteEscape::backslash : QuoteEscape::doubled);
    } else if (c == '[' || c == '{') {
      scan_.reach(compact_ + ++flow_);
    } else if ((c == ']' || c == '}') && flow_ > 0) {
      --flow_;
    } else if ((c == '|' || c == '>') && flow_ == 0 && yaml_token_start(before_) && yaml_block_scalar_header(scan_)) {
      scan_.skip_to_line_end();
      in_block_scalar_ = true;
      block_indent_ = line_indent_;
    }
  }

  TextScan scan_;
  std::size_t flow_ = 0;
  std::size_t compact_ = 0;
  bool compacting_ = true;
  bool line_start_ = true;
  bool in_block_scalar_ = false;
  std::size_t line_indent_ = 0;
  std::size_t block_indent_ = 0;
  char before_ = '\n';
};

// ---- TOML ----

class TomlScan {
 public:
  explicit TomlScan(TextScan scan) : scan_(scan) {}

  NestingDepth run() {
    while (!scan_.done()) {
      const char c = scan_.take();
      if (c == '#') {
        scan_.skip_to_line_end();
      } else if (c == '"' || c == '\'') {
        skip_string(c);
      } else if (c == '\n') {
        end_line();
      } else if (mode_ == Mode::header) {
        header(c);
      } else if (mode_ == Mode::key) {
        key(c);
      } else if (mode_ == Mode::value) {
        value(c);
      }
    }
    return scan_.found();
  }

 private:
  enum class Mode { key, header, value, after_header };
  struct Open {
    char bracket;
    std::size_t level;  // the level before it opened
  };

  void skip_string(char quote) {
    const QuoteEscape escape = quote == '"' ? QuoteEscape::backslash : QuoteEscape::none;
    if (scan_.peek() == quote && scan_.peek(1) == quote) {
      scan_.take(), scan_.take();
      scan_.skip_tripled(quote, escape);
    } else {
      scan_.skip_quoted(quote, escape);
    }
    if (mode_ == Mode::key) scan_.reach(key_base_ + dots_ + 1);
  }

  void end_line() {
    if (!open_.empty()) return;  // an array may span lines
    mode_ = Mode::key;
    key_base_ = table_;
    dots_ = 0;
  }

  // [a.b.c] and [[a.b.c]]: the table the keys below are in, one level a part.
  void header(char c) {
    if (c == '.') scan_.reach(++dots_ + 1);
    if (c != ']') return;
    table_ = dots_ + 1;
    scan_.reach(table_);
    mode_ = Mode::after_header;
  }

  void key(char c) {
    if (c == '[' && open_.empty() && dots_ == 0) {
      mode_ = Mode::header;
    } else if (c == '.') {
      scan_.reach(key_base_ + ++dots_ + 1);
    } else if (c == '=') {
      level_ = key_base_ + dots_ + 1;
      scan_.reach(level_);
      mode_ = Mode::value;
    } else if (c == '}') {
      close();
    } else if (c != ' ' && c != '\t' && c != '\r' && c != ',') {
      scan_.reach(key_base_ + dots_ + 1);
    }
  }

  void value(char c) {
    if (c == '[') {
      open_.push_back({c, level_});
      scan_.reach(++level_);  // its elements
    } else if (c == '{') {
      open_.push_back({c, level_});
      start_key(level_);  // its keys are one deeper than the key that holds it, as a table's are
    } else if (c == ']' || c == '}') {
      close();
    } else if (c == ',' && !open_.empty() && open_.back().bracket == '{') {
      start_key(open_.back().level);
    }
  }

  void start_key(std::size_t base) {
    mode_ = Mode::key;
    key_base_ = base;
    dots_ = 0;
  }

  void close() {
    if (open_.empty()) return;
    level_ = open_.back().level;
    open_.pop_back();
    mode_ = Mode::value;
  }

  TextScan scan_;
  Mode mode_ = Mode::key;
  std::vector<Open> open_;  // at most the limit deep: the scan stops past it
  std::size_t table_ = 0;
  std::size_t key_base_ = 0;
  std::size_t dots_ = 0;
  std::size_t level_ = 0;
};

const char* what_nests(NestingSyntax syntax) {
  switch (syntax) {
    case NestingSyntax::json:
      return "arrays and objects inside each other";
    case NestingSyntax::yaml:
      return "flow [ ] and { } collections and '- ' entries inside each other";
    case NestingSyntax::toml:
      return "table header parts, dotted key parts, arrays and inline tables";
  }
  return "";
}

}  // namespace

NestingDepth deepest_nesting(std::string_view text, NestingSyntax syntax, std::size_t limit) {
  const TextScan scan(text, limit);
  switch (syntax) {
    case NestingSyntax::json:
      return json_depth(scan);
    case NestingSyntax::yaml:
      return YamlScan(scan).run();
    case NestingSyntax::toml:
      return TomlScan(scan).run();
  }
  return {};
}

std::string nesting_problem(NestingSyntax syntax, std::size_t limit) {
  return fmt::format("nested deeper than {} levels ({})", limit, what_nests(syntax));
}

Status check_nesting_depth(std::string_view text, NestingSyntax syntax, std::string_view input_name,
                           std::size_t limit) {
  const NestingDepth found = deepest_nesting(text, syntax, limit);
  if (found.depth <= limit) return {};
  return make_error(ErrorCode::invalid_input, fmt::format("{}:{}: {}; nothing that deep is read: flatten it there",
                                                          input_name, found.line, nesting_problem(syntax, limit)));
}

}  // namespace tfwsl
