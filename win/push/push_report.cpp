#include "win/push/push_report.hpp"

#include <fmt/format.h>

#include "common/cli/json_envelope.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/plural.hpp"
#include "common/util/visible_text.hpp"
#include "win/push/progress_text.hpp"

namespace tfwsl::push {

// `tfwsl data push --json`'s schema name (docs/schema/data-push.schema.json).
constexpr std::string_view k_data_push_schema = "tfwsl.data-push";
namespace {

// Paths and the agent's words (a problem's path and message are a file's name in the source) shown
// visibly: a name holding an escape sequence or a line break cannot act on the terminal.
std::string v(std::string_view text) { return visible_text(text); }

nlohmann::json room_json(const RoomVerdict& room) {
  return {
      {"checked", room.checked},     {"enough", room.enough},
      {"needed_bytes", room.needed}, {"free_bytes", room.free ? nlohmann::json(*room.free) : nlohmann::json(nullptr)},
      {"where", room.where},         {"reason", room.reason}};
}

std::string room_line(const RoomVerdict& room) {
  if (!room.checked) return "  room on " + v(room.where) + ": not checked (" + v(room.reason) + ")\n";
  return fmt::format("  room on {}: {} free, {} needed\n", v(room.where), format_bytes(*room.free),
                     format_bytes(room.needed));
}

nlohmann::json job_json(const JobState& job) {
  nlohmann::json j{{"id", job.id}, {"state", to_string(job.status)}, {"progress", to_json(job.progress)}};
  j["progress"].erase("current_file");  // the file in flight is the terminal's, not the report's
  const nlohmann::json result = job.result ? to_json(*job.result) : to_json(agent_api::ImportResult{});
  for (const char* key : {"problems", "problems_not_listed", "windows_unfriendly_names"}) j[key] = result[key];
  return j;
}

std::string problems_text(const JobState& job) {
  std::string out;
  if (!job.result) return out;
  for (const auto& p : job.result->problems) out += "  " + v(p.kind) + ": " + v(p.path) + ": " + v(p.message) + "\n";
  return out;
}

std::string landed_text(const PushOutcome& o) {
  const auto& p = o.plan;
  const auto& g = o.job->progress;
  std::string out =
      fmt::format("pushed {} -> {} ({}, {}; {} copied, {} already there{})\n", v(p.source_given), v(p.target),
                  plural(g.files_total, "file", "files"), format_bytes(g.bytes_total), g.files_copied, g.files_skipped,
                  g.files_moved > 0 ? fmt::format(", {} moved", g.files_moved) : "");
  out += "use in code: \"" + v(p.target) + "\"\n";
  if (auto view = windows_view_of(p.distro_name, p.target); !view.empty()) out += "from Windows: " + v(view) + "\n";
  return out;
}

}  // namespace

std::string render_plan_text(const PushPlan& p, const PushRequest& request) {
  std::string out = fmt::format("would push {} ({}) -> {}\n", v(p.source_given), v(p.source_linux), v(p.target));
  out += fmt::format("  {}, {}, {}; mode {}{}\n", plural(p.tree.files, "file", "files"),
                     plural(p.tree.folders, "folder", "folders"), format_bytes(p.tree.bytes),
                     request.move ? "move (each source file deleted once its copy is durable and verified)" : "copy",
                     request.verify ? ", verify" : "");
  for (std::size_t i = 0; i < request.exclude.size(); ++i)
    out += (i == 0 ? "  leaving out, at any depth: " : ", ") + v(request.exclude[i]) +
           (i + 1 == request.exclude.size() ? "\n" : "");
  out += room_line(p.host_room) + room_line(p.distro_room);
  return out;
}

std::string render_push_text(const PushOutcome& o, const PushRequest& request) {
  switch (o.end) {
    case PushEnd::planned:
      return render_plan_text(o.plan, request);
    case PushEnd::succeeded:
      return landed_text(o);
    case PushEnd::with_problems:
      return landed_text(o) + "problems (not pushed, or kept in the source):\n" + problems_text(*o.job);
    case PushEnd::interrupted: {
      std::string out = "interrupted: the job was cancelled; " +
                        (o.job ? fmt::format("{} of {} files are in {}", o.job->progress.files_done,
                                             o.job->progress.files_total, v(o.plan.target))
                               : std::string("nothing was started")) +
                        ", complete and verified; push again to continue\n";
      if (!o.note.empty()) out += "note: " + v(o.note) + "\n";
      return out;
    }
    default:
      return "";  // refusals and failures go to stderr (the command writes o.error)
  }
}

nlohmann::json push_to_json(const PushOutcome& o, const PushRequest& request) {
  const auto& p = o.plan;
  nlohmann::json j = json_envelope(k_data_push_schema, json_schema::k_version);
  j["ok"] = o.end == PushEnd::succeeded || o.end == PushEnd::with_problems || o.end == PushEnd::planned;
  j["outcome"] = to_string(o.end);
  j["source"] = {{"given", p.source_given},
                 {"linux_path", p.source_linux},
                 {"mount_type", p.mount_type},
                 {"slow_mount", p.slow_mount}};
  j["target"] = {
      {"name", p.name}, {"linux_path", p.target}, {"windows_path", windows_view_of(p.distro_name, p.target)}};
  j["mode"] = request.move ? "move" : "copy";
  j["verify"] = request.verify;
  j["tree"] = {{"files", p.tree.files}, {"folders", p.tree.folders}, {"bytes", p.tree.bytes}};
  j["room"] = {{"host", room_json(p.host_room)}, {"distro", room_json(p.distro_room)}};
  j["job"] = o.job ? job_json(*o.job) : nlohmann::json(nullptr);
  j["error"] = o.error ? nlohmann::json{{"code", to_string(o.error->code)}, {"message", o.error->message}}
                       : nlohmann::json(nullptr);
  j["note"] = o.note;
  return j;
}

}  // namespace tfwsl::push
