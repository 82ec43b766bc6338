// agent start's "try" line: for the shell tfwsl runs in, quoted for it.
#include "win/render/agent_try_line.hpp"

#include <catch2/catch.hpp>

#include "common/util/text_wrap.hpp"

using namespace tfwsl;

TEST_CASE("on Windows agent start's try line is PowerShell, reading the token through wsl.exe", "[agent-service]") {
  const std::string line = cli::agent_try_line({true, "Ubuntu 22.04", "/home/o'neil/.config/tfwsl/agent.token", 41234});
  CHECK(line.rfind("try (PowerShell):", 0) == 0);
  CHECK(line.find("$token = wsl.exe -d 'Ubuntu 22.04' '--' cat '/home/o''neil/.config/tfwsl/agent.token';") !=
        std::string::npos);
  CHECK(line.find("curl.exe -s -H \"Authorization: Bearer $token\" http://127.0.0.1:41234/v1/info") !=
        std::string::npos);
  CHECK(line.find("$(cat") == std::string::npos);  // no bash in a PowerShell line
}

TEST_CASE("on Windows without a distro name the try line uses WSL's default", "[agent-service]") {
  const std::string line = cli::agent_try_line({true, "", "/home/me/.config/tfwsl/agent.token", 5});
  CHECK(line.find("$token = wsl.exe '--' cat ") != std::string::npos);
}

TEST_CASE("natively, and so inside WSL, the try line stays bash", "[agent-service]") {
  const std::string line = cli::agent_try_line({false, "", "/home/o'neil/.config/tfwsl/agent.token", 5});
  CHECK(line ==
        "try (bash, in the distro):   curl -s -H \"Authorization: Bearer $(cat "
        "'/home/o'\\''neil/.config/tfwsl/agent.token')\" "
        "http://127.0.0.1:5/v1/info");
}

TEST_CASE("a try line too long for the terminal continues between arguments, never inside the quotes",
          "[agent-service]") {
  const cli::TryLineSettings settings{true, "Ubuntu 22.04", "/home/o'neil/.config/tfwsl/agent.token", 41234};
  WrapStyle style;
  style.width = 50;
  style.commands = {cli::agent_try_command(settings)};
  const std::string wrapped = fit_to_width(cli::agent_try_line(settings) + "\n", style);
  CHECK(wrapped ==
        "try (PowerShell):   $token = wsl.exe -d `\n"
        "  'Ubuntu 22.04' '--' cat `\n"
        "  '/home/o''neil/.config/tfwsl/agent.token'; `\n"
        "  curl.exe -s -H \"Authorization: Bearer $token\" `\n"
        "  http://127.0.0.1:41234/v1/info\n");
}
