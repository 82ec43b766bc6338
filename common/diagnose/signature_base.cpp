#include "common/diagnose/signature_base.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "common/compat/compat_db.hpp"
#include "common/diagnose/profile_constants.hpp"
#include "common/util/ascii.hpp"
#include "common/util/yaml_document.hpp"
#include "common/version/driver_version.hpp"
#include "common/version/version.hpp"

namespace tfwsl::diagnose {
namespace {

Result<Severity> parse_severity(const std::string& text) {
  if (text == "error") return Severity::error;
  if (text == "warning") return Severity::warning;
  if (text == "info") return Severity::info;
  return make_error(ErrorCode::parse, fmt::format("severity '{}' is not one of error, warning, info", text));
}

std::vector<std::string> string_list(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) {
    out.push_back(node.as<std::string>());
    return out;
  }
  for (const auto& item : node) out.push_back(item.as<std::string>());
  return out;
}

// The value of a dotted path in the facts, or nullptr.
const nlohmann::json* find_fact(const nlohmann::json& facts, const std::string& path) {
  const nlohmann::json* node = &facts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    std::string key = path.substr(start, dot - start);
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
    start = dot + 1;
  }
  return node;
}

bool truthy(const nlohmann::json* value) {
  if (!value || value->is_null()) return false;
  if (value->is_boolean()) return value->get<bool>();
  if (value->is_number()) return value->get<double>() != 0;
  if (value->is_string() || value->is_array() || value->is_object()) return !value->empty();
  return false;
}

}  // namespace

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::info:
      return "info";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "info";
}

bool Signature::applies_to(std::string_view kind) const {
  for (const auto& k : kinds) {
    if (k == "any" || k == kind) return true;
  }
  return false;
}

std::string SignatureBase::constant(const std::string& name) const {
  auto it = m_constants.find(name);
  return it == m_constants.end() ? std::string() : it->second;
}

bool condition_holds(const Condition& condition, const nlohmann::json& facts) {
  const nlohmann::json* value = find_fact(facts, condition.fact);
  using Test = Condition::Test;
  switch (condition.test) {
    case Test::is_true:
      return value && value->is_boolean() && value->get<bool>();
    case Test::is_false:
      return !truthy(value);
    case Test::present:
      return value && !value->is_null();
    case Test::absent:
      return !value || value->is_null();
    case Test::empty:
      return !truthy(value);
    case Test::nonempty:
      return truthy(value);
    case Test::at_least:
      return value && value->is_number() && value->get<double>() >= condition.number;
    case Test::below:
      return value && value->is_number() && value->get<double>() < condition.number;
    case Test::version_below: {
      if (!value || !value->is_string()) return false;
      auto shown = Version::parse(value->get<std::string>());
      auto limit = Version::parse(condition.version);
      return shown && limit && *shown < *limit;
    }
    case Test::windows_driver_below: {
      if (!value || !value->is_string()) return false;
      auto shown = parse_driver_version(value->get<std::string>());
      auto limit = parse_driver_version(condition.version);
      return shown && limit && !shown->is_linux_numbering() && *shown < *limit;
    }
    case Test::in: {
      if (!value || !value->is_string()) return false;
      std::string text = ascii_lower(value->get<std::string>());
      return std::find(condition.values.begin(), condition.values.end(), text) != condition.values.end();
    }
    case Test::contains_none: {
      Condition any = condition;
      any.test = Test::contains_any;
      return !condition_holds(any, facts);
    }
    case Test::contains_any: {
      if (!value) return false;
      if (value->is_string()) {
        std::string text = ascii_lower(value->get<std::string>());
        for (const auto& v : condition.values) {
          if (text.find(v) != std::string::npos) return true;
        }
        return false;
      }
      if (!value->is_array()) return false;
      for (const auto& item : *value) {
        if (!item.is_string()) continue;
        std::string text = ascii_lower(item.get<std::string>());
        if (std::find(condition.values.begin(), condition.values.end(), text) != condition.values.end()) return true;
      }
      return false;
    }
  }
  return false;
}

namespace {

// "${name}" -> the constant's value, in a summary or a fix; an unknown name is an error. "%{...}" is
// left for the engine.
Result<std::string> expand_constants(const std::string& text, const SignatureBase& base) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t open = text.find("${", pos);
    if (open == std::string::npos) break;
    std::size_t close = text.find('}', open);
    if (close == std::string::npos) return make_error(ErrorCode::parse, "'${' without its '}'");
    std::string name = text.substr(open + 2, close - open - 2);
    std::string value = base.constant(name);
    if (value.empty()) return make_error(ErrorCode::parse, fmt::format("unknown constant '${{{}}}'", name));
    out += text.substr(pos, open - pos) + value;
    pos = close + 1;
  }
  return out + text.substr(pos);
}

