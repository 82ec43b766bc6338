#include "win/migrate/ownership_mark.hpp"

#include <fmt/format.h>

#include "common/util/content_hash.hpp"

namespace tfwsl::migrate {
namespace {

constexpr std::string_view k_prefix = "# Written by tfwsl migrate from ";
constexpr std::string_view k_hash_tag = " tfwsl-hash:";

}  // namespace

std::string with_ownership_mark(std::string_view source, std::string_view body) {
  return fmt::format("{}{} (edit that file and run migrate again: this one is replaced only while unchanged){}{}\n{}",
                     k_prefix, source, k_hash_tag, content_hash(body), body);
}

bool written_by_migrate(std::string_view text) {
  if (!text.starts_with(k_prefix)) return false;
  const auto newline = text.find('\n');
  if (newline == std::string_view::npos) return false;
  const std::string_view first = text.substr(0, newline);
  const auto tag = first.rfind(k_hash_tag);
  if (tag == std::string_view::npos) return false;
  return first.substr(tag + k_hash_tag.size()) == content_hash(text.substr(newline + 1));
}

std::string_view without_ownership_mark(std::string_view text) {
  if (!text.starts_with(k_prefix)) return text;
  const auto newline = text.find('\n');
  return newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
}

}  // namespace tfwsl::migrate
