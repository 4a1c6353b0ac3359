// Input layer (include/strmatch/io.hpp): mappings, byte sources, the mmap-or-stream rule and the
// directory walk, with hand-written expectations.
#include "strmatch/io.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

namespace io = strmatch::io;
using strmatch::test::TempDir;

TEST(Io, MapsAFileAndAnEmptyFile) {
  TempDir dir;
  const std::string f = dir.write("a", std::string("ab\0cd", 5));
  const io::MappedFile m = io::MappedFile::open(f);
  EXPECT_EQ(m.size(), 5u);
  EXPECT_EQ(m.bytes(), std::string_view("ab\0cd", 5));
  const io::MappedFile e = io::MappedFile::open(dir.write("empty", ""));
  EXPECT_EQ(e.size(), 0u);
  EXPECT_TRUE(e.bytes().empty());
  io::MappedFile moved = io::MappedFile::open(f);
  io::MappedFile other = std::move(moved);
  EXPECT_EQ(other.bytes(), std::string_view("ab\0cd", 5));
  EXPECT_EQ(moved.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from mapping is empty
}

TEST(Io, ErrorsNameTheFile) {
  TempDir dir;
  try {
    (void)io::Input::open(dir.file("missing"));
    FAIL() << "no exception";
  } catch (const strmatch::IoError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("missing") + ": No such file or directory");
  }
  EXPECT_THROW((void)io::MappedFile::open(dir.path()), strmatch::IoError);  // a directory
  EXPECT_THROW((void)io::parse_map_policy("sometimes"), strmatch::InvalidArgument);
}

TEST(Io, OpenReadingReadsASmallFileWholeAndALargerOneItsHead) {
  TempDir dir;
  std::string buffer(16, '?');
  for (const std::size_t n : {0, 1, 15, 16, 17, 40}) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) text += static_cast<char>('a' + i % 26);
    const std::string path = dir.write("f" + std::to_string(n), text);
    std::size_t got = 99;
    const io::Input in = io::Input::open_reading(path, buffer, &got);
    EXPECT_EQ(got, std::min<std::size_t>(n, 16)) << n;
    EXPECT_EQ(in.kind(), io::InputKind::regular) << n;
    EXPECT_EQ(in.size(), n) << n;  // the whole file below 16 bytes; st_size from 16 on
    EXPECT_EQ(buffer.substr(0, got), text.substr(0, got)) << n;
    EXPECT_EQ(in.name(), path);
  }
  std::size_t got = 0;
  try {
    (void)io::Input::open_reading(dir.file("missing"), buffer, &got);
    FAIL() << "no exception";
  } catch (const strmatch::IoError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("missing") + ": No such file or directory");
  }
}

TEST(Io, InputKindsAndTheMapRule) {
  TempDir dir;
  const io::Input f = io::Input::open(dir.write("a", "12345"));
  EXPECT_EQ(f.kind(), io::InputKind::regular);
  EXPECT_EQ(f.size(), 5u);
  EXPECT_EQ(io::Input::open(dir.path()).kind(), io::InputKind::directory);
  EXPECT_EQ(io::Input::open("/dev/null").kind(), io::InputKind::other);

  const std::uint64_t gib = std::uint64_t{1} << 30;
  // auto: regular, non-empty, at most half of the memory.
  EXPECT_TRUE(io::should_map(true, 1, io::MapPolicy::automatic, 8 * gib));
  EXPECT_TRUE(io::should_map(true, 4 * gib, io::MapPolicy::automatic, 8 * gib));
  EXPECT_FALSE(io::should_map(true, 4 * gib + 1, io::MapPolicy::automatic, 8 * gib));
  EXPECT_FALSE(io::should_map(true, 0, io::MapPolicy::automatic, 8 * gib));
  EXPECT_FALSE(io::should_map(false, 10, io::MapPolicy::automatic, 8 * gib));
  // always: every non-empty regular file; never: nothing.
  EXPECT_TRUE(io::should_map(true, 100 * gib, io::MapPolicy::always, 8 * gib));
  EXPECT_FALSE(io::should_map(true, 0, io::MapPolicy::always, 8 * gib));
  EXPECT_FALSE(io::should_map(false, 10, io::MapPolicy::always, 8 * gib));
  EXPECT_FALSE(io::should_map(true, 10, io::MapPolicy::never, 8 * gib));
  EXPECT_GT(io::usable_memory_bytes(), 0u);
  EXPECT_EQ(io::parse_map_policy("auto"), io::MapPolicy::automatic);
  EXPECT_EQ(io::to_string(io::MapPolicy::never), "never");
}

