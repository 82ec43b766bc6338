// tfwsl-check-docs: the docs the check table's rows generate (common/check/check_rows.hpp), so an id
// is typed once: docs/doctor.md's "Checks" table, docs/agent-api.md's list of /v1/checks' ids, and
// the id enum of docs/schema/check.schema.json. Each generated part sits between the marker lines
// below (the enum: the schema's "check_id" enum). CTest `docs.check-table-fresh` runs --check.
//
//   tfwsl-check-docs --check ROOT   exit 0 when every generated part is as the rows make it, 1 naming
//                                   each stale file and the command that regenerates it
//   tfwsl-check-docs --write ROOT   rewrite the stale parts
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/check/check_table.hpp"

namespace {

using tfwsl::CheckRow;
using tfwsl::CheckSource;

constexpr const char* k_begin =
    "<!-- generated from common/check/check_rows.hpp by tfwsl-check-docs: edit the rows -->";
constexpr const char* k_end = "<!-- end of the generated part -->";

std::string backticked_ids(const std::vector<std::string>& ids, const char* none) {
  if (ids.empty()) return none;
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "`" : ", `") + id + "`";
  return out;
}

std::string doctor_table() {
  std::string out =
      "| id | needs | at worst | source | what it says |\n"
      "| --- | --- | --- | --- | --- |\n";
  for (const CheckRow& row : tfwsl::check_table()) {
    out += "| `" + std::string(row.id) + "` | " + backticked_ids(tfwsl::needs_of(row), "nothing") + " | " +
           (row.fault == tfwsl::CheckStatus::fail ? "fail" : "warn") + " | " + std::string(row.reads) + " | " +
           std::string(row.says) + " |\n";
  }
  return out;
}

// Words joined by spaces, wrapped at 100 columns.
std::string wrapped(const std::vector<std::string>& words, const std::string& indent = "") {
  std::string out, line = indent;
  for (const auto& word : words) {
    if (line.size() > indent.size() && line.size() + 1 + word.size() > 100) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > indent.size() ? " " : "") + word;
  }
  return out + line + "\n";
}

std::string agent_ids() {
  std::vector<std::string> words{"Check", "ids:"};
  const auto ids = tfwsl::check_ids(CheckSource::agent);
  for (std::size_t i = 0; i < ids.size(); ++i) words.push_back("`" + ids[i] + "`" + (i + 1 < ids.size() ? "," : "."));
  return wrapped(words);
}

std::string schema_enum(const std::string& indent) {
  std::vector<std::string> words;
  const auto ids = tfwsl::every_check_id();
  for (std::size_t i = 0; i < ids.size(); ++i)
    words.push_back(nlohmann::json(ids[i]).dump() + (i + 1 < ids.size() ? "," : "]"));
  std::string text = wrapped(words, indent);
  return "[" + text.substr(indent.size(), text.size() - indent.size() - 1);  // "[" takes the first indent's place
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `text` with the part between the markers replaced; empty when the markers are not there.
std::string between_markers(const std::string& text, const std::string& generated) {
  const auto begin = text.find(k_begin);
  const auto end = text.find(k_end);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
  const auto from = begin + std::string(k_begin).size() + 1;
  return text.substr(0, from) + generated + text.substr(end);
}

// The schema with its "check_id" enum generated, spelled as the file spells its other lists.
std::string schema_with_ids(const std::string& text) {
  const auto defs = text.find("\"check_id\": {");
  const auto list = defs == std::string::npos ? defs : text.find("\"enum\": [", defs);
  const auto close = list == std::string::npos ? list : text.find(']', list);
  if (close == std::string::npos) return {};
  const auto line_start = text.rfind('\n', list) + 1;
  const std::string indent(list - line_start + std::string("\"enum\": ").size() + 1, ' ');
  return text.substr(0, list + std::string("\"enum\": ").size()) + schema_enum(indent) + text.substr(close + 1);
}

struct Generated {
  std::string file;
  std::string text;  // empty: the file's markers are missing
};

std::vector<Generated> generate(const std::filesystem::path& root) {
  return {{"docs/doctor.md", between_markers(read(root / "docs/doctor.md"), doctor_table())},
          {"docs/agent-api.md", between_markers(read(root / "docs/agent-api.md"), agent_ids())},
          {"docs/schema/check.schema.json", schema_with_ids(read(root / "docs/schema/check.schema.json"))}};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--check" && mode != "--write") {
    std::cerr << "usage: tfwsl-check-docs --check|--write ROOT\n";
    return 2;
  }
  const std::filesystem::path root = argv[2];
  int stale = 0;
  for (const auto& [file, text] : generate(root)) {
    if (text.empty()) {
      std::cerr << file
                << ": its generated part's markers are missing; put them back (tests/tools/check_docs_main.cpp)\n";
      return 1;
    }
    if (text == read(root / file)) continue;
    if (mode == "--write") {
      std::ofstream(root / file, std::ios::binary) << text;
      std::cout << "regenerated " << file << "\n";
      continue;
    }
    ++stale;
    std::cerr
        << file << ": stale against common/check/check_rows.hpp; regenerate it: "
        << "cmake --build build/linux --target tfwsl-check-docs && build/linux/tests/tfwsl-check-docs --write .\n";
  }
  if (stale == 0 && mode == "--check") std::cout << "the check table's docs are as the rows make them\n";
  return stale == 0 ? 0 : 1;
}
