#include "common/parse/nvidia_smi_parser.hpp"

#include <algorithm>
#include <map>

#include "common/parse/line_tools.hpp"
#include "common/parse/nvidia_smi_query_reader.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

// The word after `label` on the line ("Driver Version:" -> "555.99").
std::optional<std::string> word_after(std::string_view line, std::string_view label) {
  const auto at = line.find(label);
  if (at == std::string_view::npos) return std::nullopt;
  const auto words = words_of(line.substr(at + label.size()));
  if (words.empty() || words.front() == "|") return std::nullopt;
  std::string_view word = words.front();
  while (!word.empty() && word.back() == '|') word.remove_suffix(1);
  if (word.empty()) return std::nullopt;
  return std::string(word);
}

// The parts of a table line between '|'; `closed` says whether the last part ended with a '|'
// (a part without its closing bar was cut by the paste).
struct Cells {
  std::vector<std::string_view> parts;
  std::size_t closed = 0;  // how many leading parts are complete
};

Cells cells_of(std::string_view line) {
  Cells cells;
  line = trim_with_nbsp(line);
  if (!line.starts_with("|")) return cells;
  line.remove_prefix(1);
  while (!line.empty()) {
    const auto bar = line.find('|');
    if (bar == std::string_view::npos) {
      if (!trim_with_nbsp(line).empty()) cells.parts.push_back(line);
      break;
    }
    cells.parts.push_back(line.substr(0, bar));
    ++cells.closed;
    line.remove_prefix(bar + 1);
  }
  return cells;
}

bool is_model_token(std::string_view word) {
  return word == "WDDM" || word == "TCC" || word == "On" || word == "Off" || word == "N/A" || word == "MCDM";
}

// A GPU name as shown: nvidia-smi cuts a long one to its column and ends it with "..." (a paste may
// turn that into U+2026). The marker is not part of the name, and a name is only shown when a
// letter or digit is left: "..." alone, or dots and blanks, name nothing.
struct ShownName {
  std::string text;  // empty when nothing of the name was shown
  bool truncated = false;
};

ShownName shown_name(std::string_view raw) {
  ShownName name;
  name.truncated = has_cut_marker(raw);
  raw = strip_trailing_cut_markers(raw);
  const bool has_content = std::any_of(raw.begin(), raw.end(), [](char c) { return ascii_is_alnum(c); });
  if (has_content) name.text = std::string(raw);
  return name;
}

// "   0  NVIDIA GeForce RTX 4090         On " -> index, name, model column. A row whose name was cut
// away entirely is still a GPU row (it counts), but with no name it can never be complete.
std::optional<NvidiaGpu> parse_first_row(const Cells& cells) {
  if (cells.closed < 2) return std::nullopt;
  auto words = words_of(cells.parts[0]);
  if (words.size() < 3 || !ascii_all_digits(words.front()) || !is_model_token(words.back())) return std::nullopt;
  // The second cell holds the bus id ("00000000:01:00.0  On"): a process row has no such cell.
  if (!contains(cells.parts[1], ":")) return std::nullopt;
  NvidiaGpu gpu;
  const std::string_view cell = cells.parts[0];
  const auto name_begin = static_cast<std::size_t>(words[1].data() - cell.data());
  const auto name_end =
      static_cast<std::size_t>(words[words.size() - 2].data() + words[words.size() - 2].size() - cell.data());
  ShownName name = shown_name(cell.substr(name_begin, name_end - name_begin));
  gpu.name = std::move(name.text);
  gpu.name_truncated = name.truncated;
  if (words.back() == "WDDM" || words.back() == "TCC" || words.back() == "MCDM")
    gpu.driver_model = std::string(words.back());
  return gpu;
}

