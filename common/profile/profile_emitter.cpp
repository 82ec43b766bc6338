#include "common/profile/profile_emitter.hpp"

#include <yaml-cpp/yaml.h>

#include "common/units/size_parser.hpp"

namespace tfwsl {
namespace {

// Values that YAML would read as something other than the same text (3.10 as a number, "true",
// "~", "*x") are quoted; ordinary words stay plain so the output reads like a hand-written profile.
void scalar(YAML::Emitter& out, const std::string& text, bool always_quote = false) {
  if (always_quote) {
    out << YAML::DoubleQuoted << text;
    return;
  }
  out << text;  // yaml-cpp quotes what needs quoting (":", "#", leading '*', ...)
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

}  // namespace

std::string emit_profile(const Profile& p) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  if (p.name.has_value()) out << YAML::Key << "name" << YAML::Value << *p.name;
  if (p.route.has_value()) out << YAML::Key << "route" << YAML::Value << to_string(*p.route);
  if (p.distro.has_value()) out << YAML::Key << "distro" << YAML::Value << *p.distro;
  if (p.wsl_memory.has_value() || p.wsl_processors.has_value() || p.wsl_swap.has_value()) {
    out << YAML::Key << "wsl" << YAML::Value << YAML::BeginMap;
    if (p.wsl_memory.has_value()) out << YAML::Key << "memory" << YAML::Value << format_wsl_size(*p.wsl_memory);
    if (p.wsl_processors.has_value()) out << YAML::Key << "processors" << YAML::Value << *p.wsl_processors;
    if (p.wsl_swap.has_value()) out << YAML::Key << "swap" << YAML::Value << format_wsl_size(*p.wsl_swap);
    out << YAML::EndMap;
  }
  if (p.cuda_toolkit.has_value() || p.cuda_cudnn.has_value()) {
    out << YAML::Key << "cuda" << YAML::Value << YAML::BeginMap;
    if (p.cuda_toolkit.has_value()) { out << YAML::Key << "toolkit" << YAML::Value; scalar(out, *p.cuda_toolkit, true); }
    if (p.cuda_cudnn.has_value()) { out << YAML::Key << "cudnn" << YAML::Value; scalar(out, *p.cuda_cudnn, true); }
    out << YAML::EndMap;
  }
  if (p.python_version.has_value() || p.python_venv.has_value()) {
    out << YAML::Key << "python" << YAML::Value << YAML::BeginMap;
    if (p.python_version.has_value()) { out << YAML::Key << "version" << YAML::Value; scalar(out, *p.python_version, true); }
    if (p.python_venv.has_value()) { out << YAML::Key << "venv" << YAML::Value; scalar(out, *p.python_venv); }
    out << YAML::EndMap;
  }
  if (p.tensorflow_version.has_value() || p.tensorflow_extras.has_value()) {
    out << YAML::Key << "tensorflow" << YAML::Value << YAML::BeginMap;
    if (p.tensorflow_version.has_value()) { out << YAML::Key << "version" << YAML::Value; scalar(out, *p.tensorflow_version, true); }
    if (p.tensorflow_extras.has_value()) out << YAML::Key << "extras" << YAML::Value << YAML::Flow << *p.tensorflow_extras;
    out << YAML::EndMap;
  }
  if (p.apt_packages.has_value() || p.pip_packages.has_value()) {
    out << YAML::Key << "packages" << YAML::Value << YAML::BeginMap;
    if (p.apt_packages.has_value()) out << YAML::Key << "apt" << YAML::Value << YAML::Flow << *p.apt_packages;
    if (p.pip_packages.has_value()) {
      out << YAML::Key << "pip" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto& item : *p.pip_packages) out << YAML::DoubleQuoted << item;
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
  if (!p.env.empty()) {
    out << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
    for (const auto& e : p.env) {
      out << YAML::Key << e.name << YAML::Value << YAML::DoubleQuoted << *e.value;
    }
    out << YAML::EndMap;
  }
  if (p.datasets.has_value()) {
    out << YAML::Key << "datasets" << YAML::Value << YAML::BeginSeq;
    for (const auto& d : *p.datasets) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << d.name << YAML::Key << "source"
          << YAML::Value << YAML::SingleQuoted << d.source << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  std::string text = out.c_str();
  if (text == "{}") text.clear();
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::vector<FlatSetting> flatten_profile(const Profile& p) {
  std::vector<FlatSetting> out;
  auto add = [&](const char* key, const auto& setting, auto to_text) {
    if (setting.has_value()) out.push_back({key, to_text(*setting), setting.where});
  };
  auto same = [](const std::string& s) { return s; };
  add("name", p.name, same);
  add("route", p.route, [](ProfileRoute r) { return std::string(to_string(r)); });
  add("distro", p.distro, same);
  add("wsl.memory", p.wsl_memory, [](std::uint64_t b) { return format_wsl_size(b); });
  add("wsl.processors", p.wsl_processors, [](int n) { return std::to_string(n); });
  add("wsl.swap", p.wsl_swap, [](std::uint64_t b) { return format_wsl_size(b); });
  add("cuda.toolkit", p.cuda_toolkit, same);
  add("cuda.cudnn", p.cuda_cudnn, same);
  add("python.version", p.python_version, same);
  add("python.venv", p.python_venv, same);
  add("tensorflow.version", p.tensorflow_version, same);
  add("tensorflow.extras", p.tensorflow_extras, list_text);
  add("packages.apt", p.apt_packages, list_text);
  add("packages.pip", p.pip_packages, list_text);
  for (const auto& e : p.env) out.push_back({"env." + e.name, *e.value, e.value.where});
  add("datasets", p.datasets, [](const std::vector<DatasetEntry>& list) {
    std::string text = "[";
    for (std::size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + list[i].name + "=" + list[i].source;
    return text + "]";
  });
  return out;
}

}  // namespace tfwsl
