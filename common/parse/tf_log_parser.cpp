#include "common/parse/tf_log_parser.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

// The version at the start of `text` ("9.1.0", "8.1.0." -> "8.1.0": a sentence's full stop);
// nothing when there is none or it was cut ("9.1...", "9.1\u2026": digits may be missing).
std::optional<std::string> leading_version(std::string_view text) {
  text = trim_with_nbsp(text);
  std::size_t end = 0;
  while (end < text.size() && (ascii_is_digit(text[end]) || text[end] == '.')) ++end;
  std::string_view version = text.substr(0, end);
  if (version.empty() || !ascii_is_digit(version.front()) || has_cut_marker(version) ||
      starts_with_cut_marker(text.substr(end)))
    return std::nullopt;
  while (version.back() == '.') version.remove_suffix(1);
  return std::string(version);
}

// The number at the start of `text`; nothing when there is none or it was cut ("1...").
std::optional<int> leading_int(std::string_view text) {
  text = trim_with_nbsp(text);
  int value = 0;
  std::size_t i = 0;
  for (; i < text.size() && ascii_is_digit(text[i]) && i < 6; ++i) value = value * 10 + (text[i] - '0');
  if (i == 0 || starts_with_cut_marker(text.substr(i))) return std::nullopt;
  return value;
}