// "   287MiB /  8192MiB " -> 8192.
std::optional<long long> memory_total(std::string_view cell) {
  const auto slash = cell.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view total = trim_with_nbsp(cell.substr(slash + 1));
  if (!total.ends_with("MiB")) return std::nullopt;
  total.remove_suffix(3);
  total = trim_with_nbsp(total);
  if (!ascii_all_digits(total) || total.size() > 12) return std::nullopt;
  return std::stoll(std::string(total));
}

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    fields.emplace_back(
        trim_with_nbsp(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// A --query-gpu field name as the CSV header or the command line spells it, reduced to what we use.
std::string canonical_field(std::string_view name) {
  std::string n = normalize_for_match(name);
  if (const auto bracket = n.find(" ["); bracket != std::string::npos) n.resize(bracket);  // "memory.total [MiB]"
  if (n == "name" || n == "gpu_name") return "name";
  if (n == "driver_version") return "driver_version";
  if (n == "driver_model.current" || n == "driver_model.pending") return "driver_model";
  if (n == "memory.total") return "memory.total";
  return n;
}

std::optional<long long> mib_value(std::string_view field) {
  std::string_view v = trim_with_nbsp(field);
  if (v.ends_with("MiB")) v = trim_with_nbsp(v.substr(0, v.size() - 3));
  if (!ascii_all_digits(v) || v.size() > 12) return std::nullopt;
  return std::stoll(std::string(v));
}

// The fields named by "--query-gpu=a,b,c" anywhere in the text.
std::vector<std::string> query_fields(std::string_view text) {
  const auto at = text.find("--query-gpu=");
  if (at == std::string_view::npos) return {};
  std::string_view rest = text.substr(at + 12);
  std::size_t end = 0;
  while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t' && rest[end] != '\n' && rest[end] != '\r' &&
         rest[end] != '`' && rest[end] != '"' && rest[end] != '\'')
    ++end;
  std::vector<std::string> fields;
  for (const std::string& f : split_csv(rest.substr(0, end))) fields.push_back(canonical_field(f));
  return fields;
}

bool is_csv_header(const std::vector<std::string>& fields) {
  return std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
    const std::string c = canonical_field(f);
    return c == "name" || c == "driver_version" || c == "driver_model" || c == "memory.total";
  });
}

// A record of our own query or of an unknown one: typed guesses, used only when no header or
// command line names the columns.
std::optional<NvidiaGpu> guess_csv_record(const std::vector<std::string>& fields, std::optional<std::string>& driver) {
  if (fields.size() < 2) return std::nullopt;
  NvidiaGpu gpu;
  const std::string& first = fields.front();
  const bool name_like = !first.empty() && !ascii_is_digit(first.front()) && !contains(first, ":") &&
                         !contains(first, "[") && first.size() <= 64 &&
                         (icontains(first, "nvidia") || icontains(first, "geforce") || icontains(first, "quadro") ||
                          icontains(first, "tesla") || icontains(first, "rtx") || icontains(first, "gtx"));
  if (!name_like) return std::nullopt;
  gpu.name = first;
  bool typed = false;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (is_dotted_number(f) && !driver) {
      driver = f;
      typed = true;
    } else if (f == "WDDM" || f == "TCC" || f == "MCDM") {
      gpu.driver_model = f;
      typed = true;
    } else if (f.ends_with("MiB") && mib_value(f)) {
      gpu.memory_mib = mib_value(f);
      typed = true;
    }
  }
  if (!typed) return std::nullopt;
  gpu.complete = true;
  return gpu;
}

// `nvidia-smi -L`: "GPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-5c3b...)".
std::optional<NvidiaGpu> parse_list_line(std::string_view line) {
  if (!line.starts_with("GPU ")) return std::nullopt;
  const auto colon = line.find(": ");
  const auto uuid = line.find(" (UUID: ");
  if (colon == std::string_view::npos || uuid == std::string_view::npos || uuid < colon) return std::nullopt;
  if (!ascii_all_digits(line.substr(4, colon - 4))) return std::nullopt;
  ShownName name = shown_name(line.substr(colon + 2, uuid - colon - 2));
  if (name.text.empty()) return std::nullopt;
  NvidiaGpu gpu;
  gpu.name = std::move(name.text);
  gpu.name_truncated = name.truncated;
  gpu.complete = true;
  return gpu;
}

