#include "common/parse/requirements_sources.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::parse {
namespace {

bool is_package_name(std::string_view word) {
  return !word.empty() && word.size() <= 100 && std::all_of(word.begin(), word.end(), is_package_name_char) &&
         !(word.front() == '-' || word.front() == '.');
}

// "2.4.1", "1.0.post1", "2021.1.19", "3.0.5": starts with a digit, no blanks.
bool is_version_word(std::string_view word) {
  return !word.empty() && ascii_is_digit(word.front()) && word.size() <= 64 &&
         std::all_of(word.begin(), word.end(), [](char c) { return is_package_name_char(c) || c == '+' || c == '!'; });
}

void add_requirement(RequirementsResult& result, std::string_view name, std::string spec, bool conda, int number) {
  DeclaredRequirement req;
  req.package = ascii_lower(name);
  req.spec = std::move(spec);
  req.conda = conda;
  req.line = number;
  result.requirements.push_back(std::move(req));
}

// The arguments of a command starting at `from`: up to what ends a command in a shell line, a
// markdown span or a Dockerfile (a backtick, &&, ||, ;, a pipe, a comment).
std::string_view command_args(std::string_view line, std::size_t from) {
  std::string_view rest = line.substr(from);
  std::size_t end = rest.size();
  for (std::string_view stop : {"`", "&&", "||", ";", " | ", " #"}) end = std::min(end, rest.find(stop));
  return rest.substr(0, end);
}

// Words split on blanks, quotes removed ("tensorflow<2.11" stays one word).
std::vector<std::string> shell_words(std::string_view args) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (char c : args) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Options that take a value (pip install's and conda install/create's), so the value is no package.
bool takes_value(std::string_view option, bool conda) {
  static constexpr std::array<std::string_view, 24> k_pip = {"-r",
                                                             "--requirement",
                                                             "-c",
                                                             "--constraint",
                                                             "-i",
                                                             "--index-url",
                                                             "--extra-index-url",
                                                             "-f",
                                                             "--find-links",
                                                             "-t",
                                                             "--target",
                                                             "--prefix",
                                                             "--root",
                                                             "--platform",
                                                             "--python-version",
                                                             "--abi",
                                                             "--only-binary",
                                                             "--no-binary",
                                                             "--upgrade-strategy",
                                                             "-e",
                                                             "--editable",
                                                             "--trusted-host",
                                                             "--cache-dir",
                                                             "--src"};
  static constexpr std::array<std::string_view, 8> k_conda = {"-c", "--channel", "-n",     "--name",
                                                              "-p", "--prefix",  "--file", "--solver"};
  if (conda) return std::find(k_conda.begin(), k_conda.end(), option) != k_conda.end();
  return std::find(k_pip.begin(), k_pip.end(), option) != k_pip.end();
}

bool is_include_option(std::string_view option) {
  return option == "-r" || option == "--requirement" || option == "--file";
}

// A word that names a place rather than a package: a path, a URL, a variable, a placeholder.
bool is_not_a_package(std::string_view word) {
  return word.empty() || contains(word, "://") || contains(word, "/") || contains(word, "\\") || word.front() == '.' ||
         word.front() == '~' || word.front() == '$' || word.front() == '<' || word.front() == '{' ||
         word.ends_with(".txt") || word.ends_with(".whl");
}

void read_command_words(std::string_view args, bool conda, int number, RequirementsResult& result) {
  const std::vector<std::string> words = shell_words(args);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.empty()) continue;
    if (w.front() == '-') {
      if (w.find('=') != std::string::npos || !takes_value(w, conda)) continue;
      if (i + 1 < words.size() && is_include_option(w)) result.includes.push_back(words[i + 1]);
      ++i;  // the option's value
      continue;
    }
    if (is_not_a_package(w)) continue;
    if (auto req = parse_requirement(w, conda, number)) result.requirements.push_back(std::move(*req));
  }
}

// "pipmain(['install', 'tensorflow==2.4.0'])": every quoted string after the 'install' one.
bool read_install_call(std::string_view line, int number, RequirementsResult& result) {
  std::size_t at = line.find("['install'");
  if (at == std::string_view::npos) at = line.find("[\"install\"");
  if (at == std::string_view::npos) return false;
  std::string_view rest = line.substr(at + 10);
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char q = rest[i];
    if (q != '\'' && q != '"') continue;
    const std::size_t close = rest.find(q, i + 1);
    if (close == std::string_view::npos) break;
    const std::string_view word = rest.substr(i + 1, close - i - 1);
    if (!word.empty() && word.front() != '-')
      if (auto req = parse_requirement(word, false, number)) result.requirements.push_back(std::move(*req));
    i = close;
  }
  return true;
}