std::size_t count_of(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string_view::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

// The library name just before ": cannot open shared object file" ("...dlerror: libcudnn.so.8").
std::string library_before(std::string_view line, std::size_t end) {
  std::size_t start = end;
  while (start > 0) {
    char c = line[start - 1];
    if (c == ' ' || c == '\'' || c == '"' || c == '(' || c == ':' || c == '/' || c == '`') break;
    --start;
  }
  return std::string(line.substr(start, end - start));
}

// A name dlopen was given has a letter or digit; dots, quotes and blanks alone are not one.
bool is_library_name(std::string_view name) {
  return std::any_of(name.begin(), name.end(), [](char c) { return ascii_is_alnum(c); });
}

void keep_max(std::optional<int>& slot, int value) {
  if (!slot || *slot < value) slot = value;
}

// Markers that only TF/XLA/Keras logs carry, and weaker ones any CUDA program's loader error shows.
// TF's source paths are named by their folder: "tensorflow/tensorflow:2.4.1-gpu" is a Docker image.
// TensorFlow's own messages count as much as its file prefixes: quoted in prose, without timestamp
// or file, they still say the text is about TensorFlow (issue 26: an environment table's "WSL
// version:" lines beside them do not make it `wsl --version` output).
constexpr std::array<std::string_view, 33> k_strong_markers = {"tensorflow/core/",
                                                               "tensorflow/stream_executor/",
                                                               "tensorflow/compiler/",
                                                               "tensorflow/tsl/",
                                                               "tensorflow/python/",
                                                               "xla/stream_executor",
                                                               "tsl/",
                                                               "cuda_dnn.cc",
                                                               "cuda_driver.cc",
                                                               "gpu_device.cc",
                                                               "dso_loader",
                                                               "physicaldevice(",
                                                               "num gpus",
                                                               "cannot dlopen some gpu libraries",
                                                               "could not find cuda drivers",
                                                               "numa node",
                                                               "skipping registering gpu devices",
                                                               "device:gpu:",
                                                               "import tensorflow",
                                                               "tf-trt",
                                                               "cuda_gpu_executor",
                                                               "loaded runtime cudnn library",
                                                               "cuda_executor.cc",
                                                               "dml_device",
                                                               "keras 3 only supports",
                                                               "tf_use_legacy_keras",
                                                               "libdevice",
                                                               "tensorflow.python",
                                                               "not built with cuda kernel binaries",
                                                               "attempting to register factory for plugin",
                                                               "the minimum required cuda capability",
                                                               "could not find tensorrt",
                                                               "list_physical_devices("};
// Keras' and Python's messages: a traceback of a TensorFlow program, but also said of others.
constexpr std::array<std::string_view, 10> k_weak_markers = {"cannot open shared object file",
                                                             "could not load library",
                                                             "libcudnn",
                                                             "cuinit",
                                                             "cuda_error_",
                                                             "could not load dynamic library",
                                                             "successfully opened dynamic library",
                                                             "no module named 'keras.src",
                                                             "no module named 'tf_keras",
                                                             "<tf_keras.src."};

// One line in ASCII lower case (same byte positions), so that every case-insensitive search below
// is a plain find.
void lower_into(std::string_view line, std::string& lower) {
  lower.assign(line.begin(), line.end());
  for (char& c : lower) c = ascii_lower(c);
}

struct TfLogState {
  std::set<std::string> seen_libraries;
  std::set<int> created_gpus;
  bool skipping_registration = false;
  bool lists_devices = false;  // the paste asks TensorFlow for its devices somewhere (list_physical_devices)
  std::string lower;
};

// What Python printed for an empty device list: "[]" (or "[ ]" as retyped) on its own line, or at
// the end of a print's output ("GPU []", "gpus: []"); not code that merely holds "[]" ("x = []").
bool prints_empty_list(std::string_view line) {
  std::string_view t = trim_with_nbsp(line);
  if (t == "[]" || t == "[ ]") return true;
  if (!t.ends_with(" []") && !t.ends_with(":[]")) return false;
  return t.find_first_of("=(#") == std::string_view::npos;
}

void read_gpu_counts(std::string_view line, TfLogState& st, TfLogResult& result) {
  const std::string& lower = st.lower;
  std::size_t pos = 0;
  if ((pos = lower.find("num gpus")) != std::string::npos) {
    std::size_t colon = line.find(':', pos);
    if (colon != std::string_view::npos) {
      if (auto n = leading_int(line.substr(colon + 1))) keep_max(result.gpu_count, *n);
    }
  }
  if (line.find("PhysicalDevice(") != std::string_view::npos) {
    int gpus = static_cast<int>(count_of(line, "device_type='GPU'") + count_of(line, "device_type=\"GPU\""));
    if (gpus == 0) gpus = static_cast<int>(count_of(line, "physical_device:GPU:"));
    keep_max(result.gpu_count, gpus);
  }
  if ((pos = lower.find("adding visible gpu devices:")) != std::string::npos) {
    std::string_view list = trim_with_nbsp(line.substr(pos + 27));
    if (!list.empty() && ascii_is_digit(list[0])) keep_max(result.gpu_count, static_cast<int>(count_of(list, ",") + 1));
  }
  if ((pos = line.find("Created device /job:")) != std::string_view::npos ||
      (pos = line.find("Created TensorFlow device (/job:")) != std::string_view::npos) {
    std::size_t gpu = line.find("device:GPU:", pos);
    if (gpu != std::string_view::npos) {
      if (auto n = leading_int(line.substr(gpu + 11))) st.created_gpus.insert(*n);
    }
  }
  // "Found device 7 with properties:" (TF 1.x-2.3; the name follows on the next line): the devices
  // are numbered from 0, so device 7 means at least eight.
  if ((pos = lower.find("found device ")) != std::string::npos &&
      lower.find("with properties", pos) != std::string::npos) {
    if (auto n = leading_int(line.substr(pos + 13))) keep_max(result.gpu_count, *n + 1);
  }
  if (lower.find("skipping registering gpu devices") != std::string::npos) st.skipping_registration = true;
  if ((st.skipping_registration || st.lists_devices) && prints_empty_list(line)) keep_max(result.gpu_count, 0);
}

// "compute capability: 8.9", "computeCapability: 5.0", "Compute Capability 7.0": the highest shown.
void read_compute_capability(std::string_view line, const std::string& lower, std::optional<std::string>& best) {
  std::size_t pos = lower.find("compute capability");
  std::size_t skip = 18;
  if (pos == std::string::npos) {
    pos = lower.find("computecapability");
    skip = 17;
  }
  if (pos == std::string::npos) return;
  std::string_view rest = trim_with_nbsp(line.substr(pos + skip));
  if (!rest.empty() && rest.front() == ':') rest = trim_with_nbsp(rest.substr(1));
  auto version = leading_version(rest);
  if (!version || !contains(*version, ".")) return;
  const auto major = [](const std::string& v) { return std::atoi(v.c_str()); };
  if (!best || major(*version) > major(*best)) best = version;
}

void read_versions(std::string_view line, const std::string& lower, TfLogResult& result) {
  std::size_t pos = 0;
  if ((pos = lower.find("loaded runtime cudnn library:")) != std::string::npos) {
    if (auto runtime = leading_version(line.substr(pos + 29))) result.cudnn_runtime = std::move(runtime);
    std::size_t compiled = lower.find("compiled with:");
    if (compiled != std::string::npos) {
      if (auto version = leading_version(line.substr(compiled + 14))) result.cudnn_compiled = std::move(version);
    }
  }
  read_compute_capability(line, lower, result.compute_capability);
  if (!result.tf_version && (pos = lower.find("tensorflow version:")) != std::string::npos) {
    if (auto version = leading_version(line.substr(pos + 19)); version && contains(*version, "."))
      result.tf_version = version;
  }
  if (!result.tf_version && (pos = line.find("tensorflow-")) != std::string_view::npos) {
    // A wheel name "tensorflow-2.15.0-cp311-..." in a pip line.
    auto version = leading_version(line.substr(pos + 11));
    if (version && contains(*version, ".") && line.find(".whl") != std::string_view::npos) result.tf_version = version;
  }
}

void read_missing_libraries(std::string_view line, TfLogState& st, TfLogResult& result) {
  for (std::size_t pos = line.find(": cannot open shared object file"); pos != std::string_view::npos;
       pos = line.find(": cannot open shared object file", pos + 1)) {
    std::string library = library_before(line, pos);
    // "...: cannot open" and "libcud...: cannot open" name no library, or only part of one.
    if (library.empty() || has_cut_marker(library) || !is_library_name(library)) continue;
    if (st.seen_libraries.insert(library).second) result.missing_libraries.push_back(library);
  }
}

}  // namespace

