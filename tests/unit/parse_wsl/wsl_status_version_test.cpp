#include <catch2/catch.hpp>
#include <string>

#include "common/parse/output_recognizer.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"

using namespace tfwsl;
using namespace tfwsl::parse;

TEST_CASE("wsl --status in English, with the inbox build's extra lines", "[parse_wsl]") {
  const std::string text =
      "Default Distribution: Ubuntu-22.04\r\nDefault Version: 2\r\n\r\n"
      "Windows Subsystem for Linux was last updated on 3/14/2022\r\nWSL automatic updates are on.\r\n\r\n"
      "Kernel version: 5.10.102.1\r\n";
  const auto r = parse_wsl_status(text);
  CHECK(r.default_distribution == std::optional<std::string>("Ubuntu-22.04"));
  CHECK(r.default_version == std::optional<int>(2));
  CHECK(r.kernel_version == std::optional<std::string>("5.10.102.1"));
  CHECK(to_json(r) ==
        nlohmann::json(
            {{"default_distribution", "Ubuntu-22.04"}, {"default_version", 2}, {"kernel_version", "5.10.102.1"}}));
  CHECK(looks_like_wsl_status(text) >= 0.9);
}

TEST_CASE("wsl --status labels in other languages, full-width colons and no-break spaces", "[parse_wsl]") {
  const std::vector<std::string> samples{
      "Standarddistribution: Debian\nStandardversion: 1\n",
      "Distribution par d\xC3\xA9"
      "faut\xC2\xA0: Debian\nVersion par d\xC3\xA9"
      "faut\xC2\xA0: 1\n",
      "Distribuci\xC3\xB3n predeterminada: Debian\nVersi\xC3\xB3n predeterminada: 1\n",
      "\xE9\xBB\x98\xE8\xAE\xA4\xE5\x88\x86\xE5\x8F\x91\xEF\xBC\x9A "
      "Debian\n\xE9\xBB\x98\xE8\xAE\xA4\xE7\x89\x88\xE6\x9C\xAC\xEF\xBC\x9A 1\n",
  };
  for (const std::string& sample : samples) {
    INFO(sample);
    const auto r = parse_wsl_status(sample);
    CHECK(r.default_distribution == std::optional<std::string>("Debian"));
    CHECK(r.default_version == std::optional<int>(1));
  }
  // Every language's labels, as wsl.exe formats them.
  const auto& catalog = wsl_message_catalog();
  REQUIRE(catalog.status_distribution_labels.size() >= 10);
  for (const std::string& label : catalog.status_distribution_labels) {
    INFO(label);
    CHECK(parse_wsl_status(label + ": Arch\n").default_distribution == std::optional<std::string>("Arch"));
  }
}

// The 2022 Japanese label is older than microsoft/WSL's public Resources.resw history; it is in
// profiles/wsl-messages.json's earlier_wordings with the public pastes it comes from.
TEST_CASE("wsl --status of a 2022 Japanese WSL, whose label predates the public string files", "[parse_wsl]") {
  const std::string text =
      "\xE6\x97\xA2\xE5\xAE\x9A\xE3\x81\xAE\xE9\x85\x8D\xE5\xB8\x83: Ubuntu-20.04\n"  // 既定の配布
      "\xE6\x97\xA2\xE5\xAE\x9A\xE3\x81\xAE\xE3\x83\x90\xE3\x83\xBC\xE3\x82\xB8\xE3\x83\xA7\xE3\x83\xB3: 2\n"  // 既定のバージョン
      "\n\xE3\x82\xAB\xE3\x83\xBC\xE3\x83\x8D\xE3\x83\xAB "
      "\xE3\x83\x90\xE3\x83\xBC\xE3\x82\xB8\xE3\x83\xA7\xE3\x83\xB3: 5.10.102.1\n";
  const auto r = parse_wsl_status(text);
  CHECK(r.default_distribution == std::optional<std::string>("Ubuntu-20.04"));
  CHECK(r.default_version == std::optional<int>(2));
}

TEST_CASE("an old wsl.exe rejecting --status, in German, is a too-old CLI", "[parse_wsl]") {
  const std::string text =
      "PS C:\\> wsl --status\n"
      "Ung\xC3\xBCltige Befehlszeilenoption: --status\n"
      "Verwendung: wsl.exe [Option] ...\n"
      "Optionen:\n    -d, --distribution <DistributionsName>\n";
  const auto r = parse_wsl_status(text);
  CHECK(r.errors.invalid_option);
  CHECK(r.errors.usage_text);
  REQUIRE(r.errors.rejected_options.size() == 1);
  CHECK(r.errors.rejected_options[0] == "--status");
  CHECK_FALSE(r.default_distribution.has_value());
  CHECK(looks_like_wsl_status(text) >= 0.8);
}

