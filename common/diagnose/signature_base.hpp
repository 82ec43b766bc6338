#pragma once
// The signature base: what pasted text means, as data (profiles/signatures.yaml, embedded in the
// binary). A signature names a finding id, its severity, the kinds of paste it applies to, the text
// that reveals it (literals, or regexes gated by a literal needle so a 10 MB log stays fast) and/or
// conditions on the parsed facts, plus the summary and the fix with the exact command (and the fix
// for a paste that came from native Windows, in cmd/PowerShell syntax, where it differs).

#include <cstddef>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/diagnose/text_subject.hpp"

namespace tfwsl {
class CompatDb;
}

namespace tfwsl::diagnose {

enum class Severity { info, warning, error };

const char* to_string(Severity severity);

struct TextPattern {
  std::string needle;                       // lower-cased literal; the whole pattern when regex is empty
  std::shared_ptr<const std::regex> regex;  // case-insensitive; runs only on lines holding the needle
  std::string source;                       // the pattern as written (for messages)
};

struct Condition {
  enum class Test {
    is_true,
    is_false,
    present,
    absent,
    empty,
    nonempty,
    at_least,
    below,
    version_below,
    windows_driver_below,
    in,
    contains_any,
    contains_none
  };
  std::string fact;  // dotted path into the facts ("failures.cannot_communicate")
  Test test = Test::present;
  double number = 0;                // at_least / below
  std::string version;              // version_below / windows_driver_below
  std::vector<std::string> values;  // in / contains_any / contains_none (compared case-insensitively)
};

struct Signature {
  std::string id;
  Severity severity = Severity::warning;
  std::vector<std::string> kinds;     // "any" matches every kind
  std::vector<TextPattern> patterns;  // any of them
  std::vector<Condition> when;        // all of them
  std::vector<std::string> unless;
  std::string summary;
  std::string fix;
  std::string fix_windows;  // the fix for a native-Windows paste (fact platform "windows"), or empty
  bool fallback = false;    // only when no other signature found anything (explain.unrecognised)
  // The text is about another framework or tool, not TensorFlow ("pytorch"), and its name as
  // shown ("PyTorch"): the explanation says so in a field of its own and its kind stays unknown.
  std::string about;
  std::string about_name;

  bool applies_to(std::string_view kind) const;
};

class SignatureBase {
 public:
  // Parses the YAML document; errors name `origin`, the signature and the problem. With `compat`,
  // windows_driver_min (the Windows driver floor of the CUDA major of the document's cuda_min) and
  // windows_build_min come from the compatibility data, so that the signatures never repeat them,
  // and the document may not define them itself; the same holds for `profile` (distro, python,
  // tf_requirement, ...: profile_constants.hpp). `$name` in a condition and `${name}` in a summary
  // or fix are replaced by the constant. `%{fact.path}` stays for the engine, which prints the fact.
  static Result<SignatureBase> load(std::string_view yaml_text, std::string_view origin,
                                    const CompatDb* compat = nullptr,
                                    const std::map<std::string, std::string>* profile = nullptr);

  const std::vector<Signature>& signatures() const { return m_signatures; }
  // The rules for a text about another framework or tool (the document's `subjects:`).
  const TextSubjects& text_subjects() const { return m_subjects; }
  // A constant by name ("windows_driver_min"), empty when unknown.
  std::string constant(const std::string& name) const;

 private:
  std::vector<Signature> m_signatures;
  TextSubjects m_subjects;
  std::map<std::string, std::string> m_constants;
};

// The base compiled into the program from profiles/signatures.yaml, with the built-in
// compatibility data and the built-in profiles' names; loaded once.
const Result<SignatureBase>& builtin_signature_base();

// The embedded YAML text itself (for tests and `--signatures` dumps).
std::string_view builtin_signatures_yaml();

// True when the condition holds on `facts`.
bool condition_holds(const Condition& condition, const nlohmann::json& facts);

}  // namespace tfwsl::diagnose
