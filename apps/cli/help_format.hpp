// CLI: how --help and usage errors read. Each option's names and value on one line, its
// description from the next line, indented and wrapped; no CLI11 "Excludes:"/"Needs:" notes (the
// descriptions say what conflicts). Every usage error starts with "strmatch: ".
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace strmatch::cli {

/// The formatter of every subcommand's --help (set on the top-level app before the subcommands
/// are added: CLI11 copies it into each).
class HelpFormatter : public CLI::Formatter {
 public:
  /// Lines of the descriptions are wrapped at this many columns.
  static constexpr std::size_t kWidth = 100;

  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  /// A subcommand of the top-level list: its name, its description on the next lines.
  std::string make_subcommand(const CLI::App* sub) const override;
  /// The footer (output formats, exit status), wrapped.
  std::string make_footer(const CLI::App* app) const override;
  /// The command's description, wrapped.
  std::string make_description(const CLI::App* app) const override;
  /// "-e, --regexp" (CLI11 writes "-e,--regexp"); a flag that also takes a value (--color, the only
  /// one) reads "--color, --colour [=WHEN]".
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
};

/// CLI11's failure message with the "strmatch: " prefix: "strmatch: MESSAGE\nRun 'strmatch
/// SUBCOMMAND --help' for more information.\n" (set with CLI::App::failure_message()).
std::string usage_error_message(const CLI::App* app, const CLI::Error& e);

/// `text` wrapped at `width` columns (words never split), every line indented by `indent` spaces;
/// existing newlines are kept. Ends with a newline unless `text` is empty.
std::string wrap_text(const std::string& text, std::size_t indent, std::size_t width);

}  // namespace strmatch::cli