TEST(Io, StreamsAFileInPiecesAfterAPeekedHead) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + ",";
  const io::Input in = io::Input::open(dir.write("a", text));
  const auto source = in.stream();
  const std::string head = io::read_up_to(*source, 100);
  EXPECT_EQ(head, text.substr(0, 100));
  io::PrefixedSource joined(head, *source);
  std::string back;
  std::uint8_t buf[37];
  for (std::size_t got; (got = joined.read(buf, sizeof buf)) != 0;)
    back.append(reinterpret_cast<char*>(buf), got);
  EXPECT_EQ(back, text);
  EXPECT_EQ(source->bytes_read(), text.size());
}

TEST(Io, ParallelPreadSourceReturnsTheFileInOrderWhateverTheSplit) {
  TempDir dir;
  std::mt19937_64 rng(strmatch::test::test_seed());
  std::string text(3 * (std::size_t{1} << 20) + 12345, '\0');
  for (auto& c : text) c = static_cast<char>(rng());
  const io::Input in = io::Input::open(dir.write("a", text));
  for (const unsigned threads : {1u, 2u, 3u, 7u}) {
    for (const std::size_t block :
         {std::size_t{4093}, std::size_t{65536}, std::size_t{300001}, std::size_t{2} << 20}) {
      io::ParallelPreadSource source(in.fd(), in.size(), threads, "a");
      std::string back;
      std::vector<std::uint8_t> buf(block);
      for (std::size_t got; (got = source.read(buf.data(), buf.size())) != 0;)
        back.append(reinterpret_cast<const char*>(buf.data()), got);
      ASSERT_EQ(back, text) << "threads " << threads << ", block " << block << strmatch::test::rerun_hint();
      EXPECT_EQ(source.bytes_read(), text.size());
    }
  }
}

TEST(Io, SourcesReportAFileThatShrinksAndStopAtTheSizeOfOneThatGrows) {
  TempDir dir;
  const std::string text(100000, 'x');
  const std::string path = dir.write("a", text);
  {
    const io::Input in = io::Input::open(path);
    ASSERT_EQ(::truncate(path.c_str(), 50000), 0);
    const auto source = in.stream();
    try {
      (void)io::read_up_to(*source, 1 << 20);
      FAIL() << "no exception";
    } catch (const strmatch::IoError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": file changed during the search");
    }
    io::ParallelPreadSource pread(in.fd(), in.size(), 4, path);
    try {
      (void)io::read_up_to(pread, 1 << 20);
      FAIL() << "no exception";
    } catch (const strmatch::IoError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": file changed during the search");
    }
  }
  strmatch::test::write_file(path, text);
  {
    const io::Input in = io::Input::open(path);
    strmatch::test::write_file(path, text + text);  // grows to twice its size at open
    const auto source = in.stream();
    EXPECT_EQ(io::read_up_to(*source, 1 << 20).size(), text.size());
    io::ParallelPreadSource pread(in.fd(), in.size(), 4, path);
    EXPECT_EQ(io::read_up_to(pread, 1 << 20).size(), text.size());
  }
}

