#include "common/profile/profile_loader.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/compat/yaml_document.hpp"
#include "common/core/suggest.hpp"
#include "common/profile/profile_validator.hpp"
#include "common/resources/embedded_resources.hpp"
#include "common/text/utf_convert.hpp"
#include "common/units/size_parser.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl {
namespace {

const std::vector<std::string> k_top_keys{"name", "extends", "route", "distro", "wsl", "cuda", "python",
                                          "tensorflow", "packages", "env", "datasets"};
const std::vector<std::string> k_section_names{"wsl", "cuda", "python", "tensorflow", "packages"};
const std::vector<std::string> k_wsl_keys{"memory", "processors", "swap"};
const std::vector<std::string> k_cuda_keys{"toolkit", "cudnn"};
const std::vector<std::string> k_python_keys{"version", "venv"};
const std::vector<std::string> k_tensorflow_keys{"version", "extras"};
const std::vector<std::string> k_packages_keys{"apt", "pip"};
const std::vector<std::string> k_dataset_keys{"name", "source"};

const std::vector<std::string>& section_keys(const std::string& section) {
  if (section == "wsl") return k_wsl_keys;
  if (section == "cuda") return k_cuda_keys;
  if (section == "python") return k_python_keys;
  if (section == "tensorflow") return k_tensorflow_keys;
  return k_packages_keys;
}

bool is_env_name(std::string_view s) {
  if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_profile_name(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}

// Profile values are names, versions and paths: text a person can read. Control characters and
// broken UTF-8 are mistakes (a binary file, a bad paste) and would not survive `profile export`.
bool is_readable_text(std::string_view s) {
  if (!is_valid_utf8(s)) return false;
  return std::none_of(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f; });
}

bool is_apt_package(std::string_view s) {
  // Debian package names, optionally pinned: "build-essential", "cuda-toolkit-12-2=12.2.2-1".
  if (s.empty() || s.size() > 200) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '=' ||
           c == ':' || c == '~' || (c >= 'A' && c <= 'Z');
  });
}

// closest_match plus one swap of neighbouring letters ("cdua" -> "cuda"), the commonest typo,
// which plain edit distance counts as two edits.
std::optional<std::string> suggest_key(const std::string& word, const std::vector<std::string>& known) {
  if (auto hint = closest_match(word, known)) return hint;
  for (const auto& k : known) {
    if (k.size() != word.size()) continue;
    for (std::size_t i = 0; i + 1 < word.size(); ++i) {
      std::string swapped = word;
      std::swap(swapped[i], swapped[i + 1]);
      if (swapped == k) return k;
    }
  }
  return std::nullopt;
}

// Reads one layer (one file, or one override) into a Profile, recording every problem.
class LayerReader {
 public:
  LayerReader(std::string file, std::vector<ProfileIssue>& issues) : m_file(std::move(file)), m_issues(issues) {}

