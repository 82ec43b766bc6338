#include "win/render/uninstall_report.hpp"

#include "common/cli/json_envelope.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/plural.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"
#include "win/render/json_schema_names.hpp"

namespace tfwsl::cli {
namespace {

using agent_service::Leftover;
using agent_service::LeftoverKind;

const char* kind_name(LeftoverKind kind) {
  switch (kind) {
    case LeftoverKind::file:
      return "file";
    case LeftoverKind::folder:
      return "folder";
    case LeftoverKind::venv:
      return "venv";
    case LeftoverKind::process:
      return "process";
  }
  return "file";
}

const char* action_name(const UninstallEntry& e) {
  if (!e.item.remove) return "leave";
  if (e.error) return "failed";
  return e.done ? "removed" : "remove";
}

std::string line_of(const Leftover& l) {
  std::string s = visible_text(l.what);
  if (!l.path.empty()) s += "  " + visible_text(l.path);
  if (l.size) s += "  (" + format_bytes(static_cast<std::uint64_t>(*l.size)) + ")";
  return s;
}

// Items grouped under the place each lies in, in the order they came.
void print_group(std::ostream& out, const UninstallReport& report, bool removing, std::size_t width) {
  const WrapStyle item{width, "    ", "      ", {}};
  const WrapStyle why{width, "      ", "      ", [](std::string_view word) { return word == "tfwsl"; }};
  std::string where;
  for (const auto& e : report.entries) {
    if (e.item.remove != removing) continue;
    if (e.item.where != where) out << "  " << (where = e.item.where) << ":\n";
    out << wrap_text(line_of(e.item), item);
    if (!removing) out << wrap_text(visible_text(e.item.why), why);
  }
}

}  // namespace

std::size_t UninstallReport::to_remove() const {
  std::size_t n = 0;
  for (const auto& e : entries) n += e.item.remove ? 1 : 0;
  return n;
}

std::size_t UninstallReport::failed() const {
  std::size_t n = 0;
  for (const auto& e : entries) n += e.error ? 1 : 0;
  return n;
}

void print_uninstall_plan(std::ostream& out, const UninstallReport& report, std::size_t width) {
  const std::size_t n = report.to_remove();
  if (n == 0)
    out << "tfwsl left nothing of its own to remove.\n";
  else
    out << "tfwsl made " << plural(n, "item", "items")
        << (report.dry_run ? ", which tfwsl uninstall would remove:\n" : ", to remove:\n");
  print_group(out, report, true, width);
  if (n == report.entries.size()) return;
  out << "Left alone (not provably tfwsl's, or kept for you):\n";
  print_group(out, report, false, width);
}

void print_uninstall_step(std::ostream& out, const UninstallEntry& entry) {
  if (!entry.done) return;  // a failure is named with the others at the end
  if (entry.item.kind == LeftoverKind::process)
    out << "stopped " << visible_text(entry.item.what) << "\n";
  else
    out << "removed " << visible_text(entry.item.path) << "\n";
}

void print_uninstall_outcome(std::ostream& out, const UninstallReport& report) {
  for (const auto& e : report.entries)
    if (e.error) out << "not removed: " << visible_text(e.item.path) << ": " << visible_text(*e.error) << "\n";
  out << "removed " << plural(report.to_remove() - report.failed(), "item", "items");
  if (report.failed() > 0) out << "; " << report.failed() << " could not be removed (above)";
  out << ". Nothing else was touched.\n";
}

nlohmann::json uninstall_json(const UninstallReport& report) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& e : report.entries) {
    nlohmann::json j{{"what", visible_text(e.item.what)}, {"where", visible_text(e.item.where)},
                     {"path", visible_text(e.item.path)}, {"kind", kind_name(e.item.kind)},
                     {"action", action_name(e)},          {"why", visible_text(e.item.why)}};
    if (e.item.size) j["size_bytes"] = *e.item.size;
    if (e.error) j["error"] = visible_text(*e.error);
    items.push_back(std::move(j));
  }
  nlohmann::json body{{"dry_run", report.dry_run},
                      {"applied", report.applied},
                      {"to_remove", report.to_remove()},
                      {"failed", report.failed()},
                      {"items", std::move(items)}};
  return with_json_envelope(std::move(body), json_schema::k_uninstall, json_schema::k_version);
}

}  // namespace tfwsl::cli
