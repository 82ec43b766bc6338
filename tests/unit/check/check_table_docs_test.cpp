// The documents that list the checks say what the check table says (common/check/check_table.hpp):
// docs/doctor.md's "Checks" table (ids in order, needs, what a fault costs), the ids of /v1/checks in
// docs/agent-api.md, the id enum of docs/schema/check.schema.json, and the section each row names
// as its documentation. Read from the source tree, so a row added to one and not the other fails.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "common/check/check_table.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

namespace {

std::string source_file(const std::string& relative) {
  return test::read_file(std::filesystem::path(TFWSL_SOURCE_DIR) / relative);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
std::string anchor_of(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c))
      out += char(std::tolower(c));
    else if (c == ' ' || c == '-')
      out += '-';
    else if (c == '_')
      out += '_';
  }
  return out;
}

// The lines of the section under the heading whose anchor is `anchor`, up to the next heading of
// its level or above; empty when there is no such heading.
std::vector<std::string> section(const std::string& text, const std::string& anchor) {
  std::vector<std::string> out;
  std::size_t level = 0;
  for (const auto& line : lines_of(text)) {
    const std::size_t hashes = line.find_first_not_of('#');
    const bool heading = hashes > 0 && hashes != std::string::npos && line[hashes] == ' ';
    if (level > 0 && heading && hashes <= level) break;
    if (level > 0) out.push_back(line);
    if (level == 0 && heading && anchor_of(line.substr(hashes + 1)) == anchor) level = hashes;
  }
  return out;
}

std::vector<std::string> quoted_ids(const std::string& text) {
  static const std::regex k_quoted("`([^`]+)`");
  std::vector<std::string> ids;
  for (std::sregex_iterator it(text.begin(), text.end(), k_quoted), end; it != end; ++it) ids.push_back((*it)[1]);
  return ids;
}

std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::istringstream in(row.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const auto first = cell.find_first_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, cell.find_last_not_of(' ') - first + 1));
  }
  return cells;
}

struct DocRow {
  std::string id;
  std::vector<std::string> needs;
  std::string fault;
};

// docs/doctor.md, "Checks": | id | needs | at worst | source | what it says |.
std::vector<DocRow> doctor_md_rows() {
  std::vector<DocRow> rows;
  for (const auto& line : section(source_file("docs/doctor.md"), "checks")) {
    if (line.rfind("| `", 0) != 0) continue;
    const auto cells = cells_of(line);
    REQUIRE(cells.size() >= 3);
    const auto ids = quoted_ids(cells[0]);
    INFO(line);
    REQUIRE(ids.size() == 1);  // one check a row
    rows.push_back({ids.front(), quoted_ids(cells[1]), cells[2]});
  }
  return rows;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : " ") + i;
  return out;
}

}  // namespace

TEST_CASE("docs/doctor.md's Checks table has a row for every check, in order, with its needs and fault",
          "[check][table][docs]") {
  const auto rows = doctor_md_rows();
  const auto ids = every_check_id();
  std::vector<std::string> documented;
  for (const auto& r : rows) documented.push_back(r.id);
  CHECK(joined(documented) == joined(ids));
  for (const auto& r : rows) {
    INFO(r.id);
    const CheckRow* row = find_check_row(r.id);
    REQUIRE(row != nullptr);
    CHECK(joined(r.needs) == joined(needs_of(*row)));
    CHECK(r.fault == to_string(row->fault));
  }
}

TEST_CASE("docs/agent-api.md lists the ids of /v1/checks: the checks the judge gives", "[check][table][docs]") {
  const std::string text = source_file("docs/agent-api.md");
  const auto start = text.find("Check ids: ");
  REQUIRE(start != std::string::npos);
  const auto end = text.find(".\n", start);
  CHECK(joined(quoted_ids(text.substr(start, end - start))) == joined(check_ids(CheckSource::agent)));
}

TEST_CASE("the schema's id enum is the table's ids, in order, and its preconditions", "[check][table][docs]") {
  const auto schema = nlohmann::json::parse(source_file("docs/schema/check.schema.json"));
  std::vector<std::string> listed;
  for (const auto& id : schema.at("$defs").at("check_id").at("enum")) listed.push_back(id.get<std::string>());
  CHECK(joined(listed) == joined(every_check_id()));
  const auto& preconditions = schema.at("$defs").at("precondition_id").at("enum");
  REQUIRE(preconditions.size() == 1);
  CHECK(is_precondition(preconditions.at(0).get<std::string>()));
  CHECK(schema.at("$defs").at("check").at("properties").at("id").at("$ref") == "#/$defs/check_id");
}

TEST_CASE("each check's documentation names it in the section its row points to", "[check][table][docs]") {
  for (const auto& row : check_table()) {
    INFO(row.id << ": " << row.doc);
    const std::string doc(row.doc);
    const auto hash = doc.find('#');
    REQUIRE(hash != std::string::npos);
    const auto lines = section(source_file(doc.substr(0, hash)), doc.substr(hash + 1));
    REQUIRE_FALSE(lines.empty());
    const std::string quoted = "`" + std::string(row.id) + "`";
    CHECK(std::any_of(lines.begin(), lines.end(),
                      [&](const std::string& l) { return l.find(quoted) != std::string::npos; }));
  }
}
