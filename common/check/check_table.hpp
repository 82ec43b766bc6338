#pragma once
// The one table of the checks: every id `tfwsl doctor`, `tfwsl-agent check` and /v1/checks can
// report, with its category, who judges it, what it needs to be judged on its own, what its fault
// costs and where it is documented. The doctor's report order, the dependency folding
// (check_fold.hpp), the text's category headings (check_text.cpp), docs/doctor.md's "Checks" table
// and the id enum of docs/schema/check.schema.json all follow it; tests/unit/check pins the docs,
// the schema and the ids the judge and the doctor give against it. The rows themselves are in
// check_rows.hpp, where a check is added first.

#include <string>
#include <string_view>
#include <vector>

#include "common/check/check.hpp"
#include "common/check/check_fold.hpp"
#include "common/check/check_rows.hpp"

namespace tfwsl {

// A category's line in the text: its title and the check whose summary stands there when all is fine.
struct CheckCategory {
  std::string_view name, title, lead;
};

// The precondition of the host and wsl.exe checks: tfwsl runs on Windows. Not a check: no verdict.
inline constexpr std::string_view k_platform_windows = "platform.windows";

// Every check, in the order of the doctor's report and of docs/doctor.md's table.
const std::vector<CheckRow>& check_table();
// The categories, in the order the table first names them.
const std::vector<CheckCategory>& check_categories();

const CheckRow* find_check_row(std::string_view id);
const CheckCategory* find_check_category(std::string_view name);
bool is_precondition(std::string_view id);

// The ids every doctor report holds, in the table's order (the container route's rows are added
// only for a route: container profile); with a source, only the checks it judges.
std::vector<std::string> check_ids();
// Every row's id, the route's rows too (what the docs and the JSON schemas list), in table order.
std::vector<std::string> every_check_id();
std::vector<std::string> check_ids(CheckSource source);
// A row's needs as ids.
std::vector<std::string> needs_of(const CheckRow& row);

// The table's needs in the form fold_report takes.
const DependencyTable& check_dependencies();

// platform.windows, met or not, with the line a native-Linux report shows for what folds under it.
Precondition platform_windows(bool is_windows);

}  // namespace tfwsl
