#include "common/provision/download_sizes.hpp"

#include <fmt/format.h>

#include <charconv>

#include "common/core/builtin_data.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/yaml_document.hpp"

namespace tfwsl::provision {
namespace {

Result<std::string> text_at(const YAML::Node& node, const char* key, std::string_view source) {
  auto text = yaml_scalar(node[key]);
  if (!text || text->empty())
    return make_error(ErrorCode::parse,
                      fmt::format("{}: '{}' is missing or not a value", yaml_position(source, node.Mark()), key));
  return *text;
}

Result<std::uint64_t> bytes_at(const YAML::Node& node, std::string_view source) {
  TFWSL_TRY(text, text_at(node, "bytes", source));
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0)
    return make_error(ErrorCode::parse, fmt::format("{}: 'bytes' must be a positive whole number, not {}",
                                                    yaml_position(source, node.Mark()), text));
  return value;
}

// Every entry names the page its figure comes from: an uncited size is refused.
Result<std::vector<KnownFile>> read_files(const YAML::Node& list, const char* name_key, std::string_view source) {
  std::vector<KnownFile> files;
  for (const auto& item : list) {
    KnownFile file;
    TFWSL_TRY(name, text_at(item, name_key, source));
    TFWSL_TRY(bytes, bytes_at(item, source));
    TFWSL_TRY(cited, text_at(item, "source", source));
    file.name = name;
    file.version = yaml_scalar(item["version"]).value_or("");
    file.bytes = bytes;
    file.source = cited;
    files.push_back(std::move(file));
  }
  return files;
}

// "2.15.*", "==2.15.1", "2.15" all name release 2.15; "2.150" does not.
bool names_release(std::string_view version, std::string_view release) {
  if (version.rfind("==", 0) == 0) version.remove_prefix(2);
  if (version.rfind(release, 0) != 0) return false;
  return version.size() == release.size() || version[release.size()] == '.';
}

// One `'URI' FILE SIZE [HASH]` line: its size, or nullopt for any other line.
std::optional<std::uint64_t> print_uris_line_bytes(std::string_view line) {
  if (line.empty() || line.front() != '\'') return std::nullopt;
  const auto uri_end = line.find('\'', 1);
  if (uri_end == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(uri_end + 1);
  const auto file_start = rest.find_first_not_of(' ');
  if (file_start == std::string_view::npos) return std::nullopt;
  rest.remove_prefix(file_start);
  const auto size_start = rest.find(' ');
  if (size_start == std::string_view::npos) return std::nullopt;
  rest.remove_prefix(size_start + 1);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (ec != std::errc() || (end != rest.data() + rest.size() && *end != ' ')) return std::nullopt;
  return value;
}

}  // namespace

const TensorflowWheels* DownloadFacts::wheels_for(std::string_view tensorflow_version) const {
  for (const auto& release : tensorflow)
    if (names_release(tensorflow_version, release.release)) return &release;
  return nullptr;
}

const KnownFile* DownloadFacts::apt_package(std::string_view package) const {
  for (const auto& file : apt)
    if (file.name == package) return &file;
  return nullptr;
}

const KnownFile* DownloadFacts::image(std::string_view digest) const {
  for (const auto& file : images)
    if (file.name == digest) return &file;
  return nullptr;
}

Result<DownloadFacts> load_download_facts(std::string_view yaml, std::string_view source_name) {
  TFWSL_TRY(root, parse_yaml_document(yaml, source_name));
  if (yaml_scalar(root["schema"]).value_or("") != "1")
    return make_error(ErrorCode::parse, fmt::format("{}: schema must be 1", source_name));
  DownloadFacts facts;
  for (const auto& item : root["tensorflow"]) {
    TensorflowWheels release;
    TFWSL_TRY(name, text_at(item, "release", source_name));
    TFWSL_TRY(wheels, read_files(item["wheels"], "name", source_name));
    TFWSL_TRY(and_cuda, read_files(item["and_cuda_wheels"], "name", source_name));
    facts.tensorflow.push_back({name, std::move(wheels), std::move(and_cuda)});
  }
  TFWSL_TRY(apt, read_files(root["apt"], "package", source_name));
  facts.apt = std::move(apt);
  TFWSL_TRY(images, read_files(root["images"], "digest", source_name));
  for (std::size_t i = 0; i < images.size(); ++i)
    images[i].version = yaml_scalar(root["images"][i]["image"]).value_or("");
  facts.images = std::move(images);
  return facts;
}

const DownloadFacts& builtin_download_facts() {
  static const DownloadFacts facts = builtin_or_abort(
      load_download_facts(builtin_download_sizes_yaml(), "profiles/download-sizes.yaml (built in)"), "download sizes");
  return facts;
}

std::uint64_t apt_print_uris_bytes(std::string_view output) {
  std::uint64_t total = 0;
  for (const auto& line : lines_of(output)) total += print_uris_line_bytes(line).value_or(0);
  return total;
}

std::string download_words(const DownloadEstimate& estimate) {
  if (estimate.basis == "none") return "nothing";
  if (!estimate.bytes) return "not known before it runs";
  if (*estimate.bytes == 0) return "nothing";
  return (estimate.approximate ? "about " : "") + format_bytes(*estimate.bytes);
}

}  // namespace tfwsl::provision
