#include "common/parse/paste_cleaner.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/utf16_bytes.hpp"

using tfwsl::clean_paste;
using tfwsl::split_prompt;

TEST_CASE("paste cleaner: CRLF and doubled CR become plain newlines") {
  auto cleaned = clean_paste("a\r\nb\r\r\nc\rd\n");
  CHECK(cleaned.text == "a\nb\nc\nd\n");
}

TEST_CASE("paste cleaner: UTF-16LE bytes are decoded") {
  auto cleaned = clean_paste("\xff\xfe" + tfwsl::test::ascii_as_utf16le("Default Version: 2\r\n"));
  CHECK(cleaned.text == "Default Version: 2\n");
  CHECK(cleaned.encoding == tfwsl::ConsoleEncoding::utf16le_bom);
  auto no_bom =
      clean_paste(tfwsl::test::ascii_as_utf16le("  NAME      STATE   VERSION\r\r\n* Ubuntu    Running 2\r\r\n"));
  CHECK(no_bom.text == "  NAME      STATE   VERSION\n* Ubuntu    Running 2\n");
}

TEST_CASE("paste cleaner: the backslash-x00 repr of UTF-16 is decoded, including Latin-1 letters") {
  std::string repr =
      R"(exit status 1: "\r\x00\r\x00\n\x00U\x00t\x00i\x00l\x00i\x00s\x00\xe9\x00\r\x00\r\x00\n\x00w\x00s\x00l\x00")";
  auto cleaned = clean_paste(repr + "\n");
  CHECK(cleaned.utf16_rendering);
  CHECK(cleaned.text.find("Utilis\xc3\xa9\n") != std::string::npos);
  CHECK(cleaned.text.find("wsl") != std::string::npos);
  CHECK(cleaned.text.find("\\x00") == std::string::npos);
}

TEST_CASE("paste cleaner: letters separated by spaces are joined when most lines look so") {
  auto cleaned = clean_paste("W S L   v e r s i o n :   2 . 1 . 5 . 0\nK e r n e l   v e r s i o n :   5 . 1 5\n");
  CHECK(cleaned.text == "WSL version: 2.1.5.0\nKernel version: 5.15\n");
  // One spaced line among normal ones stays as it is.
  auto normal = clean_paste("numpy\na b c d e\nscipy\npandas\n");
  CHECK(normal.text == "numpy\na b c d e\nscipy\npandas\n");
}

TEST_CASE("paste cleaner: prompts are taken out and their commands kept") {
  auto cleaned = clean_paste(
      "PS C:\\Users\\me> wsl -l -v\n  NAME STATE VERSION\nC:\\Users\\me>wsl --status\n"
      "me@box:~$ nvidia-smi\n(base) me@box:/tmp$ python3 x.py\n$ ls\n"
      "> wsl --version\n>>> import tensorflow as tf\n... print(1)\nout\n");
  CHECK(cleaned.text == "  NAME STATE VERSION\nout\n");
  REQUIRE(cleaned.commands.size() == 8);
  CHECK(cleaned.commands[0] == "wsl -l -v");
  CHECK(cleaned.commands[1] == "wsl --status");
  CHECK(cleaned.commands[2] == "nvidia-smi");
  CHECK(cleaned.commands[3] == "python3 x.py");
  CHECK(cleaned.commands[6] == "import tensorflow as tf");
  CHECK(cleaned.commands[7] == "print(1)");
}

TEST_CASE("paste cleaner: requirement comments and specifiers are not prompts") {
  std::string command;
  CHECK_FALSE(split_prompt("# pinned for CUDA 11.2", command));
  CHECK_FALSE(split_prompt("tensorflow>=2.10,<2.11", command));
  CHECK_FALSE(split_prompt("> Could not find cuda drivers", command));
  CHECK(split_prompt("root@host:/# ldconfig", command));
  CHECK(command == "ldconfig");
}

TEST_CASE("paste cleaner: markdown fences and quote prefixes") {
  auto fenced = clean_paste("```bash\nline one\n```\n~~~\nline two\n~~~\n");
  CHECK(fenced.text == "line one\nline two\n");
  auto glued = clean_paste("```Wed May 15 00:12:47 2024\n| NVIDIA-SMI 535 |```\n");
  CHECK(glued.text == "Wed May 15 00:12:47 2024\n| NVIDIA-SMI 535 |\n");
  auto quoted = clean_paste("> [wsl2]\n> memory=8GB\n>\n> > nested\n");
  CHECK(quoted.text == "[wsl2]\nmemory=8GB\n\nnested\n");
}

TEST_CASE("paste cleaner: binary garbage never throws") {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 131 + 7) & 0xff);
  CHECK_NOTHROW(clean_paste(garbage));
  CHECK_NOTHROW(clean_paste(""));
  CHECK(clean_paste("").text.empty());
  CHECK_NOTHROW(clean_paste("\\x0"));
}

TEST_CASE("paste cleaner: commands typed at a PowerShell or cmd.exe prompt are kept apart") {
  auto cleaned = clean_paste(
      "C:\\Users\\me>python train.py\nPS C:\\work> wsl -l -v\nme@box:~$ python3 x.py\n>>> import tensorflow\n");
  CHECK(cleaned.commands ==
        std::vector<std::string>{"python train.py", "wsl -l -v", "python3 x.py", "import tensorflow"});
  CHECK(cleaned.windows_commands == std::vector<std::string>{"python train.py", "wsl -l -v"});
}
