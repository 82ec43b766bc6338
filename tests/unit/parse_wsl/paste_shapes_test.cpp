// wsl.exe and nvidia-smi output in the shapes real pastes come in: rows retyped without the header,
// an old inbox wsl.exe rejecting --list, UTF-16 shown as spaced text with blank lines between rows,
// wsl --update --status, the install error codes of wsl.exe's catalogue, nvidia-smi -q.
#include <catch2/catch.hpp>
#include <string>

#include "common/parse/line_tools.hpp"
#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_error_parser.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/util/ascii.hpp"
#include "tests/support/utf16_bytes.hpp"

using namespace tfwsl;
using namespace tfwsl::parse;

TEST_CASE("wsl -l -v rows retyped without the header or the star, ragged spacing", "[parse_wsl]") {
  const std::string rows = "Ubuntu-20.04    Running   1\ndocker-desktop   Stopped 2\n";
  const auto r = parse_wsl_list(rows);
  REQUIRE(r.distros.size() == 2);
  CHECK(r.distros[0].name == "Ubuntu-20.04");
  CHECK(r.distros[0].version == 1);
  CHECK(r.distros[1].state == std::string("Stopped"));
  CHECK(looks_like_wsl_list(rows) >= 0.6);
  // A row inside prose is not a list on its own.
  CHECK(looks_like_wsl_list("my laptop says Ubuntu Running 2 but also:\nthe GPU is not found\nany idea?\n") < 0.5);
}

TEST_CASE("an old inbox wsl.exe rejecting --list, then its short usage text", "[parse_wsl]") {
  const std::string text =
      "Invalid command line option: --list\nUsage: wsl [option] ...\n\nOptions:\n"
      "    -d, --distribution <DistributionName>\n        Launch the specified distribution.\n";
  const auto r = parse_wsl_list(text);
  CHECK(r.errors.invalid_option);
  CHECK(r.errors.rejected_options == std::vector<std::string>{"--list"});
  CHECK(r.distros.empty());
  CHECK(looks_like_wsl_list(text) >= 0.8);
  CHECK(looks_like_wsl_list(text) > looks_like_wsl_status(text));
}

TEST_CASE("UTF-16 shown as spaced text with blank lines gives the same distros as the bytes", "[parse_wsl]") {
  const std::string table =
      "  NAME            STATE           VERSION\r\n* Ubuntu-20.04    Running         1\r\n"
      "  docker-desktop  Stopped         2\r\n";
  const auto from_bytes = parse_wsl_list(clean_paste(tfwsl::test::ascii_as_utf16le(table, true)).text);
  std::string spaced;
  for (char c : std::string("  NAME            STATE           VERSION\n\n* Ubuntu-20.04    Running         1\n\n"
                            "  docker-desktop  Stopped         2\n\n")) {
    spaced += c;
    if (c != '\n') spaced += ' ';
  }
  const auto cleaned = clean_paste(spaced);
  CHECK(cleaned.utf16_rendering);
  const auto from_text = parse_wsl_list(cleaned.text);
  REQUIRE(from_bytes.distros.size() == 2);
  REQUIRE(from_text.distros.size() == from_bytes.distros.size());
  for (std::size_t i = 0; i < from_bytes.distros.size(); ++i) {
    CHECK(from_text.distros[i].name == from_bytes.distros[i].name);
    CHECK(from_text.distros[i].state == from_bytes.distros[i].state);
    CHECK(from_text.distros[i].version == from_bytes.distros[i].version);
    CHECK(from_text.distros[i].is_default == from_bytes.distros[i].is_default);
  }
}

TEST_CASE("wsl --update --status: the status lines and the kernel", "[parse_wsl]") {
  const std::string text =
      "Default Distribution: Ubuntu\nDefault Version: 2\n"
      "Windows Subsystem for Linux was last updated on 4/5/2021\nWSL automatic updates are on.\n\n"
      "Kernel version: 5.4.72\n";
  const auto r = parse_wsl_status(text);
  CHECK(r.default_distribution == std::string("Ubuntu"));
  CHECK(r.default_version == 2);
  CHECK(r.kernel_version == std::string("5.4.72"));
  CHECK(looks_like_wsl_status(text) >= 0.9);
}