// The constants the signatures take from the compatibility data rather than repeat. cuda_min: the
// document's own oldest CUDA, whose major selects the Windows driver floor.
Result<std::map<std::string, std::string>> compat_constants(const CompatDb& compat, const std::string& cuda_min) {
  auto cuda = Version::parse(cuda_min);
  if (!cuda)
    return make_error(ErrorCode::parse, "needs a 'cuda_min' version constant to take the driver minimum from compat");
  auto floor = compat.minor_version_floor(cuda->major());
  if (!floor)
    return make_error(ErrorCode::parse,
                      fmt::format("the compatibility data has no driver floor for CUDA {}", cuda->major()));
  std::map<std::string, std::string> constants{{"windows_driver_min", floor->windows.to_string()}};
  if (compat.wsl_gpu_min_windows_build() > 0)
    constants["windows_build_min"] = std::to_string(compat.wsl_gpu_min_windows_build());
  // TensorFlow's own history, cited in compat.yaml: the last native-Windows GPU release, the first
  // release after it (WSL 2 only from there), the first with the [and-cuda] extra.
  const Version last_native = compat.last_native_windows_gpu_release();
  constants["native_windows_gpu_last"] = last_native.to_string();
  for (const auto& release : compat.tf_releases())  // newest first: the last one above is the first after
    if (last_native < release.release) constants["wsl_only_first"] = release.release.to_string();
  constants["and_cuda_first"] = compat.and_cuda_extra_from().to_string();
  return constants;
}

}  // namespace

namespace {

// Constants the document takes from elsewhere (compat, profiles) and may not define itself.
Status add_outside_constants(std::map<std::string, std::string>& constants,
                             const std::map<std::string, std::string>& from, std::string_view origin,
                             std::string_view where) {
  for (const auto& [name, value] : from) {
    if (!constants.emplace(name, value).second)
      return make_error(ErrorCode::parse,
                        fmt::format("{}: constant '{}' comes from {}; remove it here", origin, name, where));
  }
  return {};
}

}  // namespace

