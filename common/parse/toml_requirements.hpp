#pragma once
// pyproject.toml and Pipfile read with a TOML parser (toml++), never by text patterns: PEP 621
// ([project] dependencies, optional-dependencies, requires-python), PEP 735 [dependency-groups],
// [build-system] requires, Poetry ([tool.poetry.dependencies] and its dev and group tables, with
// ^ / ~ constraints and {version, extras, markers} tables), PDM's dev-dependencies, Hatch's
// environments, and Pipfile's [packages] / [dev-packages] / [requires].

#include <optional>
#include <string>
#include <string_view>

#include "common/parse/requirements_parser.hpp"

namespace tfwsl::parse {

struct TomlRequirements {
  RequirementsResult result;
  // Where the text stops being TOML: "line 7, column 12: expected '='"; nothing when it parsed.
  std::optional<std::string> error;
  int error_line = 0;
  int error_column = 0;
};

// `format` is pyproject_pep621, poetry or pipfile; a pyproject.toml with a [tool.poetry] table comes
// back as poetry.
TomlRequirements read_toml_requirements(std::string_view text, RequirementsFormat format);

}  // namespace tfwsl::parse
