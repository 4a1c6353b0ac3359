// CLI: the --help layout and the usage-error prefix (help_format.hpp).
#include "help_format.hpp"

#include <sstream>

namespace strmatch::cli {

std::string wrap_text(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out;
  std::istringstream paragraphs(text);
  std::string paragraph;
  while (std::getline(paragraphs, paragraph)) {
    std::istringstream words(paragraph);
    std::string word;
    std::size_t column = 0;
    while (words >> word) {
      if (column > indent && column + 1 + word.size() > width) {
        out += '\n';
        column = 0;
      }
      if (column == 0) {
        out.append(indent, ' ');
        column = indent;
      } else {
        out += ' ';
        ++column;
      }
      out += word;
      column += word.size();
    }
    out += '\n';
  }
  return out;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  // The value's name and default only: conflicts are said in the descriptions.
  std::string out;
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  if (opt->get_type_size() != 0) {
    if (!opt->get_type_name().empty()) out += " " + get_label(opt->get_type_name());
    if (!opt->get_default_str().empty()) out += " (default: " + opt->get_default_str() + ")";
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
  }
  return out;
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  // "-e,--regexp"; a flag with a value when given alone reads "--color{auto},--colour{auto}".
  const std::string names = CLI::Formatter::make_option_name(opt, is_positional);
  std::string out;
  bool optional_value = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == '{') {
      optional_value = true;
      i = names.find('}', i);
      if (i == std::string::npos) break;
    } else {
      out += names[i] == ',' ? std::string(", ") : std::string(1, names[i]);
    }
  }
  return optional_value ? out + " [=WHEN]" : out;
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  std::string out = "  " + make_option_name(opt, is_positional) + make_option_opts(opt) + "\n";
  const std::string desc = make_option_desc(opt);
  if (!desc.empty()) out += wrap_text(desc, 8, kWidth);
  return out;
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return "  " + sub->get_display_name() + "\n" + wrap_text(sub->get_description(), 8, kWidth);
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string desc = app->get_description();
  return desc.empty() ? std::string() : wrap_text(desc, 0, kWidth);
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  return footer.empty() ? std::string() : wrap_text(footer, 0, kWidth);
}

std::string usage_error_message(const CLI::App* app, const CLI::Error& e) {
  // A hidden option's validator names the option itself: drop the ": " of CLI11's empty name.
  std::string what = e.what();
  if (what.rfind(": ", 0) == 0) what.erase(0, 2);
  std::string message = "strmatch: " + what + "\n";
  if (app == nullptr) return message;
  // The subcommand being parsed, when there is one: its --help is the one that helps.
  std::string command = app->get_name();
  for (const CLI::App* sub : app->get_subcommands()) command += " " + sub->get_name();
  return message + "Run '" + command + " --help' for more information.\n";
}

}  // namespace strmatch::cli