TEST_CASE("install error codes come from wsl.exe's catalogue data, in any surrounding", "[parse_wsl]") {
  const auto& codes = wsl_message_catalog().error_codes;
  auto has_code = [&codes](const std::string& code, const std::string& flag) {
    for (const auto& c : codes)
      if (iequals(c.code, code) && c.flag == flag) return true;
    return false;
  };
  CHECK(has_code("0x80370102", "virtualization_disabled"));
  CHECK(has_code("0x8007019e", "optional_component_missing"));
  CHECK(has_code("0x80370114", "optional_component_missing"));
  CHECK(has_code("0x800701bc", "kernel_update_needed"));
  const auto classic = detect_wsl_errors(
      "Installing, this may take a few minutes...\n"
      "WslRegisterDistribution failed with error: 0x80370102\n");
  CHECK(classic.virtualization_disabled);
  const auto service = detect_wsl_errors("Error code: Wsl/Service/CreateInstance/CreateVm/HCS/0x80370102\n");
  CHECK(service.virtualization_disabled);
  CHECK(service.error_codes == std::vector<std::string>{"Wsl/Service/CreateInstance/CreateVm/HCS/0x80370102"});
  CHECK(detect_wsl_errors("WslRegisterDistribution failed with error: 0x8007019e\n").optional_component_missing);
  CHECK(detect_wsl_errors("Error: 0x1bc\n").kernel_update_needed);  // the short form of 0x800701bc
  // A hex number that is not a WSL code, in an unrelated log, sets nothing.
  CHECK_FALSE(detect_wsl_errors("segfault at 0x80370102 ip 00007f\n").any());
}

TEST_CASE("nvidia-smi -q gives the table's facts: versions, name, driver model, memory", "[parse_wsl][nvidia]") {
  const std::string report =
      "==============NVSMI LOG==============\n\n"
      "Timestamp                                 : Mon Jan 10 10:00:00 2022\n"
      "Driver Version                            : 510.06\n"
      "CUDA Version                              : 11.6\n\n"
      "Attached GPUs                             : 1\n"
      "GPU 00000000:01:00.0\n"
      "    Product Name                          : NVIDIA GeForce RTX 3080\n"
      "    Driver Model\n"
      "        Current                           : WDDM\n"
      "        Pending                           : WDDM\n"
      "    FB Memory Usage\n"
      "        Total                             : 10240 MiB\n"
      "        Used                              : 0 MiB\n";
  const auto r = parse_nvidia_smi(report);
  CHECK(r.query_report);
  CHECK(r.driver_version == std::string("510.06"));
  CHECK(r.cuda_version == std::string("11.6"));
  REQUIRE(r.gpus.size() == 1);
  CHECK(r.gpus[0].name == "NVIDIA GeForce RTX 3080");
  CHECK(r.gpus[0].memory_mib == 10240);
  CHECK(looks_like_nvidia_smi(report) >= 0.9);
  const auto facts = to_json(r);
  CHECK(facts["driver_models"] == nlohmann::json({"WDDM"}));
  // "Used" under another section is not the total, and a section's "Current" is not the driver model.
  const auto other = parse_nvidia_smi(
      "Driver Version : 551.76\nCUDA Version : 12.4\nProduct Name : NVIDIA RTX A4000\n"
      "    Clocks\n        Current : 210 MHz\n    BAR1 Memory Usage\n"
      "        Total : 256 MiB\n");
  CHECK(other.driver_version == std::string("551.76"));
  REQUIRE(other.gpus.size() == 1);
  CHECK(other.gpus[0].driver_model.empty());
  CHECK_FALSE(other.gpus[0].memory_mib.has_value());
}