  SourceLocation where(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null() || mark.line < 0) return SourceLocation{m_file, 0, 0};
    return SourceLocation{m_file, mark.line + 1, mark.column + 1};
  }

  void error(const YAML::Node& at, std::string message, std::string fix = {}) {
    m_issues.push_back(ProfileIssue{IssueSeverity::error, where(at), std::move(message), std::move(fix)});
  }

  void unknown_key(const YAML::Node& key_node, const std::string& key, const std::vector<std::string>& known,
                   const std::string& within) {
    auto hint = suggest_key(key, known);
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    error(key_node,
          fmt::format("unknown key '{}'{}", within.empty() ? key : within + "." + key,
                      hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
          hint ? fmt::format("rename it to '{}'", *hint)
               : fmt::format("remove it; {} takes: {}", within.empty() ? "a profile" : "'" + within + "'", list));
  }

  // Every key of a map once: a repeated key is an error (YAML would silently keep one).
  std::vector<std::pair<std::string, std::pair<YAML::Node, YAML::Node>>> entries(const YAML::Node& map) {
    std::vector<std::pair<std::string, std::pair<YAML::Node, YAML::Node>>> out;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        error(key, "a key must be a plain word", "write the key as text, such as 'cuda:'");
        continue;
      }
      if (!seen.insert(key.Scalar()).second) {
        error(key, fmt::format("key '{}' appears twice in the same map", key.Scalar()), "keep one of them");
        continue;
      }
      out.push_back({key.Scalar(), {key, it->second}});
    }
    return out;
  }

  std::optional<std::string> scalar(const YAML::Node& node, const std::string& key, std::string_view example) {
    if (node.IsNull()) {
      error(node, fmt::format("'{}' has no value", key), fmt::format("write a value, e.g. {}: {}", key, example));
      return std::nullopt;
    }
    if (!node.IsScalar()) {
      error(node, fmt::format("'{}' must be a single value, not a {}", key, node.IsMap() ? "map" : "list"),
            fmt::format("write e.g. {}: {}", key, example));
      return std::nullopt;
    }
    if (!is_readable_text(node.Scalar())) {
      error(node, fmt::format("'{}' contains control characters or is not valid UTF-8", key), "retype the value as plain text");
      return std::nullopt;
    }
    return node.Scalar();
  }

  void set_text(Setting<std::string>& out, const YAML::Node& node, const std::string& key, std::string_view example) {
    auto text = scalar(node, key, example);
    if (!text) return;
    if (text->empty()) {
      error(node, fmt::format("'{}' is empty", key), fmt::format("write a value, e.g. {}: {}", key, example));
      return;
    }
    out.value = *text;
    out.where = where(node);
  }

  void set_version(Setting<std::string>& out, const YAML::Node& node, const std::string& key, std::string_view example) {
    auto text = scalar(node, key, example);
    if (!text) return;
    auto v = Version::parse(*text);
    if (!v || v->release.size() < 2 || v->is_prerelease()) {
      error(node, fmt::format("'{}' must be a version such as {}, got '{}'", key, example, *text),
            fmt::format("write it in quotes: {}: \"{}\"", key, example));
      return;
    }
    out.value = *text;
    out.where = where(node);
  }

  void set_size(Setting<std::uint64_t>& out, const YAML::Node& node, const std::string& key) {
    auto text = scalar(node, key, "16GB");
    if (!text) return;
    auto bytes = parse_wsl_size(*text);
    if (!bytes) {
      error(node, fmt::format("'{}': {}", key, bytes.error().message), "write a size such as 16GB or 512MB");
      return;
    }
    if (*bytes == 0 && key == "wsl.memory") {
      error(node, "'wsl.memory' is 0", "write the memory WSL may use, such as 16GB");
      return;
    }
    out.value = *bytes;
    out.where = where(node);
  }

  void set_processors(Setting<int>& out, const YAML::Node& node, const std::string& key) {
    auto text = scalar(node, key, "8");
    if (!text) return;
    int value = 0;
    bool ok = !text->empty() && text->size() <= 4 &&
              std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; });
    if (ok) value = std::stoi(*text);
    if (!ok || value < 1 || value > 1024) {
      error(node, fmt::format("'{}' must be a whole number of processors from 1 to 1024, got '{}'", key, *text),
            "write e.g. processors: 8");
      return;
    }
    out.value = value;
    out.where = where(node);
  }

  void set_list(Setting<std::vector<std::string>>& out, const YAML::Node& node, const std::string& key,
                std::string_view example) {
    if (node.IsNull()) {
      out.value = std::vector<std::string>{};
      out.where = where(node);
      return;
    }
    if (!node.IsSequence()) {
      error(node, fmt::format("'{}' must be a list", key), fmt::format("write e.g. {}: [{}]", key, example));
      return;
    }
    std::vector<std::string> items;
    bool ok = true;
    for (const auto& item : node) {
      if (!item.IsScalar() || item.Scalar().empty() || !is_readable_text(item.Scalar())) {
        error(item, fmt::format("each item of '{}' must be a single non-empty value", key), fmt::format("write e.g. {}: [{}]", key, example));
        ok = false;
        continue;
      }
      if (key == "packages.pip") {
        auto req = parse_requirement(item.Scalar());
        if (!req) {
          error(item, fmt::format("'{}' item: {}", key, req.error().message), "write a pip requirement such as \"numpy<2\"");
          ok = false;
          continue;
        }
      } else if (key == "packages.apt" && !is_apt_package(item.Scalar())) {
        error(item, fmt::format("'{}' is not an apt package name", item.Scalar()), "write e.g. build-essential");
        ok = false;
        continue;
      }
      items.push_back(item.Scalar());
    }
    if (!ok) return;
    out.value = std::move(items);
    out.where = where(node);
  }

  void set_route(Setting<ProfileRoute>& out, const YAML::Node& node) {
    auto text = scalar(node, "route", "wsl");
    if (!text) return;
    if (*text == "wsl") {
      out.value = ProfileRoute::wsl;
    } else if (*text == "native-windows") {
      out.value = ProfileRoute::native_windows;
    } else {
      auto hint = closest_match(*text, {"wsl", "native-windows"});
      error(node, fmt::format("route '{}' is not known{}", *text, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
            "write route: wsl (or native-windows for TF <= 2.10 on Windows itself)");
      return;
    }
    out.where = where(node);
  }

  void set_env(Profile& p, const std::string& name, const YAML::Node& name_node, const YAML::Node& value) {
    if (!is_env_name(name)) {
      error(name_node, fmt::format("'{}' is not an environment variable name", name),
            "use letters, digits and '_', not starting with a digit");
      return;
    }
    auto text = scalar(value, "env." + name, "\"true\"");
    if (!text) return;
    Setting<std::string> s{*text, where(value)};
    for (auto& e : p.env) {
      if (e.name == name) {
        e.value = s;
        return;
      }
    }
    p.env.push_back(EnvEntry{name, s});
  }

  void set_datasets(Profile& p, const YAML::Node& node) {
    if (node.IsNull()) {
      p.datasets.value = std::vector<DatasetEntry>{};
      p.datasets.where = where(node);
      return;
    }
    if (!node.IsSequence()) {
      error(node, "'datasets' must be a list", "write e.g. datasets: [ { name: imagenet-mini, source: 'D:\\data\\imagenet-mini' } ]");
      return;
    }
    std::vector<DatasetEntry> list;
    std::set<std::string> names;
    bool ok = true;
    for (const auto& item : node) {
      if (!item.IsMap()) {
        error(item, "each dataset must be a map with 'name' and 'source'", "write e.g. { name: imagenet-mini, source: 'D:\\data\\imagenet-mini' }");
        ok = false;
        continue;
      }
      DatasetEntry d;
      d.where = where(item);
      for (const auto& [key, kv] : entries(item)) {
        if (key == "name" || key == "source") {
          Setting<std::string> s;
          set_text(s, kv.second, "datasets." + key, key == "name" ? "imagenet-mini" : "'D:\\data\\imagenet-mini'");
          if (s.has_value()) (key == "name" ? d.name : d.source) = *s;
          else ok = false;
        } else {
          unknown_key(kv.first, key, k_dataset_keys, "datasets");
          ok = false;
        }
      }
      if (d.name.empty() || d.source.empty()) {
        error(item, fmt::format("dataset needs both 'name' and 'source'{}", d.name.empty() ? "" : " ('" + d.name + "' has no source)"),
              "write e.g. { name: imagenet-mini, source: 'D:\\data\\imagenet-mini' }");
        ok = false;
        continue;
      }
      if (!names.insert(d.name).second) {
        error(item, fmt::format("dataset '{}' is listed twice", d.name), "give each dataset its own name");
        ok = false;
        continue;
      }
      list.push_back(std::move(d));
    }
    if (!ok) return;
    p.datasets.value = std::move(list);
    p.datasets.where = where(node);
  }

  // One setting by dotted key; the key is known to be valid here.
  void set(Profile& p, const std::string& key, const YAML::Node& value) {
    if (key == "name") {
      Setting<std::string> s;
      set_text(s, value, key, "my-team");
      if (!s.has_value()) return;
      if (!is_profile_name(*s)) {
        error(value, fmt::format("profile name '{}' may only use letters, digits, '.', '_' and '-' (64 at most)", *s),
              "write e.g. name: tf-2.15-team");
        return;
      }
      p.name = s;
    } else if (key == "route") {
      set_route(p.route, value);
    } else if (key == "distro") {
      set_text(p.distro, value, key, "Ubuntu-22.04");
    } else if (key == "wsl.memory") {
      set_size(p.wsl_memory, value, key);
    } else if (key == "wsl.swap") {
      set_size(p.wsl_swap, value, key);
    } else if (key == "wsl.processors") {
      set_processors(p.wsl_processors, value, key);
    } else if (key == "cuda.toolkit") {
      set_version(p.cuda_toolkit, value, key, "12.2");
    } else if (key == "cuda.cudnn") {
      set_version(p.cuda_cudnn, value, key, "8.9");
    } else if (key == "python.version") {
      set_version(p.python_version, value, key, "3.10");
    } else if (key == "python.venv") {
      set_text(p.python_venv, value, key, "~/.venvs/tf");
    } else if (key == "tensorflow.version") {
      Setting<std::string> s;
      set_text(s, value, key, "\"2.15.*\"");
      if (!s.has_value()) return;
      auto spec = VersionSpec::parse(*s);
      if (!spec) {
        error(value, fmt::format("'tensorflow.version': {}", spec.error().message), "write e.g. version: \"2.15.*\"");
        return;
      }
      p.tensorflow_version = s;
    } else if (key == "tensorflow.extras") {
      set_list(p.tensorflow_extras, value, key, "and-cuda");
    } else if (key == "packages.apt") {
      set_list(p.apt_packages, value, key, "build-essential");
    } else if (key == "packages.pip") {
      set_list(p.pip_packages, value, key, "\"numpy<2\"");
    } else if (key == "datasets") {
      set_datasets(p, value);
    }
  }

  // A whole file. Returns the `extends` reference when there is one.
  std::optional<Setting<std::string>> read_document(const YAML::Node& root, Profile& p) {
    std::optional<Setting<std::string>> extends;
    if (root.IsNull()) return extends;  // an empty file sets nothing
    if (!root.IsMap()) {
      error(root, "a profile must be a YAML map of keys such as 'name:' and 'tensorflow:'",
            "start from 'tfwsl profile init' or a built-in profile");
      return extends;
    }
    for (const auto& [key, kv] : entries(root)) {
      const YAML::Node& value = kv.second;
      if (std::find(k_top_keys.begin(), k_top_keys.end(), key) == k_top_keys.end()) {
        unknown_key(kv.first, key, k_top_keys, "");
        continue;
      }
      if (key == "extends") {
        Setting<std::string> s;
        set_text(s, value, key, "base.yaml");
        if (s.has_value()) extends = s;
      } else if (key == "env") {
        if (value.IsNull()) continue;
        if (!value.IsMap()) {
          error(value, "'env' must be a map of variable names to values", "write e.g. env: { TF_FORCE_GPU_ALLOW_GROWTH: \"true\" }");
          continue;
        }
        for (const auto& [name, nv] : entries(value)) set_env(p, name, nv.first, nv.second);
      } else if (std::find(k_section_names.begin(), k_section_names.end(), key) != k_section_names.end()) {
        if (value.IsNull()) continue;
        if (!value.IsMap()) {
          error(value, fmt::format("'{}' must be a map", key),
                fmt::format("write e.g. {}: {{ {}: ... }}", key, section_keys(key).front()));
          continue;
        }
        for (const auto& [sub, sv] : entries(value)) {
          const auto& known = section_keys(key);
          if (std::find(known.begin(), known.end(), sub) == known.end()) {
            unknown_key(sv.first, sub, known, key);
            continue;
          }
          set(p, key + "." + sub, sv.second);
        }
      } else {
        set(p, key, value);
      }
    }
    return extends;
  }

 private:
  std::string m_file;
  std::vector<ProfileIssue>& m_issues;
};

