#include "common/parse/wsl_list_parser.hpp"

#include <catch2/catch.hpp>

#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/text/console_decoder.hpp"
#include "common/text/utf_convert.hpp"

using namespace tfwsl;
using namespace tfwsl::parse;

namespace {

// wsl.exe's format: "%s %-<N>s%-16s%s\n", N = max(len("NAME"), longest name) + 4
// (ListDistributionsHelper, microsoft/WSL src/windows/common/WslClient.cpp).
const char* const k_verbose =
    "  NAME                   STATE           VERSION\r\n"
    "* Ubuntu-22.04           Running         2\r\n"
    "  docker-desktop         Stopped         2\r\n"
    "  docker-desktop-data    Stopped         2\r\n"
    "  Legacy                 Stopped         1\r\n";

std::string utf16le_bytes(const std::string& utf8) {
  const std::u16string wide = utf8_to_utf16(utf8);
  std::string bytes;
  for (char16_t c : wide) {
    bytes.push_back(static_cast<char>(c & 0xFF));
    bytes.push_back(static_cast<char>(c >> 8));
  }
  return bytes;
}

}  // namespace

TEST_CASE("wsl -l -v: rows, default marker, versions, Docker Desktop's distros told apart", "[parse_wsl]") {
  const auto r = parse_wsl_list(k_verbose);
  REQUIRE(r.distros.size() == 4);
  CHECK(r.verbose_table);
  CHECK(r.distros[0].name == "Ubuntu-22.04");
  CHECK(r.distros[0].is_default);
  CHECK(r.distros[0].state == std::optional<std::string>("Running"));
  CHECK(r.distros[0].version == std::optional<int>(2));
  CHECK_FALSE(r.distros[1].is_default);
  CHECK(r.distros[3].version == std::optional<int>(1));
  CHECK(is_docker_desktop_distro(r.distros[1].name));
  CHECK(is_docker_desktop_distro(r.distros[2].name));
  CHECK_FALSE(is_docker_desktop_distro(r.distros[3].name));
  const auto facts = to_json(r);
  // The contract's distro objects hold exactly these keys.
  CHECK(facts["distros"][0] ==
        nlohmann::json({{"name", "Ubuntu-22.04"}, {"state", "Running"}, {"version", 2}, {"default", true}}));
  CHECK(facts["docker_desktop_distros"] == nlohmann::json({"docker-desktop", "docker-desktop-data"}));
}

TEST_CASE("wsl -l -v as raw UTF-16LE from a pipe, with the doubled CR, decodes and parses", "[parse_wsl]") {
  std::string doubled;
  for (char c : std::string(k_verbose)) {
    if (c == '\r')
      doubled += "\r\r";
    else
      doubled.push_back(c);
  }
  const auto decoded = decode_console_output(utf16le_bytes(doubled));
  const auto r = parse_wsl_list(decoded.text);
  REQUIRE(r.distros.size() == 4);
  CHECK(r.distros[3].name == "Legacy");
}

TEST_CASE("pasted tables: prompt, fence, quote marks, collapsed columns, cut last row", "[parse_wsl]") {
  const std::string paste =
      "> ```\n"
      "> PS C:\\Users\\me> wsl -l -v\n"
      ">   NAME STATE VERSION\n"
      "> * Ubuntu Running 2\n"
      ">   Debian Stopped 1\n"
      ">   Alpine Stopp\n"
      "> ```\n";
  const std::string text = clean_paste(paste).text;
  const auto r = parse_wsl_list(text);
  REQUIRE(r.distros.size() == 2);  // the cut row is not shown in full
  CHECK(r.distros[1].name == "Debian");
  CHECK(r.distros[1].version == std::optional<int>(1));
  CHECK(looks_like_wsl_list(text) >= 0.8);
  CHECK(looks_like_wsl_status(text) < 0.5);
}

TEST_CASE("the later of two tables in one paste is the current state", "[parse_wsl]") {
  const auto r = parse_wsl_list(
      "  NAME      STATE           VERSION\n* Ubuntu    Stopped         1\n\n"
      "$ wsl --set-version Ubuntu 2\nConversion complete.\n"
      "  NAME      STATE           VERSION\n* Ubuntu    Stopped         2\n");
  REQUIRE(r.distros.size() == 1);
  CHECK(r.distros[0].version == std::optional<int>(2));
}

TEST_CASE("wsl -l (no -v) in every language wsl.exe ships: header and default marker from its data", "[parse_wsl]") {
  // Built from the messages wsl.exe prints; the hand-written samples below cover older wordings.
  const auto& catalog = wsl_message_catalog();
  REQUIRE(catalog.locales.size() >= 22);
  REQUIRE(catalog.default_markers.size() >= 10);
  for (const std::string& marker : catalog.default_markers) {
    INFO(marker);
    const auto r =
        parse_wsl_list("Windows Subsystem for Linux Distributions:\nUbuntu-22.04 " + marker + "\nkali-linux\n");
    REQUIRE(r.distros.size() == 2);
    CHECK(r.distros[0].is_default);
    CHECK_FALSE(r.distros[0].state.has_value());
    CHECK_FALSE(r.distros[0].version.has_value());
    CHECK(r.distros[1].name == "kali-linux");
  }
  const std::vector<std::string> samples{
      "Windows Subsystem für Linux-Distributionen:\nUbuntu (Standard)\nDebian\n",
      "Distributions du Sous-système Windows pour Linux\xC2\xA0:\nUbuntu (par défaut)\nDebian\n",
      "\xE9\x80\x82\xE7\x94\xA8\xE4\xBA\x8E Linux \xE7\x9A\x84 Windows \xE5\xAD\x90\xE7\xB3\xBB\xE7\xBB\x9F:\nUbuntu "
      "(\xE9\xBB\x98\xE8\xAE\xA4)\nDebian\n",
      "Linux\xEC\x9A\xA9 Windows \xED\x95\x98\xEC\x9C\x84 \xEC\x8B\x9C\xEC\x8A\xA4\xED\x85\x9C "
      "\xEB\xB0\xB0\xED\x8F\xAC:\nUbuntu(\xEA\xB8\xB0\xEB\xB3\xB8\xEA\xB0\x92)\nDebian\n",
  };
  for (const std::string& sample : samples) {
    INFO(sample);
    const auto r = parse_wsl_list(sample);
    REQUIRE(r.distros.size() == 2);
    CHECK(r.distros[0].name == "Ubuntu");
    CHECK(r.distros[0].is_default);
    CHECK(r.plain_list);
    CHECK(looks_like_wsl_list(sample) >= 0.8);
  }
}

