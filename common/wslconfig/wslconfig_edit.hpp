#pragma once
// `tfwsl wslconfig set KEY=VALUE... | unset KEY...` as a plan over a Document: which lines change,
// the new text, the diff to show, and a refusal (with the reason and the fix) when WSL would not
// take the value. Pure: reading and writing the file belong to the command.
//
// A key goes where WSL reads it: a key of one section into that section; one WSL reads in both
// (networkingMode, dnsTunneling, firewall, autoProxy: [wsl2], formerly [experimental]) stays where
// the file already has it, else [wsl2]. "experimental.sparseVhd=true" names the section.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"

namespace tfwsl::wslconfig {

struct KeyRef {
  std::string section;  // "wsl2" or "experimental"
  std::string key;      // as documented ("memory", "sparseVhd")
};

struct Assignment {
  KeyRef ref;
  std::string value;
};

// "memory" or "wsl2.memory" -> the key where WSL reads it in `document`; an unknown key is an
// error with "did you mean".
Result<KeyRef> resolve_key(std::string_view text, const Document& document);
// "memory=16GB" -> the assignment; no '=' or an empty value is an error that says how to write it.
Result<Assignment> parse_assignment(std::string_view text, const Document& document);

struct Change {
  KeyRef ref;
  std::optional<std::string> before;  // the value WSL read before (nothing: not set)
  std::optional<std::string> after;   // the value after (nothing: unset)
  std::size_t line = 0;               // 1-based line of the value after the edit (0: removed)
};

struct EditPlan {
  Document after;
  std::vector<Change> changes;    // one per KEY given, in order; before == after: no change
  std::vector<Finding> findings;  // lint of new_bytes, as written (not of the file as read)
  std::string new_bytes;          // after.serialize()
  bool changes_bytes = false;     // new_bytes differ from the file's bytes
};

struct EditOptions {
  std::optional<std::uint64_t> physical_memory_bytes;  // memory= above it is refused
};

// The lint findings that make `set` refuse a value instead of writing it: WSL would ignore it.
bool refuses_value(const Finding& finding);

// Applies the sets, then the unsets, to a copy of `document` (`old_bytes`: the file as read) and
// lints the result; a value lint says WSL would not accept is an error naming it, the reason and
// the fix (exit 2 in the command), and nothing is planned.
Result<EditPlan> plan_edit(const Document& document, std::string_view old_bytes, const std::vector<Assignment>& sets,
                           const std::vector<KeyRef>& unsets, const EditOptions& options);

// The lines that differ, in the form of `diff` without context: "-3: memory=8GB", "+3: memory=16GB".
std::string line_diff(std::string_view old_text, std::string_view new_text);

}  // namespace tfwsl::wslconfig