// cmd's "'x' is not recognized ..." and PowerShell's localized CommandNotFound text in any language
// name the program in quotes inside a sentence: 'nvidia-smi', "nvidia-smi", „nvidia-smi“, «nvidia-smi».
bool is_instruction_before(std::string_view before) {
  for (std::string_view word : {"execute", "run ", "running", "type ", "enter ", "step ", "exec:", "docker"})
    if (icontains(before, word)) return true;
  return false;
}

bool names_program_in_quotes(std::string_view line) {
  if (words_of(line).size() < 2 || line.size() < 20 || contains(line, "|") || contains(line, "--")) return false;
  for (std::string_view quote : {"'", "\"", "\xE2\x80\x9C", "\xE2\x80\x98", "\xE2\x80\x9E", "\xC2\xAB"}) {
    std::size_t at = 0;
    while ((at = line.find(quote, at)) != std::string_view::npos) {
      std::string_view rest = line.substr(at + quote.size());
      at += quote.size();
      if (!rest.starts_with("nvidia-smi")) continue;
      // Prose that tells what was run ('Step 3: execute "nvidia-smi" in wsl terminal') and Docker's
      // 'exec: "nvidia-smi": executable file not found' (the container's, not this machine's) quote
      // the name too: only a shell's own message does here.
      if (is_instruction_before(line.substr(0, at - quote.size()))) continue;
      rest.remove_prefix(10);
      if (rest.starts_with(".exe")) rest.remove_prefix(4);
      // The closing quote follows the name directly.
      if (!rest.empty() &&
          (rest.front() == '\'' || rest.front() == '"' || static_cast<unsigned char>(rest.front()) >= 0x80))
        return true;
    }
  }
  return false;
}

void detect_failures(std::string_view line, NvidiaSmiFailures& f) {
  if (icontains(line, "couldn't communicate with the nvidia driver") ||
      icontains(line, "could not communicate with the nvidia driver"))
    f.cannot_communicate = true;
  if (icontains(line, "driver not loaded")) f.driver_not_loaded = true;
  if (icontains(line, "gpu access blocked by the operating system")) f.access_blocked = true;
  if (icontains(line, "driver/library version mismatch")) f.library_mismatch = true;
  if (icontains(line, "failed to initialize nvml")) f.nvml_init_failed = true;
  if (icontains(line, "no devices were found")) f.no_devices = true;
  if (icontains(line, "segmentation fault") || icontains(line, "core dumped")) f.crashed = true;
  if (icontains(line, "couldn't find libnvidia-ml.so") || icontains(line, "could not find libnvidia-ml.so"))
    f.nvml_library_missing = true;
  if (icontains(line, "unable to determine the device handle for gpu")) f.device_handle_error = true;
  if (icontains(line, "nvidia-smi")) {
    if (icontains(line, "command not found") || icontains(line, "not recognized") ||
        icontains(line, "not recognised") || icontains(line, "no such file or directory") ||
        (icontains(line, "command '") && icontains(line, "not found")) || icontains(line, "cannot find the file"))
      f.not_found = true;
    if (names_program_in_quotes(line)) f.not_found = true;
    // PowerShell's error record for a command it cannot find: "nvidia-smi : <localized text>".
    if (line.starts_with("nvidia-smi : ") || line.starts_with("nvidia-smi.exe : ")) f.not_found = true;
  }
}

// parse_nvidia_smi's state across the lines: the table (its header line, then the GPU rows after a
// "|=" rule, two rows a GPU), `-L` lines, CSV records and the `-q` report, in whatever mix a paste has.
class NvidiaSmiLineReader {
 public:
  // query_columns: the fields a `--query-gpu=` command line in the text asks for, if any.
  explicit NvidiaSmiLineReader(std::vector<std::string> query_columns) : m_csv_columns(std::move(query_columns)) {}