namespace {

Result<YAML::Node> parse_signatures_document(std::string_view yaml_text, std::string_view origin) {
  TFWSL_TRY(root, parse_yaml_document(yaml_text, origin));
  if (!root.IsMap() || !root["signatures"] || !root["signatures"].IsSequence()) {
    return make_error(ErrorCode::parse, fmt::format("{}: expected a 'signatures:' list", origin));
  }
  return root;
}

// The document's own constants, then those from the compatibility data and the profiles, which it
// may not define itself.
Result<std::map<std::string, std::string>> read_constants(const YAML::Node& root, std::string_view origin,
                                                          const CompatDb* compat,
                                                          const std::map<std::string, std::string>* profile) {
  std::map<std::string, std::string> constants;
  if (root["constants"]) {
    for (const auto& entry : root["constants"])
      constants[entry.first.as<std::string>()] = entry.second.as<std::string>();
  }
  if (compat) {
    const auto cuda_min = constants.find("cuda_min");
    auto from_compat = compat_constants(*compat, cuda_min == constants.end() ? std::string() : cuda_min->second);
    if (!from_compat) return make_error(ErrorCode::parse, fmt::format("{}: {}", origin, from_compat.error().message));
    if (auto added =
            add_outside_constants(constants, *from_compat, origin, "the compatibility data (profiles/compat.yaml)");
        !added)
      return make_error(added.error().code, added.error().message);
  }
  if (profile) {
    if (auto added = add_outside_constants(constants, *profile, origin, "the profiles (profiles/*.yaml)"); !added)
      return make_error(added.error().code, added.error().message);
  }
  return constants;
}

// The steps of reading one signature. Their errors say what is wrong with it; read_signature puts
// the document and the signature in front.

// "$name" -> the constant's value; any other text stands for itself.
Result<std::string> resolve_constant(const std::string& text, const SignatureBase& base) {
  if (text.empty() || text[0] != '$') return text;
  std::string value = base.constant(text.substr(1));
  if (value.empty()) return make_error(ErrorCode::parse, fmt::format("unknown constant '{}'", text));
  return value;
}

Status read_patterns(const YAML::Node& node, Signature& sig) {
  for (const auto& literal : string_list(node["match"])) {
    if (literal.empty()) return make_error(ErrorCode::parse, "an empty 'match' literal would match everything");
    sig.patterns.push_back({ascii_lower(literal), nullptr, literal});
  }
  if (!node["regex"]) return {};
  for (const auto& item : node["regex"]) {
    std::string needle = item["needle"] ? item["needle"].as<std::string>() : std::string();
    std::string pattern = item["pattern"] ? item["pattern"].as<std::string>() : std::string();
    if (needle.empty() || pattern.empty())
      return make_error(ErrorCode::parse, "each 'regex' needs a non-empty 'needle' and 'pattern'");
    try {
      auto regex = std::make_shared<const std::regex>(pattern, std::regex::ECMAScript | std::regex::icase);
      sig.patterns.push_back({ascii_lower(needle), std::move(regex), pattern});
    } catch (const std::regex_error& e) {
      return make_error(ErrorCode::parse, fmt::format("pattern '{}' is not a valid regex: {}", pattern, e.what()));
    }
  }
  return {};
}

// is: true | false | present | absent | empty | nonempty
Status read_is_test(const YAML::Node& item, Condition& condition) {
  using Test = Condition::Test;
  static const std::map<std::string, Test> k_tests = {{"true", Test::is_true},    {"false", Test::is_false},
                                                      {"present", Test::present}, {"absent", Test::absent},
                                                      {"empty", Test::empty},     {"nonempty", Test::nonempty}};
  const std::string is = item["is"].as<std::string>();
  auto it = k_tests.find(is);
  if (it == k_tests.end())
    return make_error(ErrorCode::parse,
                      fmt::format("'is: {}' is not one of true, false, present, absent, empty, nonempty", is));
  condition.test = it->second;
  return {};
}

// at_least: N | below: N (a number or a $constant)
Status read_number_test(const YAML::Node& item, const SignatureBase& base, Condition& condition) {
  const bool at_least = static_cast<bool>(item["at_least"]);
  auto text = resolve_constant((at_least ? item["at_least"] : item["below"]).as<std::string>(), base);
  if (!text) return make_error(text.error().code, text.error().message);
  try {
    condition.number = std::stod(*text);
  } catch (const std::exception&) {
    return make_error(ErrorCode::parse, fmt::format("'{}' is not a number", *text));
  }
  condition.test = at_least ? Condition::Test::at_least : Condition::Test::below;
  return {};
}

// version_below: V | windows_driver_below: V (a version or a $constant)
Status read_version_test(const YAML::Node& item, const SignatureBase& base, Condition& condition) {
  const bool version = static_cast<bool>(item["version_below"]);
  auto text =
      resolve_constant((version ? item["version_below"] : item["windows_driver_below"]).as<std::string>(), base);
  if (!text) return make_error(text.error().code, text.error().message);
  condition.version = *text;
  condition.test = version ? Condition::Test::version_below : Condition::Test::windows_driver_below;
  const bool valid =
      version ? static_cast<bool>(Version::parse(*text)) : static_cast<bool>(parse_driver_version(*text));
  if (!valid) return make_error(ErrorCode::parse, fmt::format("'{}' is not a version", *text));
  return {};
}

// in: [...] | contains_any: [...] | contains_none: [...] (compared in ASCII lower case)
void read_set_test(const YAML::Node& item, Condition& condition) {
  const char* key = item["in"] ? "in" : item["contains_any"] ? "contains_any" : "contains_none";
  for (const auto& v : string_list(item[key])) condition.values.push_back(ascii_lower(v));
  condition.test = item["in"]             ? Condition::Test::in
                   : item["contains_any"] ? Condition::Test::contains_any
                                          : Condition::Test::contains_none;
}

Result<Condition> read_condition(const YAML::Node& item, const SignatureBase& base) {
  Condition condition;
  if (!item["fact"]) return make_error(ErrorCode::parse, "each 'when' needs a 'fact'");
  condition.fact = item["fact"].as<std::string>();
  Status read;
  if (item["is"]) {
    read = read_is_test(item, condition);
  } else if (item["at_least"] || item["below"]) {
    read = read_number_test(item, base, condition);
  } else if (item["version_below"] || item["windows_driver_below"]) {
    read = read_version_test(item, base, condition);
  } else if (item["in"] || item["contains_any"] || item["contains_none"]) {
    read_set_test(item, condition);
  } else {
    return make_error(ErrorCode::parse,
                      "a 'when' needs one of is, at_least, below, version_below, windows_driver_below, in, "
                      "contains_any, contains_none");
  }
  if (!read) return make_error(read.error().code, read.error().message);
  return condition;
}

// summary, fix and fix_windows, with their ${constants} expanded.
Status read_texts(const YAML::Node& node, const SignatureBase& base, Signature& sig) {
  auto text_of = [&node](const char* key) { return node[key] ? node[key].as<std::string>() : std::string(); };
  auto summary = expand_constants(text_of("summary"), base);
  if (!summary) return make_error(ErrorCode::parse, "summary: " + summary.error().message);
  auto fix = expand_constants(text_of("fix"), base);
  if (!fix) return make_error(ErrorCode::parse, "fix: " + fix.error().message);
  auto fix_windows = expand_constants(text_of("fix_windows"), base);
  if (!fix_windows) return make_error(ErrorCode::parse, "fix_windows: " + fix_windows.error().message);
  sig.summary = std::move(*summary);
  sig.fix = std::move(*fix);
  sig.fix_windows = std::move(*fix_windows);
  if (sig.summary.empty()) return make_error(ErrorCode::parse, "needs a 'summary'");
  // An information finding may say nothing more than its summary; a problem needs a fix.
  if (sig.fix.empty() && sig.severity != Severity::info)
    return make_error(ErrorCode::parse, "needs a 'fix' (only info findings may have none)");
  return {};
}

// Fills sig field by field (its id first, so that an error can name it).
Status read_signature_fields(const YAML::Node& node, const SignatureBase& base, Signature& sig) {
  if (!node.IsMap() || !node["id"]) return make_error(ErrorCode::parse, "needs an 'id'");
  sig.id = node["id"].as<std::string>();
  auto severity = parse_severity(node["severity"] ? node["severity"].as<std::string>() : std::string());
  if (!severity) return make_error(severity.error().code, severity.error().message);
  sig.severity = *severity;
  sig.kinds = string_list(node["kinds"]);
  if (sig.kinds.empty()) return make_error(ErrorCode::parse, "needs 'kinds' (a list, or [any])");
  if (auto patterns = read_patterns(node, sig); !patterns) return patterns;
  if (node["when"]) {
    for (const auto& item : node["when"]) {
      auto condition = read_condition(item, base);
      if (!condition) return make_error(condition.error().code, condition.error().message);
      sig.when.push_back(std::move(*condition));
    }
  }
  sig.fallback = node["fallback"] && node["fallback"].as<bool>();
  if (sig.patterns.empty() && sig.when.empty() && !sig.fallback)
    return make_error(ErrorCode::parse, "needs 'match', 'regex', 'when' or 'fallback'");
  sig.unless = string_list(node["unless"]);
  if (node["about"]) {
    sig.about = node["about"]["subject"] ? node["about"]["subject"].as<std::string>() : std::string();
    sig.about_name = node["about"]["name"] ? node["about"]["name"].as<std::string>() : std::string();
    if (sig.about.empty() || sig.about_name.empty())
      return make_error(ErrorCode::parse, "'about' needs a subject and a name");
  }
  return read_texts(node, base, sig);
}

// index: the signature's place in the document, from 1, for errors that have no id to name.
Result<Signature> read_signature(const YAML::Node& node, const SignatureBase& base, std::string_view origin,
                                 std::size_t index) {
  Signature sig;
  Status read;
  try {
    read = read_signature_fields(node, base, sig);
  } catch (const YAML::Exception& e) {
    read = make_error(ErrorCode::parse, e.what());
  }
  if (!read)
    return make_error(ErrorCode::parse, fmt::format("{}: signature {} ({}): {}", origin, index,
                                                    sig.id.empty() ? "no id" : sig.id, read.error().message));
  return sig;
}

}  // namespace