TEST_CASE("the WSL 2 kernel update message, in any language, by its link", "[parse_wsl]") {
  CHECK(
      parse_wsl_status(
          "WSL 2 requires an update to its kernel component. For information please visit https://aka.ms/wsl2kernel\n")
          .errors.kernel_update_needed);
  CHECK(parse_wsl_status("WSL 2 \xEC\x97\x90\xEB\x8A\x94 \xEC\xBB\xA4\xEB\x84\x90 https://aka.ms/wsl2kernel\n")
            .errors.kernel_update_needed);
  CHECK_FALSE(parse_wsl_status("Default Version: 2\n").errors.kernel_update_needed);
}

TEST_CASE("wsl --version: all seven fields, English and localized", "[parse_wsl]") {
  const std::string english =
      "WSL version: 2.3.26.0\nKernel version: 5.15.167.4-1\nWSLg version: 1.0.65\nMSRDC version: 1.2.5620\n"
      "Direct3D version: 1.611.1-81528511\nDXCore version: 10.0.26100.1-240331-1435.ge-release\n"
      "Windows version: 10.0.22631.4460\n";
  const auto r = parse_wsl_version(english);
  CHECK(r.fields_found() == 7);
  CHECK(r.field(WslVersionField::wsl) == std::optional<std::string>("2.3.26.0"));
  CHECK(r.field(WslVersionField::kernel) == std::optional<std::string>("5.15.167.4-1"));
  CHECK(r.field(WslVersionField::windows) == std::optional<std::string>("10.0.22631.4460"));
  CHECK(windows_build_of(*r.field(WslVersionField::windows)) == std::optional<int>(22631));
  const auto facts = to_json(r);
  CHECK(facts["wsl_version"] == "2.3.26.0");
  CHECK(facts["windows_version"] == "10.0.22631.4460");
  CHECK(looks_like_wsl_version(english) >= 0.9);

  const std::vector<std::string> localized{
      // ko-KR
      "WSL \xEB\xB2\x84\xEC\xA0\x84: 2.0.14.0\n\xEC\xBB\xA4\xEB\x84\x90 \xEB\xB2\x84\xEC\xA0\x84: 5.15.133.1-1\n"
      "Windows \xEB\xB2\x84\xEC\xA0\x84: 10.0.22631.2715\n",
      // pt-BR
      "Vers\xC3\xA3o do WSL: 2.0.14.0\nVers\xC3\xA3o do kernel: 5.15.133.1-1\nVers\xC3\xA3o do Windows: "
      "10.0.22631.2715\n",
      // fr-FR with no-break spaces before the colons
      "Version WSL\xC2\xA0: 2.0.14.0\nVersion du noyau\xC2\xA0: 5.15.133.1-1\nVersion de Windows\xC2\xA0: "
      "10.0.22631.2715\n",
      // de-DE
      "WSL-Version: 2.0.14.0\nKernelversion: 5.15.133.1-1\nWindows-Version: 10.0.22631.2715\n",
  };
  for (const std::string& sample : localized) {
    INFO(sample);
    const auto l = parse_wsl_version(sample);
    CHECK(l.field(WslVersionField::wsl) == std::optional<std::string>("2.0.14.0"));
    CHECK(l.field(WslVersionField::kernel) == std::optional<std::string>("5.15.133.1-1"));
    CHECK(l.field(WslVersionField::windows) == std::optional<std::string>("10.0.22631.2715"));
  }
  // And every language wsl.exe ships, from its own format string.
  const auto& catalog = wsl_message_catalog();
  for (const std::string& label : catalog.version_labels[static_cast<std::size_t>(WslVersionField::kernel)]) {
    INFO(label);
    CHECK(parse_wsl_version(label + ": 6.6.36.3-1\n").field(WslVersionField::kernel) ==
          std::optional<std::string>("6.6.36.3-1"));
  }
}

TEST_CASE("wsl --version rejected by an inbox wsl.exe is a too-old CLI, not a version", "[parse_wsl]") {
  const std::string text =
      "Invalid command line option: --version\r\n\r\nCopyright (c) Microsoft Corporation. All rights reserved.\r\n"
      "\r\nUsage: wsl.exe [Argument] [Options...] [CommandLine]\r\n";
  const auto r = parse_wsl_version(text);
  CHECK(r.fields_found() == 0);
  CHECK(r.errors.cli_too_old());
  CHECK(looks_like_wsl_version(text) >= 0.8);
  CHECK(looks_like_wsl_list(text) < looks_like_wsl_version(text));
}

TEST_CASE("the packaged-WSL error names the Windows version but is not a version listing", "[parse_wsl]") {
  const auto r = parse_wsl_version(
      "Windows version 10.0.19044.1288 does not support the packaged version of Windows Subsystem for Linux.\n"
      "For information please visit https://aka.ms/wslinstall\n");
  CHECK(r.errors.packaged_wsl_unsupported);
  CHECK(r.fields_found() == 0);
  CHECK(r.windows_version_in_message == "10.0.19044.1288");
}

