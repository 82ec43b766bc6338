#pragma once
// One file's text, line by line: TensorFlow and Keras imports, Keras-2-only APIs (.py, .ipynb) and
// Windows absolute paths (code and configs: "C:\\x", 'D:/y', r"E:\z", "F:\\\\escaped").

#include <string_view>
#include <vector>

#include "win/migrate/project_scan.hpp"

namespace tfwsl::migrate {

// Whether a file is code (imports and APIs are looked for) or a config (paths only), by extension.
bool is_code_file(std::string_view relative_path);
bool is_config_file(std::string_view relative_path);

void scan_code(std::string_view file, std::string_view text, const MigrateFacts& facts, ProjectScan& scan);
void scan_paths(std::string_view file, std::string_view text, ProjectScan& scan);

// The Windows absolute paths on one line, escapes undone and '/' turned into '\\'.
std::vector<std::string> windows_paths_in_line(std::string_view line);

}  // namespace tfwsl::migrate