  void read(std::string_view raw) {
    const std::string_view line = strip_line_wrapping(raw);
    detect_failures(line, m_result.failures);
    if (!m_in_gpu_rows && m_query.read(raw, m_result)) return;
    if (read_table_frame(line)) return;
    if (m_in_gpu_rows) {
      read_gpu_row(line);
      return;
    }
    if (auto gpu = parse_list_line(line)) {
      m_result.gpu_list = true;
      m_result.gpus.push_back(std::move(*gpu));
      return;
    }
    read_csv_line(line);
  }

  NvidiaSmiResult finish() {
    flush();
    m_query.finish(m_result);
    return std::move(m_result);
  }

 private:
  // The table's header line and the lines that open or close its GPU rows.
  bool read_table_frame(std::string_view line) {
    if (contains(line, "Driver Version:")) {
      read_table_header(line);
      return true;
    }
    if (contains(line, "Processes:") || contains(line, "MIG devices:")) {
      flush();
      m_in_gpu_rows = false;
      return true;
    }
    if (line.starts_with("|=") || line.starts_with("+=")) {
      flush();
      m_in_gpu_rows = true;
      return true;
    }
    return false;
  }

  // "| NVIDIA-SMI 535.54.03   Driver Version: 536.23   CUDA Version: 12.2 |"
  void read_table_header(std::string_view line) {
    m_result.table_header = true;
    if (auto v = word_after(line, "NVIDIA-SMI "); v && is_dotted_number(*v)) m_result.smi_version = v;
    if (auto v = word_after(line, "Driver Version:"); v && is_dotted_number(*v)) m_result.driver_version = v;
    if (auto v = word_after(line, "CUDA Version:")) {
      if (is_dotted_number(*v)) {
        m_result.cuda_version = v;
      } else if (v->starts_with("ERR")) {
        m_result.cuda_version_error = true;
      }
    }
  }

  void read_gpu_row(std::string_view line) {
    if (line.empty()) {
      flush();
      m_in_gpu_rows = false;
      return;
    }
    const Cells cells = cells_of(line);
    if (cells.parts.empty()) return;  // "+-----+" separators
    if (auto gpu = parse_first_row(cells)) {
      flush();
      m_pending = std::move(*gpu);
      m_has_pending = true;
      return;
    }
    if (m_has_pending && !m_pending.memory_mib && cells.closed >= 2) {
      if (auto total = memory_total(cells.parts[1])) {
        m_pending.memory_mib = total;
        // Both rows shown, and the first with a name: a memory row cannot make up for the name.
        m_pending.complete = !m_pending.name.empty();
      }
    }
  }

  // CSV records (--format=csv): a header names the columns; without one, a record is guessed at.
  void read_csv_line(std::string_view line) {
    if (contains(line, "--query-gpu") || !contains(line, ",") || contains(line, "|")) return;
    const std::vector<std::string> fields = split_csv(line);
    if (is_csv_header(fields) && std::none_of(fields.begin(), fields.end(), [](const std::string& f) {
          return is_dotted_number(f) || contains(f, "MiB ");
        })) {
      m_csv_columns.clear();
      for (const std::string& f : fields) m_csv_columns.push_back(canonical_field(f));
      return;
    }
    if (!m_csv_columns.empty()) {
      if (fields.size() == m_csv_columns.size()) read_csv_record(fields);
      return;
    }
    if (auto gpu = guess_csv_record(fields, m_result.driver_version)) {
      m_result.csv = true;
      m_result.gpus.push_back(std::move(*gpu));
    }
  }