template <class T>
void overlay(Setting<T>& base, const Setting<T>& top) {
  if (top.has_value()) base = top;
}

void overlay_profile(Profile& base, const Profile& top) {
  overlay(base.name, top.name);
  overlay(base.route, top.route);
  overlay(base.distro, top.distro);
  overlay(base.wsl_memory, top.wsl_memory);
  overlay(base.wsl_processors, top.wsl_processors);
  overlay(base.wsl_swap, top.wsl_swap);
  overlay(base.cuda_toolkit, top.cuda_toolkit);
  overlay(base.cuda_cudnn, top.cuda_cudnn);
  overlay(base.python_version, top.python_version);
  overlay(base.python_venv, top.python_venv);
  overlay(base.tensorflow_version, top.tensorflow_version);
  overlay(base.tensorflow_extras, top.tensorflow_extras);
  overlay(base.apt_packages, top.apt_packages);
  overlay(base.pip_packages, top.pip_packages);
  overlay(base.datasets, top.datasets);
  for (const auto& e : top.env) {
    auto it = std::find_if(base.env.begin(), base.env.end(), [&](const EnvEntry& b) { return b.name == e.name; });
    if (it == base.env.end()) base.env.push_back(e);
    else it->value = e.value;
  }
  for (const auto& source : top.sources) {
    if (base.sources.empty() || base.sources.back() != source) base.sources.push_back(source);
  }
}

