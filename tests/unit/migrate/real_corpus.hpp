#pragma once
// A case of tests/corpus/migrate-real (real public projects' dependency files, byte-exact) loaded
// into the in-memory ProjectFiles: the same split as tests/integration/migrate/score_migrate.py.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/migrate/fake_project_files.hpp"

namespace tfwsl::migrate::test {

inline FakeProjectFiles real_project(const std::string& case_name) {
  const auto path =
      std::filesystem::path(TFWSL_SOURCE_DIR) / "tests" / "corpus" / "migrate-real" / (case_name + ".txt");
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  FakeProjectFiles fs;
  const auto body = text.find("\n---\n");
  if (body == std::string::npos) return fs;
  std::string current;
  std::istringstream lines(text.substr(body + 5));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("=== ")) {
      current = line.substr(4);
      fs.files[current];
      continue;
    }
    if (!current.empty()) fs.files[current] += line + "\n";
  }
  for (auto it = fs.files.begin(); it != fs.files.end();) {
    const std::string marker = " --no-final-newline";
    if (it->first.ends_with(marker)) {
      std::string name = it->first.substr(0, it->first.size() - marker.size());
      std::string content = it->second;
      if (content.ends_with("\n")) content.pop_back();
      it = fs.files.erase(it);
      fs.files[name] = content;
    } else {
      ++it;
    }
  }
  return fs;
}

}  // namespace tfwsl::migrate::test
