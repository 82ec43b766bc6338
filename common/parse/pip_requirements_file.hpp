#pragma once
// pip's requirements-file format, read strictly as pip reads it
// (https://pip.pypa.io/en/stable/reference/requirements-file-format/, pip's req_file.py): a
// trailing backslash joins the next line, '#' at a line start or after a blank starts a comment,
// `-r FILE` / `-c FILE` include files relative to the including file, other option lines
// (--extra-index-url, --find-links, ...) only steer pip, and options after a requirement
// (--hash=...) belong to it. Text in, lines out; the files come through a reader so this stays pure.
// Each requirement's own shape is read_requirement_parts's (common/version/requirement_syntax.hpp):
// with it this is the one reader of requirements that migrate, explain, provision and venv use.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::parse {

enum class PipLineKind {
  requirement,       // "numpy>=1.26; python_version < '3.13'"
  direct_reference,  // "pkg @ https://...", "./local", "x.whl", "git+https://...", "-r https://..."
  editable,          // "-e ." / "--editable path"
  unparsed,          // none of the above: pip decides what it means
};

struct PipRequirementLine {
  PipLineKind kind = PipLineKind::requirement;
  std::string text;         // the requirement as written (lines joined, comment and trailing options removed)
  std::string file;         // the file it came from ("--package" for one given on the command line)
  int line = 0;             // 1-based line where it starts (0 for --package)
  bool constraint = false;  // from a -c file: limits the versions of what is required, requires nothing
};

struct PipInclude {
  std::string target;  // as written: "base.txt", "../common/req.txt"
  bool constraint = false;
  int line = 0;
};

struct PipFileLines {
  std::vector<PipRequirementLine> lines;
  std::vector<PipInclude> includes;
};

// A line as pip's join_lines leaves it: a line ending in '\\' continues on the next (joined with
// nothing between, the '\\' removed); a comment line ends a continuation. Comments are still in it.
struct PipJoinedLine {
  std::string text;
  int line = 0;  // 1-based line where it starts
};

// The joined lines of a file's text (a UTF-8 BOM and CRs dropped).
std::vector<PipJoinedLine> join_pip_lines(std::string_view text);

// The -r/-c include a joined, comment-free line names ("-r x", "-rx", "--requirement=x",
// "-c x"), or nothing.
std::optional<PipInclude> pip_include_of(std::string_view line, int number);

// One file's text; its includes are listed, not followed.
PipFileLines parse_pip_requirements_text(std::string_view text, const std::string& file);

// The text of a file, or an error naming it (missing, unreadable).
using PipFileReader = std::function<Result<std::string>(const std::string& path)>;

struct PipRequirementsRead {
  std::vector<PipRequirementLine> lines;  // in pip's order: each include's lines where it is named
  std::vector<std::string> files;         // every file read, once each, in the order read
};

// The files and everything they include (relative to the including file's folder; each file read
// once, so include loops end). An include that cannot be read is an error naming it and the
// line that includes it; a URL include is a direct_reference line (pip fetches it).
Result<PipRequirementsRead> read_pip_requirements(const std::vector<std::string>& paths, const PipFileReader& reader);

}  // namespace tfwsl::parse