struct Layer {
  Profile profile;
  std::optional<Setting<std::string>> extends;
  bool readable = false;
};

Layer read_layer(const ProfileText& text, std::vector<ProfileIssue>& issues) {
  Layer layer;
  YAML::Node root;
  try {
    root = YAML::Load(text.text);
  } catch (const YAML::Exception& e) {
    SourceLocation at{text.display_name, 0, 0};
    if (!e.mark.is_null() && e.mark.line >= 0) at = SourceLocation{text.display_name, e.mark.line + 1, e.mark.column + 1};
    issues.push_back({IssueSeverity::error, at, fmt::format("YAML syntax error: {}", e.msg),
                      "fix the indentation or quoting there (values with ':' or '#' need quotes)"});
    return layer;
  }
  LayerReader reader(text.display_name, issues);
  layer.extends = reader.read_document(root, layer.profile);
  layer.profile.sources.push_back(text.display_name);
  layer.readable = true;
  return layer;
}

}  // namespace

const std::vector<std::string>& profile_setting_keys() {
  static const std::vector<std::string> keys{"name", "extends", "route", "distro", "wsl.memory", "wsl.processors", "wsl.swap",
                                             "cuda.toolkit", "cuda.cudnn", "python.version", "python.venv",
                                             "tensorflow.version", "tensorflow.extras", "packages.apt", "packages.pip",
                                             "env.<NAME>", "datasets"};
  return keys;
}

