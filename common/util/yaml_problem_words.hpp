#pragma once
// yaml-cpp's syntax errors in a reader's words. Its messages name parser states ("end of map flow
// not found", "illegal map value"); a person editing a file needs the mistake that causes each one
// and how to fix it. The messages are yaml-cpp's ErrorMsg constants (yaml-cpp/exceptions.h).

#include <string>
#include <string_view>

namespace tfwsl {

struct YamlProblemWords {
  std::string what;  // "a '{' is never closed with '}'"
  std::string fix;   // "close it with '}', with commas between its items"
};

// The words for one yaml-cpp message; one it does not know keeps its own text with a general fix.
YamlProblemWords yaml_problem_words(std::string_view yaml_cpp_message);

}  // namespace tfwsl
