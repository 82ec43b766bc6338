#include "common/parse/nvidia_smi_query_reader.hpp"

#include <algorithm>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::parse {
namespace {

// "8192 MiB" -> 8192.
std::optional<long long> query_mib(std::string_view value) {
  const auto words = words_of(value);
  if (words.size() != 2 || words[1] != "MiB" || words[0].size() > 12) return std::nullopt;
  if (!ascii_all_digits(words[0])) return std::nullopt;
  return std::stoll(std::string(words[0]));
}

bool is_driver_model(std::string_view value) { return value == "WDDM" || value == "TCC" || value == "MCDM"; }

// The report pads its labels to a column ("Driver Version                            : 510.06"); the
// table writes "Driver Version: 510.06" inside its box. `nvidia-smi -q | findstr Version` keeps
// only such padded lines, so its driver line starts a report too (a "CUDA Version : 12.2" alone is
// as likely a line of an issue template).
bool is_padded_version_line(std::string_view line, const std::string& label) {
  if (label != "driver version") return false;
  const std::string_view t = trim_with_nbsp(line);
  const auto colon = t.find(':');
  return !t.starts_with("|") && colon != std::string_view::npos && colon > 0 &&
         (t[colon - 1] == ' ' || t[colon - 1] == '\t');
}

}  // namespace

bool NvidiaSmiQueryReader::read(std::string_view line, NvidiaSmiResult& result) {
  if (contains(line, "NVSMI LOG")) {
    m_active = result.query_report = true;
    return true;
  }
  const auto pair = split_label_value(line);
  if (!pair) {
    // A heading ("    Driver Model") inside a report; a GPU block starts with "GPU 00000000:01:00.0".
    const std::string_view shown = trim_with_nbsp(line);
    if (m_active && !shown.empty()) m_section = normalize_sentence(line);
    return m_active && !shown.empty() && !shown.starts_with("|") && !shown.starts_with("+");
  }
  if (pair->label == "attached gpus" || pair->label == "product name" || is_padded_version_line(line, pair->label))
    m_active = result.query_report = true;
  if (!m_active) return false;
  const std::string& value = pair->value;
  if (pair->label == "driver version" && is_dotted_number(value)) {
    result.driver_version = value;
  } else if (pair->label == "cuda version") {
    if (is_dotted_number(value))
      result.cuda_version = value;
    else if (value.starts_with("ERR"))
      result.cuda_version_error = true;
  } else if (pair->label == "product name") {
    finish(result);
    m_has_gpu = true;
    m_gpu.name = std::string(strip_trailing_cut_markers(value));
    m_gpu.name_truncated = has_cut_marker(value);
  } else if (m_has_gpu && pair->label == "current" && m_section == "driver model" && is_driver_model(value)) {
    m_gpu.driver_model = value;
  } else if (m_has_gpu && pair->label == "total" && m_section == "fb memory usage") {
    m_gpu.memory_mib = query_mib(value);
  }
  return true;
}

void NvidiaSmiQueryReader::finish(NvidiaSmiResult& result) {
  if (!m_has_gpu) return;
  // A block shown in full has its name and, further down, its memory total.
  m_gpu.complete = !m_gpu.name.empty() && m_gpu.memory_mib.has_value();
  result.gpus.push_back(std::move(m_gpu));
  m_gpu = NvidiaGpu{};
  m_has_gpu = false;
}

}  // namespace tfwsl::parse