TfLogResult parse_tf_log(std::string_view text, bool asks_devices) {
  TfLogResult result;
  TfLogState st;
  // The call may come after what it printed (a REPL's `devices` then `[]`, the call shown later).
  st.lists_devices =
      asks_devices || ascii_lower(text.substr(0, 1 << 20)).find("list_physical_devices(") != std::string::npos;
  for (std::string_view line : lines_of(text)) {
    if (line.size() > 16384) line = line.substr(0, 16384);  // a 10 MB single line stays linear
    lower_into(line, st.lower);
    read_gpu_counts(line, st, result);
    read_versions(line, st.lower, result);
    read_missing_libraries(line, st, result);
  }
  if (!st.created_gpus.empty()) keep_max(result.gpu_count, static_cast<int>(st.created_gpus.size()));
  return result;
}

double looks_like_tf_log(std::string_view text) {
  // Only the first megabyte decides: a 10 MB log is recognised as fast as a short one.
  const std::string lower = ascii_lower(text.substr(0, 1 << 20));
  int strong = 0;
  for (auto marker : k_strong_markers) {
    if (lower.find(marker) != std::string::npos) ++strong;
  }
  int weak = 0;
  for (auto marker : k_weak_markers) {
    if (lower.find(marker) != std::string::npos) ++weak;
  }
  if (strong > 0) return std::min(1.0, 0.75 + 0.05 * (strong + weak));
  if (weak > 0) return std::min(0.7, 0.55 + 0.05 * weak);
  return 0.0;
}

nlohmann::json to_json(const TfLogResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  if (result.gpu_count) facts["gpu_count"] = *result.gpu_count;
  if (result.cudnn_runtime) facts["cudnn_runtime"] = *result.cudnn_runtime;
  if (result.cudnn_compiled) facts["cudnn_compiled"] = *result.cudnn_compiled;
  if (!result.missing_libraries.empty()) facts["missing_libraries"] = result.missing_libraries;
  if (result.tf_version) facts["tf_version"] = *result.tf_version;
  if (result.compute_capability) facts["compute_capability"] = *result.compute_capability;
  return facts;
}

}  // namespace tfwsl::parse