bool is_command_boundary(char c) {
  return c == ' ' || c == '\t' || c == '`' || c == '|' || c == '!' || c == '(' || c == '"' || c == '\'' || c == '/' ||
         c == '$' || c == '>';
}

// "TensorFlow installed using - pip install tensorflow-gpu", "whatever pip install dlib tries to
// install": an install command named inside a sentence is prose, and its English words are no
// packages. A command starts its line, or follows a bullet, a number, a prompt, `RUN`, `sudo`,
// `python -m`, a backtick or a shell separator (&&, ;, |): two words of prose before it say otherwise.
bool named_in_prose(std::string_view line, std::size_t verb_at) {
  std::string_view before = line.substr(0, verb_at);
  if (const std::size_t cut = before.find_last_of("`;|&("); cut != std::string_view::npos)
    before = before.substr(cut + 1);
  int prose_words = 0;
  for (std::string_view word : words_of(before)) {
    while (!word.empty() && (word.back() == ':' || word.back() == ',' || word.back() == '.')) word.remove_suffix(1);
    const bool letters =
        !word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return ascii_is_alpha(c); });
    const std::string lower = ascii_lower(word);
    if (letters && word != "RUN" && lower != "sudo" && lower != "python" && lower != "py" && lower != "uv")
      ++prose_words;
  }
  return prose_words >= 2;
}

// Where the install verb's arguments start when `program` at `at` is followed by `verb`, with the
// program's own options between them (`pip3 --no-cache-dir install`, `conda -y install`), or npos.
std::size_t verb_arguments(std::string_view lower, std::size_t at, std::string_view program, std::string_view verb) {
  std::size_t word = at + program.size();
  for (;;) {
    while (word < lower.size() && lower[word] == ' ') ++word;
    std::size_t end = lower.find(' ', word);
    if (end == std::string_view::npos) end = lower.size();
    const std::string_view current = lower.substr(word, end - word);
    if (current == verb) return end < lower.size() ? end + 1 : end;
    if (!current.starts_with("-")) return std::string_view::npos;
    word = end;
  }
}

}  // namespace

bool read_install_command(std::string_view line, int number, RequirementsResult& result) {
  if (read_install_call(line, number, result)) return true;
  const std::string lower = ascii_lower(line);
  struct Verb {
    std::string_view program;  // with the space after it
    std::string_view verb;
    bool conda;
  };
  static constexpr std::array<Verb, 8> k_verbs = {{{"pip ", "install", false},
                                                   {"pip3 ", "install", false},
                                                   {"conda ", "install", true},
                                                   {"conda ", "create", true},
                                                   {"mamba ", "install", true},
                                                   {"mamba ", "create", true},
                                                   {"micromamba ", "install", true},
                                                   {"poetry ", "add", false}}};
  bool found = false;
  for (const Verb& verb : k_verbs) {
    for (std::size_t at = lower.find(verb.program); at != std::string::npos; at = lower.find(verb.program, at + 1)) {
      if (at > 0 && !is_command_boundary(lower[at - 1])) continue;
      const std::size_t args = verb_arguments(lower, at, verb.program, verb.verb);
      if (args == std::string::npos || named_in_prose(line, at)) continue;
      found = true;
      read_command_words(command_args(line, args), verb.conda, number, result);
    }
  }
  return found;
}

bool read_tensorflow_image(std::string_view line, int number, RequirementsResult& result) {
  const std::string_view t = trim_with_nbsp(line);
  if (t.size() < 6 || !iequals(t.substr(0, 5), "FROM ")) return false;
  for (std::string_view word : words_of(t.substr(5))) {
    if (word.starts_with("--")) continue;  // --platform=...
    const auto colon = word.find(':');
    const std::string_view image = word.substr(0, colon);
    if (image != "tensorflow/tensorflow") return true;
    std::string_view tag = colon == std::string_view::npos ? std::string_view() : word.substr(colon + 1);
    std::size_t end = 0;
    while (end < tag.size() && (ascii_is_digit(tag[end]) || tag[end] == '.')) ++end;
    const std::string_view version = tag.substr(0, end);
    add_requirement(result, "tensorflow", version.empty() || version.back() == '.' ? "" : "==" + std::string(version),
                    false, number);
    return true;
  }
  return true;
}

