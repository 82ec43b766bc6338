#pragma once
// What `tfwsl data push` prints at the end: where the data landed, the Linux path to use in code,
// how Windows reaches it; or why it was refused, with the fix. And the same as JSON
// (docs/schema/data-push.schema.json, envelope tfwsl.data-push).

#include <nlohmann/json.hpp>
#include <string>

#include "win/push/push_run.hpp"

namespace tfwsl::push {

std::string render_push_text(const PushOutcome& outcome, const PushRequest& request);
nlohmann::json push_to_json(const PushOutcome& outcome, const PushRequest& request);
// The plan alone (--dry-run), as text.
std::string render_plan_text(const PushPlan& plan, const PushRequest& request);

}  // namespace tfwsl::push