TEST(Io, PopulatedMappingsHoldTheFile) {
  TempDir dir;
  std::string text(5 * (std::size_t{1} << 20) + 7, 'a');
  for (std::size_t i = 0; i < text.size(); i += 4093) text[i] = static_cast<char>('b' + i % 20);
  const io::Input in = io::Input::open(dir.write("a", text));
  const io::MappedFile kernel = in.map(io::MapPopulate::kernel);
  EXPECT_EQ(kernel.bytes(), text);
  const io::MappedFile lazy = in.map();
  for (const unsigned threads : {0u, 1u, 3u}) lazy.populate(threads);
  EXPECT_EQ(lazy.bytes(), text);
  EXPECT_EQ(io::parse_read_method("mmap-workers"), io::ReadMethod::mmap_workers);
  EXPECT_EQ(io::to_string(io::ReadMethod::pread), "pread");
  EXPECT_THROW((void)io::parse_read_method("async"), strmatch::InvalidArgument);
}

namespace walk_reference {
// The walk's order from std::filesystem: depth first, each directory's entries in byte order of
// their names, regular files only, links not followed, directories the filter skips left out.
void collect(const std::filesystem::path& dir, const io::WalkFilter* filter, std::vector<std::string>& out) {
  std::vector<std::filesystem::directory_entry> entries(std::filesystem::directory_iterator(dir), {});
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.path().filename().string() < b.path().filename().string();
  });
  for (const auto& e : entries) {
    const std::string name = e.path().filename().string();
    const auto st = e.symlink_status();
    if (std::filesystem::is_regular_file(st)) {
      if (filter == nullptr || !filter->skip_file(name, false)) out.push_back(e.path().string());
    } else if (std::filesystem::is_directory(st)) {
      if (filter == nullptr || !filter->skip_dir(name, false)) collect(e.path(), filter, out);
    }
  }
}
}  // namespace walk_reference

TEST(Io, WalkWithListersAheadMatchesTheReferenceOnRandomTrees) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 171);
  for (int round = 0; round < 4; ++round) {
    TempDir dir;
    const std::string root = dir.file("t");
    std::filesystem::create_directories(root);
    // A random tree: up to 4 levels, directories of 0..30 entries, names sharing prefixes.
    std::vector<std::pair<std::string, int>> todo{{root, 0}};
    const char* stems[] = {"a", "ab", "b", "x.c", "x.h", "Makefile", "z"};
    while (!todo.empty()) {
      auto [d, depth] = todo.back();
      todo.pop_back();
      const int n = static_cast<int>(rng() % 31);
      for (int i = 0; i < n; ++i) {
        const std::string name = std::string(stems[rng() % 7]) + std::to_string(rng() % 50);
        const std::string path = d + "/" + name;
        if (std::filesystem::exists(std::filesystem::symlink_status(path))) continue;
        const unsigned kind = static_cast<unsigned>(rng() % 10);
        if (kind < 2 && depth < 4) {
          std::filesystem::create_directory(path);
          todo.emplace_back(path, depth + 1);
        } else if (kind == 2) {
          std::filesystem::create_symlink(root, path);  // never followed
        } else {
          strmatch::test::write_file(path, "");
        }
      }
    }
    // A caller's filter: directories whose names start with "ab", files whose names hold ".h".
    struct Exclude final : io::WalkFilter {
      bool skip_file(const std::string& name, bool) const override {
        return name.find(".h") != std::string::npos;
      }
      bool skip_dir(const std::string& name, bool) const override { return name.starts_with("ab"); }
    } exclude;
    const std::vector<const io::WalkFilter*> filters{nullptr, &exclude};
    for (const io::WalkFilter* filter : filters) {
      std::vector<std::string> want;
      walk_reference::collect(root, filter, want);
      for (unsigned listers : {0u, 1u, 3u, 8u}) {
        std::vector<std::string> files, errors;
        const bool complete = io::walk_directory(
            root,
            [&](const std::string& p) {
              files.push_back(p);
              return true;
            },
            [&](const std::string& p, const std::string& why) { errors.push_back(p + ": " + why); }, filter,
            listers);
        ASSERT_TRUE(complete);
        ASSERT_EQ(files, want) << "round " << round << " listers " << listers << "; "
                               << strmatch::test::rerun_hint();
        ASSERT_TRUE(errors.empty());
        // Stopping at a random file: the same prefix, false returned, the listers joined.
        if (want.empty()) continue;
        const std::size_t stop_at = rng() % want.size();
        files.clear();
        EXPECT_FALSE(io::walk_directory(
            root,
            [&](const std::string& p) {
              files.push_back(p);
              return files.size() <= stop_at;
            },
            [](const std::string&, const std::string&) {}, filter, listers));
        EXPECT_EQ(files, std::vector<std::string>(want.begin(), want.begin() + stop_at + 1));
      }
    }
  }
}

