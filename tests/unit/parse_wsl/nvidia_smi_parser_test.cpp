#include "common/parse/nvidia_smi_parser.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"

using namespace tfwsl;
using namespace tfwsl::parse;

namespace {

// Inside WSL, 2024 layout: NVIDIA-SMI is a Linux number, Driver Version the Windows driver
// (docs.nvidia.com/cuda/wsl-user-guide: the driver comes from Windows).
const char* const k_wsl_table =
    "Tue Jun 11 10:02:31 2024       \n"
    "+-----------------------------------------------------------------------------------------+\n"
    "| NVIDIA-SMI 555.52.01              Driver Version: 555.99         CUDA Version: 12.5     |\n"
    "|-----------------------------------------+------------------------+----------------------+\n"
    "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
    "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n"
    "|                                         |                        |               MIG M. |\n"
    "|=========================================+========================+======================|\n"
    "|   0  NVIDIA GeForce RTX 4070        On  |   00000000:01:00.0  On |                  N/A |\n"
    "|  0%   38C    P8              9W /  200W |    1022MiB /  12282MiB |      2%      Default |\n"
    "|                                         |                        |                  N/A |\n"
    "+-----------------------------------------+------------------------+----------------------+\n"
    "\n"
    "+-----------------------------------------------------------------------------------------+\n"
    "| Processes:                                                                              |\n"
    "|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |\n"
    "|        ID   ID                                                               Usage      |\n"
    "|=========================================================================================|\n"
    "|    0   N/A  N/A        33      G   /Xwayland                                   N/A      |\n"
    "+-----------------------------------------------------------------------------------------+\n";

// Windows host, two GPUs: a display card in WDDM and a compute card in TCC.
const char* const k_windows_table =
    "+---------------------------------------------------------------------------------------+\r\n"
    "| NVIDIA-SMI 546.33                 Driver Version: 546.33       CUDA Version: 12.3     |\r\n"
    "|-----------------------------------------+----------------------+----------------------+\r\n"
    "| GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |\r\n"
    "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |\r\n"
    "|                                         |                      |               MIG M. |\r\n"
    "|=========================================+======================+======================|\r\n"
    "|   0  NVIDIA RTX A4000             WDDM  | 00000000:01:00.0  On |                  Off |\r\n"
    "| 41%   35C    P8               9W / 140W |    903MiB / 16376MiB |      3%      Default |\r\n"
    "|                                         |                      |                  N/A |\r\n"
    "+-----------------------------------------+----------------------+----------------------+\r\n"
    "|   1  NVIDIA A100-PCIE-40GB         TCC  | 00000000:41:00.0 Off |                    0 |\r\n"
    "| N/A   33C    P0              35W / 250W |      4MiB / 40960MiB |      0%      Default |\r\n"
    "|                                         |                      |             Disabled |\r\n"
    "+-----------------------------------------+----------------------+----------------------+\r\n";

// Found by fuzz_nvidia_smi (tests/fuzz/regressions/fuzz_nvidia_smi/complete-row-without-name, the
// same bytes): a mutated table whose second GPU row names nothing but nvidia-smi's cut marker
// ("|    650 ...    On  |"), followed by a memory row shown in full.
std::string fuzzed_row_without_name() {
  return std::string(
             "`$ nvidia-smi.exe\n"
             "Fri Oct  2 23:54:29 2020\n"
             "+--latile Uncorr. ECC |\n"
             "ECC |\n"
             "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-U") +
         std::string(39, '\xA4') +
         "til  Compute M. |\n"
         "|===============================+================<=====+======================|\n"
         "|   0  GeForce RTX 207... WDDM  | 00000000:01:00.0 Off |                  N/A |\n"
         "| N/A   45C    P.A | Volat |\n"
         "|    650 ...    On  | 00000000:02:00.0 Off |                  N/A |\n"
         "| N/A   48C    P8               3W /  30W |    128MiB /  4096MiB |     15%     ile Uncorr. ECC |\n"
         "| Fan  Temp  Perf  Pwr:UsaUncorr. ECC |\n"
         "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"
         "                                       |\n"
         "|  GPU   GI =  CI        PID   Type   P       N/A      |\n"
         "|    0   N/A  N/A      " +
         std::string(70, '\x15') +
         "2424    C+G   ...b3d8bbwe\\WinSto2e.App.exe    N/A      |\n"
         "|    0  !N/A  N/A\n";
}

bool has_letter_or_digit(const std::string& name) {
  return std::any_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

}  // namespace

TEST_CASE("nvidia-smi inside WSL: versions, GPU name and total memory, process rows are not GPUs",
          "[parse_wsl][nvidia]") {
  const auto r = parse_nvidia_smi(k_wsl_table);
  CHECK(r.table_header);
  CHECK(r.smi_version == std::optional<std::string>("555.52.01"));
  CHECK(r.driver_version == std::optional<std::string>("555.99"));
  CHECK(r.cuda_version == std::optional<std::string>("12.5"));
  REQUIRE(r.gpus.size() == 1);
  CHECK(r.gpus[0].name == "NVIDIA GeForce RTX 4070");
  CHECK(r.gpus[0].memory_mib == std::optional<long long>(12282));
  CHECK(r.gpus[0].driver_model.empty());
  CHECK_FALSE(r.any_tcc());
  const auto facts = to_json(r);
  CHECK(facts["gpus"] == nlohmann::json::array({{{"name", "NVIDIA GeForce RTX 4070"}, {"memory_mib", 12282}}}));
  CHECK(facts["driver_version"] == "555.99");
  CHECK(looks_like_nvidia_smi(k_wsl_table) >= 0.9);
}

TEST_CASE("nvidia-smi on Windows: WDDM and TCC per GPU", "[parse_wsl][nvidia]") {
  const auto r = parse_nvidia_smi(k_windows_table);
  REQUIRE(r.gpus.size() == 2);
  CHECK(r.gpus[0].driver_model == "WDDM");
  CHECK(r.gpus[1].driver_model == "TCC");
  CHECK(r.gpus[1].name == "NVIDIA A100-PCIE-40GB");
  CHECK(r.gpus[1].memory_mib == std::optional<long long>(40960));
  CHECK(r.any_tcc());
  CHECK(to_json(r)["driver_models"] == nlohmann::json({"WDDM", "TCC"}));
}

TEST_CASE("rows not shown in full stay out of gpus: truncated names and cut rows", "[parse_wsl][nvidia]") {
  const std::string cut =
      "| NVIDIA-SMI 537.13       Driver Version: 537.13       CUDA Version: 12.2     |\n"
      "|===============================+======================+======================|\n"
      "|   0  NVIDIA GeForce ... WDDM  | 00000000:0A:00.0  On |                  N/A |\n"
      "|  0%   31C    P8    16W / 250W |    576MiB / 11264MiB |      0%      Default |\n"
      "+-------------------------------+----------------------+----------------------+\n"
      "|   1  Quadro RTX 5000     WDDM  | 00000000:43:00.0 Off |                  N/A |\n"
      "| 30%   29C    P8";
  const auto r = parse_nvidia_smi(cut);
  REQUIRE(r.gpus.size() == 2);
  CHECK(r.gpus[0].name_truncated);
  CHECK_FALSE(r.gpus[1].complete);
  const auto facts = to_json(r);
  CHECK(facts["gpus"].empty());
  CHECK(facts["gpu_count"] == 2);
}

TEST_CASE("CUDA Version: ERR! gives a null cuda_version and a flag", "[parse_wsl][nvidia]") {
  const auto r =
      parse_nvidia_smi("| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |\n");
  CHECK(r.cuda_version_error);
  CHECK_FALSE(r.cuda_version.has_value());
  const auto facts = to_json(r);
  REQUIRE(facts.contains("cuda_version"));
  CHECK(facts["cuda_version"].is_null());
  CHECK(facts["driver_version"] == "546.80");
}

TEST_CASE("the CSV query, without and with its header", "[parse_wsl][nvidia]") {
  const std::string noheader =
      "PS C:\\> nvidia-smi --query-gpu=name,driver_version,driver_model.current,memory.total --format=csv,noheader\n"
      "NVIDIA GeForce RTX 3080, 546.33, WDDM, 10240 MiB\n"
      "Tesla V100-PCIE-16GB, 546.33, TCC, 16384 MiB\n";
  const auto a = parse_nvidia_smi(clean_paste(noheader).text);
  REQUIRE(a.gpus.size() == 2);
  CHECK(a.csv);
  CHECK(a.driver_version == std::optional<std::string>("546.33"));
  CHECK(a.gpus[0].name == "NVIDIA GeForce RTX 3080");
  CHECK(a.gpus[0].memory_mib == std::optional<long long>(10240));
  CHECK(a.gpus[1].driver_model == "TCC");
  CHECK(a.any_tcc());

  // No command line in the paste: the fields are recognised by their form.
  const auto b = parse_nvidia_smi("NVIDIA GeForce RTX 4090, 560.94, WDDM, 24564 MiB\n");
  REQUIRE(b.gpus.size() == 1);
  CHECK(b.driver_version == std::optional<std::string>("560.94"));
  CHECK(b.gpus[0].memory_mib == std::optional<long long>(24564));

  const auto c = parse_nvidia_smi(
      "name, driver_version, driver_model.current, memory.total [MiB]\nNVIDIA RTX A2000 12GB, 538.78, WDDM, 12282 "
      "MiB\n");
  REQUIRE(c.gpus.size() == 1);
  CHECK(c.gpus[0].name == "NVIDIA RTX A2000 12GB");
  CHECK(c.driver_version == std::optional<std::string>("538.78"));
  CHECK(looks_like_nvidia_smi("NVIDIA GeForce RTX 4090, 560.94, WDDM, 24564 MiB\n") >= 0.5);
}

TEST_CASE("nvidia-smi failures are flags", "[parse_wsl][nvidia]") {
  const auto a = parse_nvidia_smi(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
      "driver is installed and running.\n\nFailed to properly shut down NVML: Driver Not Loaded\n");
  CHECK(a.failures.cannot_communicate);
  CHECK(a.failures.driver_not_loaded);
  CHECK(a.gpus.empty());
  CHECK_FALSE(a.table_header);

  const auto b = parse_nvidia_smi("Failed to initialize NVML: GPU access blocked by the operating system\n");
  CHECK(b.failures.access_blocked);
  CHECK(b.failures.nvml_init_failed);
  CHECK_FALSE(b.failures.cannot_communicate);

  CHECK(parse_nvidia_smi("Failed to initialize NVML: Driver/library version mismatch\n").failures.library_mismatch);
  CHECK(parse_nvidia_smi("No devices were found\n").failures.no_devices);
  CHECK(parse_nvidia_smi("[1]    494 segmentation fault  nvidia-smi\n").failures.crashed);
  CHECK_FALSE(parse_nvidia_smi(k_wsl_table).failures.any());
}

TEST_CASE("nvidia-smi not found, from bash, cmd and PowerShell in several languages", "[parse_wsl][nvidia]") {
  const std::vector<std::string> samples{
      "bash: nvidia-smi: command not found\n",
      "Command 'nvidia-smi' not found, but can be installed with:\nsudo apt install nvidia-utils-535\n",
      "'nvidia-smi' is not recognized as an internal or external command,\noperable program or batch file.\n",
      "'nvidia-smi' n'est pas reconnu en tant que commande interne\nou externe, un programme ex\xC3\xA9"
      "cutable ou un fichier de commandes.\n",
      "'nvidia-smi' no se reconoce como un comando interno o externo,\n",
      "'nvidia-smi' "
      "\xE4\xB8\x8D\xE6\x98\xAF\xE5\x86\x85\xE9\x83\xA8\xE6\x88\x96\xE5\xA4\x96\xE9\x83\xA8\xE5\x91\xBD\xE4\xBB\xA4\xEF"
      "\xBC\x8C\xE4\xB9\x9F\xE4\xB8\x8D\xE6\x98\xAF\xE5\x8F\xAF\xE8\xBF\x90\xE8\xA1\x8C\xE7\x9A\x84\xE7\xA8\x8B\xE5\xBA"
      "\x8F\n",
      "Der Befehl \"nvidia-smi\" ist entweder falsch geschrieben oder\nkonnte nicht gefunden werden.\n",
      "nvidia-smi : The term 'nvidia-smi' is not recognized as the name of a cmdlet, function, script file, or "
      "operable program.\n",
      "nvidia-smi : Die Benennung \"nvidia-smi\" wurde nicht als Name eines Cmdlet erkannt.\n",
  };
  for (const std::string& sample : samples) {
    INFO(sample);
    const auto r = parse_nvidia_smi(sample);
    CHECK(r.failures.not_found);
    CHECK(looks_like_nvidia_smi(sample) >= 0.5);
  }
  CHECK_FALSE(parse_nvidia_smi("Error: Command failed: nvidia-smi --query-gpu=name --format=csv\n").failures.not_found);
}

TEST_CASE("texts that are not nvidia-smi are not taken for it", "[parse_wsl][nvidia]") {
  CHECK(looks_like_nvidia_smi("  NAME      STATE           VERSION\n* Ubuntu    Running         2\n") == 0);
  CHECK(looks_like_nvidia_smi("tensorflow==2.15.0\nnumpy>=1.23, <2\n") == 0);
  CHECK(looks_like_nvidia_smi("") == 0);
}

TEST_CASE("nvidia-smi -L lists GPUs by name", "[parse_wsl][nvidia]") {
  const auto r = parse_nvidia_smi(
      "$ nvidia-smi -L\nGPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-5c3b7a52-1f4e-8d1b-3d3e-1a2b3c4d5e6f)\n"
      "GPU 1: NVIDIA RTX A4000 (UUID: GPU-0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d)\n");
  REQUIRE(r.gpus.size() == 2);
  CHECK(r.gpu_list);
  CHECK(r.gpus[1].name == "NVIDIA RTX A4000");
  CHECK_FALSE(r.gpus[1].memory_mib.has_value());
  CHECK(looks_like_nvidia_smi("GPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-5c3b7a52)\n") >= 0.5);
}

TEST_CASE("nvidia-smi without its NVML library, and a lost GPU", "[parse_wsl][nvidia]") {
  const auto a = parse_nvidia_smi(
      "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display "
      "Driver "
      "is properly installed and present in your system.\nPlease also try adding directory that contains "
      "libnvidia-ml.so to your system PATH.\n");
  CHECK(a.failures.nvml_library_missing);
  CHECK_FALSE(a.failures.not_found);
  const auto b = parse_nvidia_smi("Unable to determine the device handle for GPU0000:01:00.0: Unknown Error\n");
  CHECK(b.failures.device_handle_error);
  CHECK(looks_like_nvidia_smi("Unable to determine the device handle for GPU0000:01:00.0: Unknown Error\n") >= 0.5);
}

TEST_CASE("a GPU row whose name is only nvidia-smi's cut marker is a GPU, never one shown in full",
          "[parse_wsl][nvidia]") {
  const std::string input = fuzzed_row_without_name();
  REQUIRE(input.size() == 932);  // the regression seed's length
  const auto r = parse_nvidia_smi(input);
  REQUIRE(r.gpus.size() == 2);
  CHECK(r.gpus[0].name == "GeForce RTX 207");
  CHECK(r.gpus[0].name_truncated);
  CHECK(r.gpus[0].driver_model == "WDDM");
  CHECK_FALSE(r.gpus[0].complete);  // its second row shows no memory
  CHECK(r.gpus[1].name.empty());
  CHECK(r.gpus[1].name_truncated);
  CHECK(r.gpus[1].memory_mib == std::optional<long long>(4096));
  CHECK_FALSE(r.gpus[1].complete);  // a memory row does not make up for a name that was cut away
  const auto facts = to_json(r);
  CHECK(facts["gpus"].empty());
  CHECK(facts["gpu_count"] == 2);
  CHECK(facts["driver_models"] == nlohmann::json({"WDDM", nullptr}));
  for (const std::string& text : {input, clean_paste(input).text})
    for (const auto& gpu : parse_nvidia_smi(text).gpus) CHECK((!gpu.complete || has_letter_or_digit(gpu.name)));
}

TEST_CASE("a name is shown only when more than a cut marker is left, in the table, the CSV and -L",
          "[parse_wsl][nvidia]") {
  const std::string table_head =
      "| NVIDIA-SMI 546.33                 Driver Version: 546.33       CUDA Version: 12.3     |\n"
      "|=========================================+======================+======================|\n";
  const std::string memory_row =
      "| 41%   35C    P8               9W / 140W |    903MiB / 16376MiB |      3%      Default |\n";
  for (const char* name : {"...", "\xE2\x80\xA6", "... ...", ". . ."}) {
    INFO(name);
    const auto r = parse_nvidia_smi(table_head + "|   0  " + name +
                                    "      WDDM  | 00000000:01:00.0  On |                  Off |\n" + memory_row);
    REQUIRE(r.gpus.size() == 1);
    CHECK(r.gpus[0].name.empty());
    CHECK(r.gpus[0].name_truncated == (std::string(name) != ". . ."));  // dots and blanks: no name, no marker
    CHECK(r.gpus[0].memory_mib == std::optional<long long>(16376));
    CHECK_FALSE(r.gpus[0].complete);
    CHECK(to_json(r)["gpu_count"] == 1);

    const auto csv = parse_nvidia_smi(std::string("name, memory.total [MiB]\n") + name + ", 16376 MiB\n");
    CHECK(csv.gpus.empty());
    const auto list =
        parse_nvidia_smi(std::string("GPU 0: ") + name + " (UUID: GPU-5c3b0000-1111-2222-3333-444455556666)\n");
    CHECK(list.gpus.empty());
  }
  // A name cut with the Unicode ellipsis loses its marker like one cut with "...".
  const auto r = parse_nvidia_smi(
      table_head + "|   0  NVIDIA GeForce RTX\xE2\x80\xA6 WDDM  | 00000000:01:00.0  On |   Off |\n" + memory_row);
  REQUIRE(r.gpus.size() == 1);
  CHECK(r.gpus[0].name == "NVIDIA GeForce RTX");
  CHECK(r.gpus[0].name_truncated);
  CHECK(r.gpus[0].complete);
  CHECK(to_json(r)["gpus"].empty());  // a cut name is not the GPU's name
}
