// CLI: `strmatch common`'s run (common_run.hpp): the operands, the inputs read whole and checked
// against the usable memory, the task chosen and run, the exit status.
#include "common_run.hpp"

namespace strmatch::cli::common_run {

/// The bytes of a --files-from list, one path per line ('\n'; a '\r' before it is removed; empty
/// lines are skipped). "-": standard input.
std::vector<std::string> read_file_list(const std::string& list) {
  const std::string bytes = read_option_file("--files-from", list);
  std::vector<std::string> paths;
  for (std::size_t pos = 0; pos < bytes.size();) {
    std::size_t end = bytes.find('\n', pos);
    if (end == std::string::npos) end = bytes.size();
    std::string_view line(bytes.data() + pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) paths.emplace_back(line);
  }
  return paths;
}

std::vector<std::string> Run::operands() {
  const CommonSubstringConfig& c = cfg_;
  if (c.min_docs_given && (c.min_length_given || c.unique))
    throw InvalidArgument(
        "--min-length and --unique ask for the maximal exact matches of two files; --min-docs for the "
        "longest "
        "substrings of q of N files: give one or the other");
  if (c.min_length_given && c.min_length == 0)
    throw InvalidArgument("--min-length 0: maximal exact matches have a length of at least 1");
  task_ = c.min_docs_given ? Task::shared : c.min_length_given || c.unique ? Task::maximal : Task::longest;
  min_length_ = c.min_length_given ? c.min_length : kMummerMinLength;
  std::vector<std::string> paths = c.files;
  bool list_from_stdin = false;
  for (const std::string& list : c.files_from) {
    if (list == "-") {
      if (list_from_stdin) throw InvalidArgument("--files-from -: standard input given twice");
      list_from_stdin = true;
    }
    for (auto& p : read_file_list(list)) paths.push_back(std::move(p));
  }
  std::size_t stdin_count = 0;
  for (const auto& p : paths) stdin_count += p == "-";
  if (stdin_count + (list_from_stdin ? 1 : 0) > 1)
    throw InvalidArgument(
        "standard input ('-') can be read only once (as one FILE, or as the --files-from list)");
  if (task_ == Task::shared) {
    if (paths.size() < 2)
      throw InvalidArgument(fmt::format("--min-docs needs at least two FILEs; {} given", paths.size()));
    if (c.min_docs < 2)
      throw InvalidArgument(fmt::format(
          "--min-docs {}: q must be at least 2 (a substring of one file is the file)", c.min_docs));
    if (!c.fasta && c.min_docs > paths.size())
      throw InvalidArgument(
          fmt::format("--min-docs {}: q must lie in 2..{} (the number of FILEs)", c.min_docs, paths.size()));
  } else if (paths.size() != 2) {
    throw InvalidArgument(fmt::format(
        "give two FILEs (A and B), or --min-docs q with two or more FILEs; {} given", paths.size()));
  }
  return paths;
}

void Run::load(const std::vector<std::string>& paths) {
  const auto t0 = Clock::now();
  std::vector<io::Input> inputs;
  inputs.reserve(paths.size());
  std::uint64_t known = 0;
  for (const auto& p : paths) {
    inputs.push_back(io::Input::open(p));
    if (inputs.back().kind() == io::InputKind::directory) throw IoError(p + ": Is a directory");
    known += inputs.back().size();
  }
  // Whole inputs in memory: their bytes, and a copy of the sequences with --fasta.
  const std::uint64_t usable = io::usable_memory_bytes();
  const std::uint64_t factor = cfg_.fasta ? 2 : 1;
  const auto refuse = [&](std::uint64_t need, const std::string& what) {
    throw InsufficientMemory(fmt::format(
        "{} needs about {} MiB of memory ({} bytes{}), and {} MiB are usable: the inputs are read whole into "
        "memory, and refused when they do not fit",
        what, need >> 20, need / factor, cfg_.fasta ? ", twice with --fasta" : "", usable >> 20));
  };
  if (usable != 0 && known > usable / factor)
    refuse(known * factor, fmt::format("reading {}", plural(paths.size(), "file")));
  progress = Progress(cfg_.progress == "always" ||
                      (cfg_.progress == "auto" && ::isatty(2) == 1 && known >= kProgressMinBytes));
  phase(fmt::format("reading {} ({} bytes)...", plural(paths.size(), "file"), known));
  const io::MapPolicy policy = io::parse_map_policy(cfg_.mmap);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    io::Input& in = inputs[i];
    Source& s = sources_.emplace_back();
    s.name = in.is_standard_input() ? in.name() : paths[i];
    // Mapped, or read whole (io::read_whole); a source of unknown size (a pipe) may not exceed what
    // is left of the memory.
    const std::uint64_t left = usable == 0 ? std::numeric_limits<std::uint64_t>::max()
                                           : usable / factor - std::min(usable / factor, total);
    s.whole = io::read_whole(in, policy, left);
    if (s.whole.over_limit())
      refuse((total + s.whole.bytes().size() + 1) * factor, s.name + " (read so far)");
    s.bytes = s.whole.bytes();
    total += s.bytes.size();
    if (cfg_.fasta) s.fasta.emplace(parse_fasta(s.bytes, s.name));
  }
  input_bytes_ = total;
  // The texts: each FASTA record, or each file.
  const auto add = [&](Texts& t, const Source& s) {
    t.named = cfg_.fasta || task_ == Task::shared;
    if (s.fasta) {
      for (std::size_t r = 0; r < s.fasta->size(); ++r) t.add(s.fasta->record(r), s.fasta->names[r]);
    } else {
      t.add(s.bytes, s.name);
    }
  };
  if (task_ == Task::shared) {
    for (const Source& s : sources_) add(all_, s);
    if (cfg_.min_docs > all_.views.size())
      throw InvalidArgument(fmt::format("--min-docs {}: q must lie in 2..{} (the number of FASTA records)",
                                        cfg_.min_docs, all_.views.size()));
  } else {
    add(a_, sources_[0]);
    add(b_, sources_[1]);
  }
  read_seconds_ = seconds_since(t0);
}

int Run::run() {
  try {
    const std::vector<std::string> paths = operands();
    (void)parse_backend(cfg_.backend);
    load(paths);
    make_printer();
    switch (task_) {
      case Task::longest:
        run_longest();
        break;
      case Task::maximal:
        run_maximal();
        break;
      case Task::shared:
        run_shared();
        break;
    }
  } catch (const Error& e) {
    return fatal(e.what());
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    return fail("out of memory (the inputs, or the library's index of them, did not fit)");
  }
  return finish();
}

}  // namespace strmatch::cli::common_run

namespace strmatch::cli {

int run_common_computation(const CommonSubstringConfig& config) {
  common_run::Run run(config);
  return run.run();
}

}  // namespace strmatch::cli