Result<SignatureBase> SignatureBase::load(std::string_view yaml_text, std::string_view origin, const CompatDb* compat,
                                          const std::map<std::string, std::string>* profile) {
  TFWSL_TRY(root, parse_signatures_document(yaml_text, origin));
  SignatureBase base;
  TFWSL_TRY(constants, read_constants(root, origin, compat, profile));
  base.m_constants = std::move(constants);
  std::size_t index = 0;
  for (const auto& node : root["signatures"]) {
    TFWSL_TRY(sig, read_signature(node, base, origin, ++index));
    base.m_signatures.push_back(std::move(sig));
  }
  TFWSL_TRY(subjects, read_text_subjects(root, origin));
  base.m_subjects = std::move(subjects);
  return base;
}

const Result<SignatureBase>& builtin_signature_base() {
  static const Result<SignatureBase> base = []() -> Result<SignatureBase> {
    const CompatDb& compat = builtin_compat_db();
    auto profile = builtin_profile_constants(compat);
    if (!profile)
      return make_error(profile.error().code, "profiles/signatures.yaml (built in): " + profile.error().message);
    return SignatureBase::load(builtin_signatures_yaml(), "profiles/signatures.yaml (built in)", &compat, &*profile);
  }();
  return base;
}

}  // namespace tfwsl::diagnose
