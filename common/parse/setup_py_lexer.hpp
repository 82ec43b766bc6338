// The tokens of a setup.py as setup_py_reader reads them: names, strings (escapes undone), numbers,
// operators and logical line ends, bracket depth followed so a call spread over lines is one line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse::setup_py {

struct Token {
  enum class Kind { name, string, fstring, number, op, newline, end } kind = Kind::end;
  std::string text;  // a string's value (escapes of \n and quotes undone), a name, an operator
  int line = 0;
  int indent = 0;  // for the first token of a logical line: its column
};

// The tokens of `text`, ending with one Kind::end token.
std::vector<Token> lex(std::string_view text);

}  // namespace tfwsl::parse::setup_py