std::vector<ProfileIssue> apply_profile_override(Profile& profile, std::string_view assignment) {
  std::vector<ProfileIssue> issues;
  const SourceLocation here{"<command line>", 0, 0};
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    issues.push_back({IssueSeverity::error, here, fmt::format("override '{}' is not KEY=VALUE", assignment),
                      "write e.g. --set tensorflow.version=2.16.*"});
    return issues;
  }
  const std::string key(assignment.substr(0, eq));
  const std::string value_text(assignment.substr(eq + 1));
  auto value = parse_yaml_document(value_text, "<command line>");
  if (!value) {
    issues.push_back({IssueSeverity::error, here, fmt::format("override '{}': {}", assignment, value.error().message), ""});
    return issues;
  }
  LayerReader reader("<command line>", issues);
  Profile top;
  if (key.rfind("env.", 0) == 0) {
    reader.set_env(top, key.substr(4), *value, *value);
  } else {
    std::vector<std::string> known = profile_setting_keys();
    known.erase(std::remove_if(known.begin(), known.end(), [](const std::string& k) { return k == "extends" || k == "env.<NAME>"; }),
                known.end());
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      auto hint = suggest_key(key, known);
      issues.push_back({IssueSeverity::error, here,
                        fmt::format("unknown setting '{}'{}", key, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
                        hint ? fmt::format("write {}=...", *hint) : "see docs/profiles.md for the settings"});
      return issues;
    }
    reader.set(top, key, *value);
  }
  for (auto& issue : issues) issue.where = here;  // a one-line value has no useful line:col
  if (!has_errors(issues)) {
    top.sources.push_back("<command line>");
    overlay_profile(profile, top);
  }
  return issues;
}

