#include "common/check/check_fold.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace tfwsl {
namespace {

using NeedsById = std::map<std::string, std::vector<std::string>>;

NeedsById index_table(const DependencyTable& table) {
  NeedsById needs;
  for (const auto& d : table) needs[d.id] = d.needs;
  return needs;
}

// Where `check` folds, given its prerequisites' states; empty when it stands on its own.
std::string fold_target(const CheckResult& check, const std::vector<std::string>& needs, const Report& report,
                        const std::map<std::string, const Precondition*>& unmet) {
  if (check.status == CheckStatus::ok) return {};
  for (const auto& need : needs) {
    if (auto it = unmet.find(need); it != unmet.end()) {
      if (check.status == CheckStatus::skip) return need;
      continue;
    }
    const CheckResult* prerequisite = report.find(need);
    if (!prerequisite) continue;
    if (!prerequisite->blocked_by.empty()) {
      // Through a precondition only skips fold, as for the precondition itself.
      if (unmet.count(prerequisite->blocked_by) && check.status != CheckStatus::skip) continue;
      return prerequisite->blocked_by;
    }
    if (prerequisite->status == CheckStatus::fail) return prerequisite->id;
  }
  return {};
}

// Ids in dependency order: by the longest chain of prerequisites below each (none first), then
// table order. A cycle would recurse forever; the table's unit test rules cycles out.
std::vector<std::string> dependency_order(const DependencyTable& table, const NeedsById& needs) {
  std::map<std::string, std::size_t> depth;
  std::function<std::size_t(const std::string&)> depth_of = [&](const std::string& id) -> std::size_t {
    if (auto it = depth.find(id); it != depth.end()) return it->second;
    std::size_t d = 0;
    if (auto it = needs.find(id); it != needs.end())
      for (const auto& need : it->second) d = std::max(d, depth_of(need) + 1);
    return depth[id] = d;
  };
  std::vector<std::string> order;
  for (const auto& d : table) order.push_back(d.id);
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return depth_of(a) < depth_of(b); });
  return order;
}

}  // namespace

void fold_report(Report& report, const DependencyTable& table, const std::vector<Precondition>& preconditions) {
  const NeedsById needs = index_table(table);
  std::map<std::string, const Precondition*> unmet;
  report.unmet.clear();
  for (const auto& p : preconditions)
    if (!p.met) report.unmet.push_back(p);
  for (const auto& p : report.unmet) unmet[p.id] = &p;
  for (auto& c : report.checks) c.blocked_by.clear();
  report.fix_order = dependency_order(table, needs);
  // Fold to a fixed point: a check may come before its prerequisite in report order
  // (gpu.driver-parity is last). The table has no cycles (a unit test pins it), so each pass
  // settles at least one more level and the loop ends after at most table.size() passes.
  for (std::size_t pass = 0; pass <= table.size(); ++pass) {
    bool changed = false;
    for (auto& c : report.checks) {
      auto it = needs.find(c.id);
      if (it == needs.end()) continue;
      std::string target = fold_target(c, it->second, report, unmet);
      if (target != c.blocked_by) c.blocked_by = std::move(target), changed = true;
    }
    if (!changed) break;
  }
}

std::vector<const CheckResult*> root_causes(const Report& report) {
  std::vector<const CheckResult*> roots;
  for (const auto& c : report.checks)
    if (c.is_root_issue()) roots.push_back(&c);
  auto rank = [&](const CheckResult* c) {
    auto it = std::find(report.fix_order.begin(), report.fix_order.end(), c->id);
    return std::size_t(it - report.fix_order.begin());  // not in the table: after those that are
  };
  std::stable_sort(roots.begin(), roots.end(),
                   [&](const CheckResult* a, const CheckResult* b) { return rank(a) < rank(b); });
  return roots;
}

}  // namespace tfwsl