bool read_listing_row(std::string_view line, int number, bool listing, RequirementsResult& result) {
  const std::string_view t = trim_with_nbsp(line);
  std::vector<std::string_view> cells;
  if (t.starts_with("|")) {
    std::string_view rest = t.substr(1);
    while (!rest.empty()) {
      const auto bar = rest.find('|');
      cells.push_back(trim_with_nbsp(rest.substr(0, bar)));
      if (bar == std::string_view::npos) break;
      rest = rest.substr(bar + 1);
    }
    while (!cells.empty() && cells.back().empty()) cells.pop_back();
  } else if (listing) {
    cells = words_of(t);
  }
  if (cells.size() < 2 || cells.size() > 5 || !is_package_name(cells[0]) || !is_version_word(cells[1])) return false;
  // conda list's third column is the build ("<pip>" or "pypi_0" for pip's packages), its fourth the
  // channel; pip list has two columns.
  const bool pip = cells.size() < 3 || cells[2] == "<pip>" || cells[2].starts_with("pypi") ||
                   (cells.size() > 3 && cells[3] == "pypi");
  add_requirement(result, cells[0], "==" + std::string(cells[1]), !pip, number);
  if (!pip) result.requirements.back().build = std::string(cells[2]);
  return true;
}

bool read_bullet(std::string_view line, int number, RequirementsResult& result) {
  std::string_view t = trim_with_nbsp(line);
  if (t.size() < 4 || (t[0] != '-' && t[0] != '*' && t[0] != '+') || t[1] != ' ') return false;
  t = trim_with_nbsp(t.substr(2));
  std::size_t end = 0;
  while (end < t.size() && is_package_name_char(t[end])) ++end;
  const std::string_view name = t.substr(0, end);
  if (!is_package_name(name)) return false;
  std::string_view rest = t.substr(end);
  std::string op;
  if (rest.starts_with("==") || rest.starts_with(">=") || rest.starts_with("<=") || rest.starts_with("~=")) {
    op = std::string(rest.substr(0, 2));
    rest = rest.substr(2);
  } else if (rest.starts_with("=")) {
    op = "=";
    rest = rest.substr(1);
  } else if (rest.starts_with(" ") || rest.starts_with("\t")) {
    op = "==";
    rest = trim_with_nbsp(rest);
  } else {
    return false;
  }
  const auto words = words_of(rest);
  if (words.empty()) return false;
  // conda's name==version=build in a list conda printed (ResolvePackageNotFound) or an export:
  // the build string makes it a conda package.
  if (const auto eq = words[0].find('='); eq != std::string_view::npos && is_version_word(words[0].substr(0, eq)) &&
                                          is_version_word("0" + std::string(words[0].substr(eq + 1)))) {
    add_requirement(result, name, op + std::string(words[0]), true, number);
    return true;
  }
  if (!is_version_word(words[0])) return false;
  // Bullets count as pip requirements: a "<pip>" after the version only says where it came from.
  add_requirement(result, name, op + std::string(words[0]), false, number);
  return true;
}

bool looks_like_listing(std::string_view text) {
  std::size_t rows = 0;
  std::size_t lines = 0;
  for (std::string_view line : lines_of(text.substr(0, 1 << 20))) {
    const std::string_view t = trim_with_nbsp(line);
    if (t.empty()) continue;
    const std::string lower = ascii_lower(t);
    // conda list's "# Name  Version  Build  Channel", pip list's "Package  Version".
    if ((contains(lower, "name") && contains(lower, "version") && contains(lower, "build")) ||
        (lower.starts_with("package ") && contains(lower, "version") && words_of(t).size() == 2))
      return true;
    if (t[0] == '#') continue;
    ++lines;
    const auto words = words_of(t);
    if (words.size() >= 2 && words.size() <= 5 && is_package_name(words[0]) && is_version_word(words[1])) ++rows;
  }
  return rows >= 3 && rows * 10 >= lines * 6;
}

}  // namespace tfwsl::parse