TEST_CASE("a version GitHub turned into a markdown link is read as the version", "[parse_wsl]") {
  const auto r = parse_wsl_status("Kernel version: [5.10.102.1](https://5.10.102.1/)\n");
  CHECK(r.kernel_version == std::optional<std::string>("5.10.102.1"));
}

TEST_CASE("a seven-line wsl --version block is read by position when a label is an unknown translation",
          "[parse_wsl]") {
  // Italian labels of an imagined older build: only the WSL line's label is one we know.
  const std::string text =
      "Versione WSL: 2.0.9.0\nVersione kernel (vecchia): 5.15.133.1-1\nVersione WSLg (vecchia): 1.0.59\n"
      "Versione MSRDC (vecchia): 1.2.4677\nVersione Direct3D (vecchia): 1.611.1-81528511\n"
      "Versione DXCore (vecchia): 10.0.25880.1000-230602-1350.main\nVersione Windows (vecchia): 10.0.22621.2428\n";
  const auto r = parse_wsl_version(text);
  CHECK(r.field(WslVersionField::wsl) == std::optional<std::string>("2.0.9.0"));
  CHECK(r.field(WslVersionField::kernel) == std::optional<std::string>("5.15.133.1-1"));
  CHECK(r.field(WslVersionField::windows) == std::optional<std::string>("10.0.22621.2428"));
  // Seven unknown labels are not taken for wsl --version.
  const auto none = parse_wsl_version("a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\n");
  CHECK(none.fields_found() == 0);
}

TEST_CASE("a value cut with '...' is no fact: a cut Windows build is not an old Windows", "[parse_wsl]") {
  // The paste cut the last line: "10.0.2..." would read as build 2, far below any minimum.
  const std::string cut =
      "WSL version: 2.0.9.0\nKernel version: 5.15.133.1-1\nWSLg version: 1.0.59\nMSRDC version: 1.2.4677\n"
      "Direct3D version: 1.611.1-81528511\nDXCore version: 10.0.25131.1002-220531-1700.rs-onecore-base2-hyp\n"
      "Windows version: 10.0.2...\n";
  const auto r = parse_wsl_version(cut);
  CHECK(r.field(WslVersionField::wsl) == std::optional<std::string>("2.0.9.0"));
  CHECK_FALSE(r.field(WslVersionField::windows).has_value());
  CHECK_FALSE(to_json(r).contains("windows_version"));
  // Read by position (unknown labels), the cut line keeps its place and gives nothing.
  const auto by_position = parse_wsl_version(
      "Versione WSL: 2.0.9.0\nVersione kernel (vecchia): 5.15.1\xE2\x80\xA6\nVersione WSLg (vecchia): 1.0.59\n"
      "Versione MSRDC (vecchia): 1.2.4677\nVersione Direct3D (vecchia): 1.611.1-81528511\n"
      "Versione DXCore (vecchia): 10.0.25880.1000-230602-1350.main\nVersione Windows (vecchia): 10.0.22621.2428\n");
  CHECK_FALSE(by_position.field(WslVersionField::kernel).has_value());
  CHECK(by_position.field(WslVersionField::wslg) == std::optional<std::string>("1.0.59"));
  CHECK(by_position.field(WslVersionField::windows) == std::optional<std::string>("10.0.22621.2428"));

  CHECK_FALSE(windows_build_of("10.0.2...").has_value());
  CHECK_FALSE(windows_build_of("10.0.1904\xE2\x80\xA6").has_value());
  CHECK(windows_build_of("10.0.19045.4412") == std::optional<int>(19045));
  // In free text (ver, systeminfo): a cut build is skipped, a cut revision leaves the build.
  CHECK(find_windows_version("Microsoft Windows [Version 10.0.1904...]\n").empty());
  CHECK(find_windows_version("Microsoft Windows [Version 10.0.19045.44...]\n") == "10.0.19045");
  CHECK(find_windows_version("Microsoft Windows [Version 10.0.19045.4412]\n") == "10.0.19045.4412");
}

TEST_CASE("wsl --status: a cut distribution or kernel is no fact", "[parse_wsl]") {
  const auto r = parse_wsl_status("Default Distribution: Ubuntu-2...\nDefault Version: 2\nKernel version: 5.15.1...\n");
  CHECK_FALSE(r.default_distribution.has_value());
  CHECK(r.default_version == std::optional<int>(2));
  CHECK_FALSE(r.kernel_version.has_value());
  // A value with no word at all (a link around nothing) is no fact either.
  CHECK_FALSE(parse_wsl_status("Kernel version: [](https://example.invalid/)\n").kernel_version.has_value());
}
