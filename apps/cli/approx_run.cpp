// CLI: `strmatch approx`'s run (approx_run.hpp): the searcher or the pair mode from the options,
// how each input is read, --stats.
#include "approx_run.hpp"

namespace strmatch::cli::approximate {

Run::Run(const ApproxConfig& c, std::vector<std::string> pats)
    : RunBase(c), cfg(c), patterns(std::move(pats)) {
  separator = c.null_data ? '\0' : '\n';
  const ApproxMode mode = parse_approx_mode(c.mode);
  const ApproxMetric metric = parse_approx_metric(c.metric);
  if (metric == ApproxMetric::hamming && mode != ApproxMode::infix)
    throw InvalidArgument(fmt::format(
        "--metric hamming works only with --mode infix (--mode {}: a pair alignment needs insertions and "
        "deletions)",
        c.mode));
  if (c.best && c.ends) throw InvalidArgument("--best and --ends exclude each other");
  if (mode != ApproxMode::infix && (c.best || c.ends))
    throw InvalidArgument(
        fmt::format("--{} works only with --mode infix (--mode {} gives one result per line)",
                    c.best ? "best" : "ends", c.mode));
  if (c.cigar && (c.best || c.ends))
    throw InvalidArgument(fmt::format("--cigar needs matches (--{} reports ends, which have no alignment)",
                                      c.best ? "best" : "ends"));
  task = mode != ApproxMode::infix ? Task::pairs : c.best ? Task::best : c.ends ? Task::ends : Task::matches;
  pair_mode = mode;
  // --best -k K too (docs/cli.md, -k): K >= m would let every end reach the limit, and the docs
  // have always said status 2; the pairs of --mode may exceed m (a whole line against PATTERN).
  if (task == Task::matches || task == Task::ends || (task == Task::best && c.max_errors_given)) {
    for (std::size_t i = 0; i < patterns.size(); ++i)
      if (c.max_errors >= patterns[i].size())
        throw InvalidArgument(fmt::format(
            "-k {}: {} is {}; k must be below the pattern's length (with k >= m every position would "
            "match)",
            c.max_errors, patterns.size() == 1 ? std::string("the pattern") : fmt::format("pattern {}", i),
            plural(patterns[i].size(), "byte")));
  }
  if (task != Task::pairs) {
    ApproxOptions o;
    o.max_errors = task == Task::best && !c.max_errors_given ? 0 : c.max_errors;
    o.metric = metric;
    o.algorithm = c.algorithm;
    o.backend = parse_backend(c.backend);
    o.devices = devices_option(c);
    o.threads = c.threads;
    o.chunk_bytes = static_cast<std::size_t>(c.chunk());
    o.separator = static_cast<unsigned char>(separator);
    o.cigar = c.cigar;
    if (task == Task::best && c.max_errors_given) o.best_limit = c.max_errors;
    // best() does not need k < m (its -k, below every pattern's length, is best_limit).
    if (task == Task::best) {
      std::size_t shortest = patterns[0].size();
      for (const auto& p : patterns) shortest = std::min(shortest, p.size());
      o.max_errors = std::min<std::uint32_t>(o.max_errors, static_cast<std::uint32_t>(shortest - 1));
    }
    searcher.emplace(std::span<const std::string>(patterns), o);
  }
  terminator = c.null_data ? '\0' : '\n';
  print.kind = task == Task::matches ? HitKind::match : task == Task::pairs ? HitKind::pair : HitKind::end;
  print.pattern_id = patterns.size() > 1;
  print.cigar = c.cigar;
  print.result_word = task == Task::matches ? "match" : task == Task::pairs ? "pair" : "end";
  print.json_matching_lines = true;
  print.json_best = task == Task::best;
  print.json_lines = true;
  // grep's line selection (-v, context, colour) over the matches; context and colour mean nothing
  // to --json and --count-matches (as search's), and -v is refused with them (check_approx_options).
  const bool line_modes = this->mode != Out::json && this->mode != Out::count_matches;
  select = task == Task::matches && line_modes &&
           (c.invert || c.context_given() ||
            (colors.enabled && (this->mode == Out::lines || this->mode == Out::only)));
  // grep's binary files, as search's (docs/cli.md, "Binary files"): a binary input's lines end at
  // NUL too in every form made of lines (a match never crosses a line end, so -q, -l and -L answer
  // on those lines too); --json and --count-matches take the bytes as they are; -I: no binary
  // input matches, in every form.
  check_binary = !c.null_data && !c.text && (line_modes || c.binary_skip);
}

void Run::search_input(io::Input& in, const std::string& display_name) {
  const std::string& name = in.is_standard_input() ? in.name() : display_name;
  InputRun s(*this, name);
  try {
    // Binary detection (binary.hpp) reads the head first: a binary input is streamed with NUL as
    // newline; a text file gets no other pass (its head is read again by the search).
    const bool regular = in.kind() == io::InputKind::regular && in.size() > 0;
    std::string head;
    std::unique_ptr<io::FdSource> stream;
    if (check_binary) {
      if (regular) {
        head = read_file_head(in, cfg, name);
      } else {
        // What a slow pipe has sent so far decides (as grep's first read does).
        stream = in.stream();
        head = io::read_up_to(*stream, cfg.binary_probe_bytes, true);
      }
      if (binary_head(head, cfg)) {
        if (cfg.binary_skip) {  // -I: never matches
          s.report(false, head.size());
          return input_done(0);
        }
        s.set_binary();
        nul_to_newline(head.data(), head.size());
        if (regular) stream = in.stream(head.size());
      }
    }
    if (stream) {
      // A binary input, or a stream whose head was read for the check: the head, then the rest.
      NulAsNewlineSource zapped(*stream);
      io::PrefixedSource source(std::move(head), s.binary() ? static_cast<ByteSource&>(zapped) : *stream);
      progress.start_file(name, in.size());
      s.search_stream(source, size_hint(in));
      ++streamed_files;
      s.report(false, stream->bytes_read());
      return input_done(s.results());
    }
    // The reading of `search` (docs/cli.md, "How a file is read"); the output always needs the text.
    const io::ReadMethod method = io::plan_read(in, policy, read_method, cfg.threads);
    if (io::is_mapping(method)) {
      progress.start_file(name, in.size());
      search_mapped(in, method, cfg.threads, name, [&](std::string_view text) { s.search_text(text); });
      s.report(true, in.size());
    } else if (method == io::ReadMethod::pread) {
      io::ParallelPreadSource source(in.fd(), in.size(), cfg.threads, name);
      progress.start_file(name, in.size());
      s.search_stream(source, size_hint(in));
      ++worker_read_files;
      s.report(false, source.bytes_read());
    } else {
      const auto source = in.stream();
      progress.start_file(name, in.size());
      s.search_stream(*source, size_hint(in));
      ++streamed_files;
      s.report(false, source->bytes_read());
    }
  } catch (const Error& e) {
    error(e.what());
  }
  input_done(s.results());
}

void Run::print_stats() {
  fmt::print(stderr,
             "strmatch: stats: {}; {} cells = {:.3f} GCUPS; {}; {} ({}); {} ({}..{} bytes); k {}, metric {}, "
             "mode {}; {}\n",
             stats_throughput(), total.cells, total.gcups(), stats_files(),
             plural(reported, print.result_word), task == Task::best ? "at the best distance" : "reported",
             plural(patterns.size(), "pattern"), shortest(), longest(), cfg.max_errors, cfg.metric, cfg.mode,
             stats_engine(std::max(max_threads, 1u)));
}

}  // namespace strmatch::cli::approximate

namespace strmatch::cli {

int run_approx_operands(const ApproxConfig& config, std::vector<std::string> patterns) {
  return run_operands<approximate::Run>(config, config, std::move(patterns));
}

}  // namespace strmatch::cli