TEST_CASE("no installed distribution, in every language, and by its error code", "[parse_wsl]") {
  for (const std::string& sentence : wsl_message_catalog().no_distribution_sentences) {
    INFO(sentence);
    const auto r = parse_wsl_list(sentence + ".\n");
    CHECK(r.errors.no_distribution);
    CHECK(r.distros.empty());
    CHECK(looks_like_wsl_list(sentence) >= 0.5);
  }
  const auto r =
      parse_wsl_list("Error code: Wsl/Service/CreateInstance/GetDefaultDistro/WSL_E_DEFAULT_DISTRO_NOT_FOUND\n");
  CHECK(r.errors.no_distribution);
  REQUIRE(r.errors.error_codes.size() == 1);
  CHECK(r.errors.error_codes[0] == "Wsl/Service/CreateInstance/GetDefaultDistro/WSL_E_DEFAULT_DISTRO_NOT_FOUND");
  CHECK(parse_wsl_list("There are no running distributions.\n").errors.no_running_distribution);
}

TEST_CASE("wsl --list --online is the catalogue, not installed distributions", "[parse_wsl]") {
  const std::string text =
      "The following is a list of valid distributions that can be installed.\n"
      "Install using 'wsl.exe --install <Distro>'.\n\n"
      "NAME                            FRIENDLY NAME\n"
      "Ubuntu                          Ubuntu\n"
      "Debian                          Debian GNU/Linux\n"
      "Ubuntu-22.04                    Ubuntu 22.04 LTS\n";
  const auto r = parse_wsl_list(text);
  CHECK(r.online_list);
  CHECK(r.distros.empty());
  REQUIRE(r.online.size() == 3);
  CHECK(r.online[1].friendly_name == "Debian GNU/Linux");
  CHECK(to_json(r)["online_list"] == true);
}

TEST_CASE("usage text after wsl -l -v on an old inbox wsl.exe is a too-old CLI, not a list", "[parse_wsl]") {
  const std::string text =
      "C:\\>wsl -l -v\n"
      "Copyright (c) Microsoft Corporation. All rights reserved.\n\n"
      "Usage: wsl.exe [Argument] [Options...] [CommandLine]\n\n"
      "Arguments for running Linux binaries:\n\n"
      "    If no command line is provided, wsl.exe launches the default shell.\n\n"
      "    --exec, -e <CommandLine>\n"
      "        Execute the specified command without using the default Linux shell.\n\n"
      "Arguments for managing Windows Subsystem for Linux:\n\n"
      "    --help\n"
      "        Display usage information.\n";
  const auto r = parse_wsl_list(text);
  CHECK(r.errors.usage_text);
  CHECK(r.errors.cli_too_old());
  CHECK(r.distros.empty());
  CHECK(mentions_wsl_list_command(text));
  CHECK(looks_like_wsl_list(text) >= 0.5);
}

TEST_CASE("virtualization off and a missing optional component are recognised", "[parse_wsl]") {
  const auto a = detect_wsl_errors(
      "WSL2 is unable to start since virtualization is not enabled on this machine.\n"
      "Error code: Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED\n");
  CHECK(a.virtualization_disabled);
  CHECK_FALSE(a.no_distribution);
  const auto b = detect_wsl_errors(
      "Please enable the Virtual Machine Platform Windows feature and ensure virtualization is enabled in the BIOS.\n"
      "For information please visit https://aka.ms/enablevirtualization\nError: 0x80370102\n");
  CHECK(b.virtualization_disabled);
  const auto c = detect_wsl_errors("WslRegisterDistribution failed with error: 0x8007019e\n");
  CHECK(c.optional_component_missing);
  const auto d = detect_wsl_errors("WslRegisterDistribution failed with error: 0x800701bc\n");
  CHECK(d.kernel_update_needed);
  CHECK_FALSE(detect_wsl_errors(k_verbose).any());
}

TEST_CASE("UTF-16 rendered as text is undone by the paste cleaner before parsing", "[parse_wsl]") {
  // What a viewer shows for UTF-16LE bytes read as one-byte text: every NUL became a space.
  std::string spaced;
  for (char c : std::string("  NAME      STATE           VERSION\n* Ubuntu    Running         2\n")) {
    spaced.push_back(c);
    if (c != '\n') spaced.push_back(' ');
  }
  const auto r = parse_wsl_list(clean_paste(spaced).text);
  REQUIRE(r.distros.size() == 1);
  CHECK(r.distros[0].name == "Ubuntu");
}