  void read_csv_record(const std::vector<std::string>& fields) {
    NvidiaGpu gpu;
    bool named = false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string& column = m_csv_columns[i];
      if (column == "name" && !fields[i].starts_with("[")) {
        ShownName name = shown_name(fields[i]);
        named = !name.text.empty();
        gpu.name = std::move(name.text);
        gpu.name_truncated = name.truncated;
      } else if (column == "driver_version" && is_dotted_number(fields[i])) {
        if (!m_result.driver_version) m_result.driver_version = fields[i];
      } else if (column == "driver_model" && (fields[i] == "WDDM" || fields[i] == "TCC" || fields[i] == "MCDM")) {
        gpu.driver_model = fields[i];
      } else if (column == "memory.total") {
        gpu.memory_mib = mib_value(fields[i]);
      }
    }
    if (named) {
      gpu.complete = true;
      m_result.csv = true;
      m_result.gpus.push_back(std::move(gpu));
    }
  }

  void flush() {
    if (m_has_pending) m_result.gpus.push_back(std::move(m_pending));
    m_pending = NvidiaGpu{};
    m_has_pending = false;
  }

  NvidiaSmiResult m_result;
  std::vector<std::string> m_csv_columns;
  bool m_in_gpu_rows = false;
  // The first row of a GPU, waiting for its second (a plain flag: GCC 12 warns spuriously about
  // std::optional<NvidiaGpu> here).
  NvidiaGpu m_pending;
  bool m_has_pending = false;
  NvidiaSmiQueryReader m_query;
};

}  // namespace

bool NvidiaSmiFailures::any() const {
  return cannot_communicate || driver_not_loaded || access_blocked || library_mismatch || nvml_init_failed ||
         not_found || no_devices || crashed || nvml_library_missing || device_handle_error;
}

bool NvidiaSmiResult::any_tcc() const {
  return std::any_of(gpus.begin(), gpus.end(), [](const NvidiaGpu& g) { return g.driver_model == "TCC"; });
}

NvidiaSmiResult parse_nvidia_smi(std::string_view text) {
  NvidiaSmiLineReader reader(query_fields(text));
  for (std::string_view raw : lines_of(text)) reader.read(raw);
  return reader.finish();
}

nlohmann::json to_json(const NvidiaSmiResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  if (result.driver_version) facts["driver_version"] = *result.driver_version;
  if (result.cuda_version) {
    facts["cuda_version"] = *result.cuda_version;
  } else if (result.cuda_version_error) {
    facts["cuda_version"] = nullptr;
    facts["cuda_version_error"] = true;
  }
  if (result.smi_version) facts["nvidia_smi_version"] = *result.smi_version;
  if (result.table_header || result.csv || result.gpu_list || result.query_report || !result.gpus.empty()) {
    nlohmann::json gpus = nlohmann::json::array();
    nlohmann::json models = nlohmann::json::array();
    for (const NvidiaGpu& gpu : result.gpus) {
      models.push_back(gpu.driver_model.empty() ? nlohmann::json(nullptr) : nlohmann::json(gpu.driver_model));
      if (!gpu.complete || gpu.name_truncated) continue;
      gpus.push_back({{"name", valid_utf8(gpu.name)},
                      {"memory_mib", gpu.memory_mib ? nlohmann::json(*gpu.memory_mib) : nlohmann::json(nullptr)}});
    }
    facts["gpus"] = std::move(gpus);
    facts["gpu_count"] = result.gpus.size();
    facts["driver_models"] = std::move(models);  // per GPU row, in order: "WDDM", "TCC" or null
  }
  nlohmann::json failures = nlohmann::json::object();
  const auto& f = result.failures;
  auto set = [&failures](const char* name, bool value) {
    if (value) failures[name] = true;
  };
  set("cannot_communicate", f.cannot_communicate);
  set("driver_not_loaded", f.driver_not_loaded);
  set("access_blocked", f.access_blocked);
  set("library_mismatch", f.library_mismatch);
  set("nvml_init_failed", f.nvml_init_failed);
  set("not_found", f.not_found);
  set("no_devices", f.no_devices);
  set("crashed", f.crashed);
  set("nvml_library_missing", f.nvml_library_missing);
  set("device_handle_error", f.device_handle_error);
  if (!failures.empty()) facts["failures"] = std::move(failures);
  return facts;
}

}  // namespace tfwsl::parse