ProfileLoadResult load_profile(const ProfileText& root, ProfileResolver& resolver, const ProfileLoadOptions& options) {
  ProfileLoadResult result;
  std::vector<Layer> layers;  // the file itself first, then what it extends
  std::vector<std::string> chain{root.id};
  std::vector<std::string> chain_names{root.display_name};
  ProfileText current = root;
  for (;;) {
    Layer layer = read_layer(current, result.issues);
    if (!layer.readable) {
      if (layers.empty()) return result;
      break;
    }
    auto extends = layer.extends;
    layers.push_back(std::move(layer));
    if (!extends) break;
    const SourceLocation at = extends->where;
    if (layers.size() > options.max_extends_depth) {
      result.issues.push_back({IssueSeverity::error, at,
                               fmt::format("extends goes more than {} files deep", options.max_extends_depth),
                               "extend a profile that extends fewer files"});
      break;
    }
    auto next = resolver.resolve(current, **extends);
    if (!next) {
      result.issues.push_back({IssueSeverity::error, at, fmt::format("extends '{}': {}", **extends, next.error().message),
                               "point extends at an existing profile, relative to this file (or builtin:NAME)"});
      break;
    }
    if (std::find(chain.begin(), chain.end(), next->id) != chain.end()) {
      std::string cycle;
      for (const auto& n : chain_names) cycle += n + " -> ";
      cycle += next->display_name;
      result.issues.push_back({IssueSeverity::error, at, fmt::format("extends cycle: {}", cycle),
                               "remove the extends that leads back to a file already in the chain"});
      break;
    }
    chain.push_back(next->id);
    chain_names.push_back(next->display_name);
    current = std::move(*next);
  }

  Profile merged;
  if (options.apply_builtin_defaults) {
    if (auto defaults = embedded_resource("builtin-defaults.yaml")) {
      Layer d = read_layer(ProfileText{"builtin:builtin-defaults.yaml", "builtin:builtin-defaults.yaml", std::string(*defaults)},
                           result.issues);
      d.profile.sources.clear();  // defaults are not a source the user chose
      overlay_profile(merged, d.profile);
    }
  }
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) overlay_profile(merged, it->profile);
  for (const auto& o : options.overrides) {
    auto issues = apply_profile_override(merged, o);
    result.issues.insert(result.issues.end(), issues.begin(), issues.end());
  }
  if (options.validate) {
    const CompatDb& db = options.compat ? *options.compat : builtin_compat_db();
    auto issues = validate_profile(merged, db);
    result.issues.insert(result.issues.end(), issues.begin(), issues.end());
  }
  result.profile = std::move(merged);
  return result;
}

ProfileLoadResult load_profile(std::string_view name_or_path, const ProfileLoadOptions& options) {
  auto text = open_profile(name_or_path);
  if (!text) {
    ProfileLoadResult result;
    result.issues.push_back({IssueSeverity::error, SourceLocation{std::string(name_or_path), 0, 0}, text.error().message, ""});
    return result;
  }
  FileProfileResolver resolver;
  return load_profile(*text, resolver, options);
}

Result<Profile> load_valid_profile(std::string_view name_or_path, const ProfileLoadOptions& options) {
  auto loaded = load_profile(name_or_path, options);
  if (!loaded.ok()) return tl::unexpected(issues_to_error(loaded.issues, fmt::format("profile '{}'", name_or_path)));
  return std::move(*loaded.profile);
}

}  // namespace tfwsl