/// Whether the file open as `fd` is the one at `path` (same device and inode).
bool same_file(int fd, const std::string& path) {
  struct stat a {
  }, b{};
  return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

TEST(Io, WalkHandsEveryFileWithItsDirectoryOpen) {
  TempDir dir;
  const std::string d = dir.file("t");
  std::filesystem::create_directories(d + "/b/c");
  for (const char* f : {"/a", "/b/y", "/b/c/x", "/b/c/x2", "/z"}) strmatch::test::write_file(d + f, f);
  for (unsigned listers : {0u, 2u}) {
    std::vector<std::string> files;
    ASSERT_TRUE(io::walk_directory(
        d,
        [&](const io::WalkedFile& f) {
          files.push_back(f.path);
          EXPECT_GE(f.dir_fd(), 0) << f.path;
          // The directory held open is the file's: its base name opens the file the path names,
          // through Input::open and Input::open_reading alike.
          const io::Input in = io::Input::open(f.path, f.dir_fd());
          EXPECT_TRUE(same_file(in.fd(), f.path)) << f.path;
          EXPECT_EQ(in.name(), f.path);
          std::string buffer(64, '?');
          std::size_t got = 0;
          const io::Input r = io::Input::open_reading(f.path, buffer, &got, f.dir_fd());
          EXPECT_EQ(buffer.substr(0, got), f.path.substr(d.size())) << f.path;  // each file holds its name
          return true;
        },
        [](const std::string& p, const std::string& why) { ADD_FAILURE() << p << ": " << why; }, nullptr,
        listers));
    EXPECT_EQ(files, (std::vector<std::string>{d + "/a", d + "/b/c/x", d + "/b/c/x2", d + "/b/y", d + "/z"}));
    EXPECT_EQ(io::OpenDirectory::held(), 0u) << "every directory closed after the walk";
  }
  // A name missing in the directory: the error names the path, as opening by path does.
  const std::shared_ptr<const io::OpenDirectory> open = io::OpenDirectory::open(nullptr, d + "/b", "");
  ASSERT_NE(open, nullptr);
  try {
    (void)io::Input::open(d + "/b/missing", open->fd());
    FAIL() << "no exception";
  } catch (const strmatch::IoError& e) {
    EXPECT_EQ(std::string(e.what()), d + "/b/missing: No such file or directory");
  }
  std::size_t got = 0;
  std::string buffer(8, '?');
  EXPECT_THROW((void)io::Input::open_reading(d + "/b/missing", buffer, &got, open->fd()), strmatch::IoError);
  // A child that is a symbolic link is not opened as a directory (the walk never follows one).
  std::filesystem::create_directory_symlink(d + "/b", d + "/link");
  EXPECT_EQ(io::OpenDirectory::open(open.get(), d + "/link", "link"), nullptr);
  const std::shared_ptr<const io::OpenDirectory> root = io::OpenDirectory::open(nullptr, d, "");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(io::OpenDirectory::open(root.get(), d + "/link", "link"), nullptr);
  const auto child = io::OpenDirectory::open(root.get(), d + "/b", "b");
  ASSERT_NE(child, nullptr);
  EXPECT_TRUE(same_file(child->fd(), d + "/b"));
}

TEST(Io, WalkDeeperThanTheOpenDirectoryCapOpensTheRestByPath) {
  // A chain of directories deeper than OpenDirectory::kMaxOpen, a file at every level: past the
  // cap the walk hands files without a directory (opened by path), every file still comes, in
  // order, and the process never holds more than the cap.
  TempDir dir;
  const unsigned depth = io::OpenDirectory::kMaxOpen + 20;
  std::string d = dir.file("t");
  std::vector<std::string> want;
  std::filesystem::create_directories(d);
  for (unsigned i = 0; i < depth; ++i) {
    want.push_back(d + "/a");  // before "d": each level's file before the level below
    strmatch::test::write_file(d + "/a", std::to_string(i));
    d += "/d";
    std::filesystem::create_directory(d);
  }
  std::vector<std::string> files;
  unsigned without = 0, most = 0;
  ASSERT_TRUE(io::walk_directory(
      dir.file("t"),
      [&](const io::WalkedFile& f) {
        files.push_back(f.path);
        most = std::max(most, io::OpenDirectory::held());
        if (f.dir_fd() < 0) ++without;
        const io::Input in = io::Input::open(f.path, f.dir_fd());
        EXPECT_TRUE(same_file(in.fd(), f.path)) << f.path;
        return true;
      },
      [](const std::string& p, const std::string& why) { ADD_FAILURE() << p << ": " << why; }));
  EXPECT_TRUE(files == want) << files.size() << " files, " << want.size() << " wanted";
  EXPECT_LE(most, io::OpenDirectory::kMaxOpen);
  EXPECT_GE(without, 20u);
  EXPECT_EQ(io::OpenDirectory::held(), 0u);
}

TEST(Io, WalkWithListersReportsAMissingDirectory) {
  TempDir dir;
  std::vector<std::string> errors;
  EXPECT_TRUE(io::walk_directory(
      dir.file("missing"), [](const std::string&) { return true; },
      [&](const std::string& p, const std::string& why) { errors.push_back(p + ": " + why); }, nullptr, 4));
  EXPECT_EQ(errors, std::vector<std::string>{dir.file("missing") + ": No such file or directory"});
}

TEST(Io, WalkListsRegularFilesInNameOrderWithoutFollowingLinks) {
  TempDir dir;
  const std::string d = dir.file("t");
  std::filesystem::create_directories(d + "/b/c");
  strmatch::test::write_file(d + "/z", "");
  strmatch::test::write_file(d + "/a", "");
  strmatch::test::write_file(d + "/b/c/x", "");
  strmatch::test::write_file(d + "/b/y", "");
  std::filesystem::create_symlink(d + "/a", d + "/b/link");
  std::filesystem::create_directory_symlink(d + "/b", d + "/dirlink");
  ASSERT_EQ(::mkfifo((d + "/fifo").c_str(), 0644), 0);
  std::vector<std::string> files, errors;
  const bool complete = io::walk_directory(
      d + "/",
      [&](const std::string& p) {
        files.push_back(p);
        return true;
      },
      [&](const std::string& p, const std::string& why) { errors.push_back(p + ": " + why); });
  EXPECT_TRUE(complete);
  EXPECT_EQ(files, (std::vector<std::string>{d + "/a", d + "/b/c/x", d + "/b/y", d + "/z"}));
  EXPECT_TRUE(errors.empty());
  // Stopping early.
  files.clear();
  EXPECT_FALSE(io::walk_directory(
      d,
      [&](const std::string& p) {
        files.push_back(p);
        return false;
      },
      [](const std::string&, const std::string&) {}));
  EXPECT_EQ(files, std::vector<std::string>{d + "/a"});
  // A missing directory is an error passed to on_error.
  errors.clear();
  io::walk_directory(
      d + "/missing", [](const std::string&) { return true; },
      [&](const std::string& p, const std::string& why) { errors.push_back(p + ": " + why); });
  EXPECT_EQ(errors, std::vector<std::string>{d + "/missing: No such file or directory"});
}
