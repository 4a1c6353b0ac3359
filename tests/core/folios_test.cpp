// The input layer's whole-folio check (io::whole_folios_mapped, src/core/io/folios.hpp): the FilePmdMapped
// field of one mapping read from /proc/self/smaps text, on hand-written text; the check itself (its answer
// depends on the kernel and the page cache: that it leaves nothing mapped is asserted); and `auto` on 4
// threads mapping a large file exactly when the check finds its folios whole, with the right count.
#include "core/io/folios.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "cli/cli_support.hpp"
#include "strmatch/io.hpp"

namespace {

using strmatch::detail::smaps_file_pmd_kb;

const char* const kSmaps =
    "55d0c0a00000-55d0c0c00000 r--p 00000000 08:01 1311 /usr/bin/x\n"
    "Size:               2048 kB\n"
    "FilePmdMapped:         0 kB\n"
    "VmFlags: rd mr mw me\n"
    "7f2a40000000-7f2a40200000 r--p 00000000 103:02 99 /data/linux-6.1.tar\n"
    "Size:               2048 kB\n"
    "Rss:                2048 kB\n"
    "AnonHugePages:         0 kB\n"
    "FilePmdMapped:      2048 kB\n"
    "Locked:                0 kB\n"
    "VmFlags: rd mr mw me\n"
    "7f2a40200000-7f2a40400000 ---p 00000000 00:00 0\n"
    "Size:               2048 kB\n"
    "VmFlags: mr mw me\n";

TEST(IoFolios, ReadsTheFieldOfTheMappingThatStartsThere) {
  EXPECT_EQ(smaps_file_pmd_kb(kSmaps, 0x7f2a40000000u), 2048u);
  EXPECT_EQ(smaps_file_pmd_kb(kSmaps, 0x55d0c0a00000u), 0u);
}

TEST(IoFolios, NoMappingThereOrNoFieldIsNothing) {
  EXPECT_FALSE(smaps_file_pmd_kb(kSmaps, 0x7f2a40100000u));  // inside a mapping, not its start
  EXPECT_FALSE(smaps_file_pmd_kb(kSmaps, 0x7f2a40200000u));  // the last mapping has no such field
  EXPECT_FALSE(smaps_file_pmd_kb(kSmaps, 0x40000000u));      // a start that is a suffix of another
  EXPECT_FALSE(smaps_file_pmd_kb("", 0x1000u));
  // The field of the next mapping is not taken for one without it.
  EXPECT_FALSE(smaps_file_pmd_kb(
      "1000-2000 r--p 0 0:0 0\nSize: 4 kB\n3000-4000 r--p 0 0:0 0\nFilePmdMapped: 8 kB\n", 0x1000u));
  EXPECT_EQ(smaps_file_pmd_kb(
                "1000-2000 r--p 0 0:0 0\nSize: 4 kB\n3000-4000 r--p 0 0:0 0\nFilePmdMapped: 8 kB\n", 0x3000u),
            8u);
}

TEST(IoFolios, TheCheckAnswersAndUnmapsWhatItMapped) {
  strmatch::test::TempDir dir;
  const std::string path = dir.write("f", std::string(std::size_t{5} << 20, 'x'));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  // No mapping of the file is left (counting every mapping would not do: a sanitizer's allocator
  // maps memory of its own as the check allocates).
  auto mapped = [&path] {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
      if (line.find(path) != std::string::npos) return true;
    return false;
  };
  (void)strmatch::io::whole_folios_mapped(fd, std::uint64_t{5} << 20);
  EXPECT_FALSE(mapped());
  EXPECT_FALSE(strmatch::io::whole_folios_mapped(fd, std::uint64_t{1} << 20));  // below 4 MiB: not asked
  ::close(fd);
}

TEST(CliFolios, AutoMapsPiecesOnFourThreadsExactlyWhenTheFoliosAreWhole) {
  // A 24 MiB file (pieces: at least 8 MiB) with a known count; written, then dropped from the page
  // cache (POSIX_FADV_DONTNEED after fsync) and read back, which caches it in large folios where
  // the kernel and the file system do (else small ones: then it is read by pread).
  strmatch::test::TempDir dir;
  std::string text;
  std::size_t count = 0;
  for (std::size_t i = 0; text.size() < (std::size_t{24} << 20); ++i) {
    const bool hit = i % 1000 == 7;
    text += hit ? "a needle in a line\n" : "hay hay hay hay hay hay hay hay hay hay\n";
    count += hit ? 1 : 0;
  }
  const std::string path = dir.write("big", text);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  (void)::fdatasync(fd);
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  std::string buf(1 << 20, '\0');
  while (::read(fd, buf.data(), buf.size()) > 0) {
  }
  const bool whole = strmatch::io::whole_folios_mapped(fd, text.size());
  ::close(fd);
  const auto r = strmatch::test::run_cli({"search", "-c", "-j", "4", "--stats", "needle", path}, dir);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::to_string(count) + "\n");
  EXPECT_TRUE(strmatch::test::contains(r.err, whole ? "1 file (1 mapped, 0 streamed, 0 read by the workers)"
                                                    : "1 file (0 mapped, 0 streamed, 1 read by the workers)"))
      << "folios whole: " << whole << "; " << r.err;
}

}  // namespace
