// Input layer: the parallel walk of recursive search (io::walk_parallel): one thread walks, workers
// open and search runs of files (in io_uring batches where asked), and each file's result is
// delivered in walk order by the thread that finished the front file.
#include <fcntl.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/env.hpp"
#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

/// Workers from which `auto` reads the parallel walk's small files in io_uring batches.
constexpr unsigned kBatchReadMinWorkers = 8;

/// Threads that list directories ahead of the walk (walk_directory's listers): one per 4 workers,
/// at most 4, none below 4 workers (STRMATCH_WALK_LISTERS overrides, in walk_directory).
unsigned walk_listers(unsigned workers) noexcept { return workers >= 4 ? std::min(workers / 4, 4u) : 0; }

/// The most a worker reads of a file while opening it (open_preread): a file of fewer bytes came whole.
constexpr std::size_t kPrereadBytes = static_cast<std::size_t>(kSmallFileBytes) + 1;

}  // namespace

unsigned default_walk_workers(unsigned hardware) noexcept {
  return hardware >= 8 ? (hardware * 5 + 4) / 8 : std::max(1u, hardware);
}

bool walk_batch_read_wanted(unsigned workers) {
  const std::optional<std::string> v = strmatch::env::choice_value("STRMATCH_IO_URING");
  if (v == "never") return false;
  if (v == "always") return true;
  return workers >= kBatchReadMinWorkers;
}

Input open_preread(const std::string& path, int dir_fd, std::string_view* whole) {
  // Not zero-filled (a std::string would write its 1 MiB on every thread): pages are touched only
  // as far as the files read into it reach.
  thread_local const std::unique_ptr<char[]> buffer(new char[kPrereadBytes]);
  std::size_t got = 0;
  Input in = Input::open_reading(path, std::span<char>(buffer.get(), kPrereadBytes), &got, dir_fd);
  *whole = got < kPrereadBytes ? std::string_view(buffer.get(), got) : std::string_view();
  return in;
}

ParallelWalkStats walk_parallel(const std::string& dir, const ParallelWalkOptions& options,
                                ParallelWalkVisitor& visitor) {
  // A worker takes runs of up to this many consecutive files, read in one batch by its BatchReader.
  constexpr std::uint64_t kMaxRun = BatchReader::kMaxFiles;
  struct Item {
    std::string path;
    std::optional<std::string> error;  // of the walk (an unreadable directory), or of the file
    std::optional<Input> deferred;     // a large file, for the delivering thread
    std::uint64_t size = 0;
    bool ready = false;
  };
  // Wake-ups cost more than the search of a small file (a futex call is 15-35 us under the 2-core
  // machine's hypervisor): the walker hands paths over in batches, the worker that finishes the
  // front file delivers every ready file (nobody waits to deliver), and the walker is woken only
  // when it waits for room. 220 futex calls for 2,184 files, against 13,618 with a printing thread.
  constexpr std::size_t kBatch = 32;
  const unsigned workers = std::max(1u, options.workers);
  const std::uint64_t window = 64ull * workers;  // files in flight: every worker busy
  // The delivery is serial: it must cost little per file. Items live in a ring of `window` slots,
  // item i in ring[i % window] from when the walker makes it until it is delivered, and their
  // strings are reused, not allocated and freed per file (an item made by the walker, filled by a
  // worker and freed by the delivering thread cost frees across threads' arenas).
  std::vector<Item> ring(static_cast<std::size_t>(window));
  const auto index_of = [&](std::uint64_t i) { return static_cast<std::size_t>(i % window); };
  const auto slot = [&](std::uint64_t i) -> Item& { return ring[index_of(i)]; };
  visitor.begin(ring.size());
  std::mutex mutex;
  std::condition_variable work_cv, room_cv;
  std::uint64_t produced = 0, taken = 0, delivered = 0;
  bool walk_done = false, stop = false, walker_waits = false;
  std::exception_ptr failure;
  ParallelWalkStats stats;
  const auto fail = [&](std::exception_ptr e) {  // with the lock held
    if (!failure) failure = std::move(e);
    stop = true;
    work_cv.notify_all();
    room_cv.notify_all();
  };

  // The walker's batch: paths and errors of the walk, their buffers swapped with the slots'.
  struct Found {
    std::string path;
    std::optional<std::string> error;
  };
  std::vector<Found> batch(kBatch);
  std::size_t batch_size = 0;
  auto hand_over = [&] {
    const std::uint64_t n = batch_size;
    batch_size = 0;
    if (n == 0) return true;
    std::uint64_t base = 0;
    {
      std::unique_lock lock(mutex);
      walker_waits = true;
      room_cv.wait(lock, [&] { return stop || produced + n - delivered <= window; });
      walker_waits = false;
      if (stop) return false;
      base = produced;
    }
    // Slots [base, base + n) are free (delivered) and only this thread writes them until produced
    // moves past them.
    for (std::uint64_t k = 0; k < n; ++k) {
      Item& item = slot(base + k);
      Found& f = batch[static_cast<std::size_t>(k)];
      std::swap(item.path, f.path);
      item.error = std::move(f.error);
      f.error.reset();
      item.ready = item.error.has_value();
    }
    std::lock_guard lock(mutex);
    produced += n;
    work_cv.notify_all();
    return true;
  };
  auto walker = [&] {
    try {
      walk_directory(
          dir,
          // By path: each worker opens the directories of its files itself (dir_fd_of, below).
          [&](const std::string& path) {
            batch[batch_size++].path.assign(path);
            return batch_size < kBatch || hand_over();
          },
          [&](const std::string& p, const std::string& reason) {
            if (batch_size == kBatch && !hand_over()) return;
            Found& f = batch[batch_size++];
            f.path.assign(p);
            f.error = p + ": " + reason;
          },
          options.filter, walk_listers(workers));
      hand_over();
    } catch (...) {
      std::lock_guard lock(mutex);
      fail(std::current_exception());
    }
    std::lock_guard lock(mutex);
    walk_done = true;
    work_cv.notify_all();
  };
  // Delivers the ready items at the front, in order; called with the lock held by the thread that
  // finished the front item.
  bool delivering = false;
  auto deliver_ready = [&](std::unique_lock<std::mutex>& lock) {
    delivering = true;
    while (!stop && delivered < produced && slot(delivered).ready) {
      std::uint64_t end = delivered;
      while (end < produced && slot(end).ready) ++end;
      const std::uint64_t first = delivered;
      lock.unlock();
      bool go_on = true;
      try {
        for (std::uint64_t i = first; i < end && go_on; ++i) {
          Item& item = slot(i);
          go_on = visitor.deliver(index_of(i), item.path, item.error ? &*item.error : nullptr,
                                  item.deferred ? &*item.deferred : nullptr, item.size);
        }
      } catch (...) {
        lock.lock();
        fail(std::current_exception());
        break;
      }
      // The delivered slots are emptied for reuse before they are handed back (nobody else reads
      // slots below `end` until `delivered` passes them).
      for (std::uint64_t i = first; i < end; ++i) {
        Item& item = slot(i);
        item.deferred.reset();
        item.error.reset();
        item.size = 0;
        item.ready = false;
      }
      lock.lock();
      delivered = end;
      if (walker_waits && produced - delivered <= window / 2) room_cv.notify_one();
      if (!go_on) stop = true;
    }
    delivering = false;
    if (stop) {
      work_cv.notify_all();
      room_cv.notify_all();
    }
  };
  auto worker = [&] {
    // Runs of up to kMaxRun consecutive files per lock (16 workers taking one file each per lock
    // contended more than they searched); marked ready under the lock that takes the next run.
    std::vector<Item*> done;
    std::uint64_t done_first = 0;  // the index of done.front()
    std::uint64_t batch_files = 0;
    std::string refusal;
    // The files of a run opened and read with one io_uring submission (batch_read): a file that
    // came whole is searched from the reader's buffer; a larger one, and one whose open or read
    // failed, is opened again with system calls (its error message as without io_uring).
    std::optional<BatchReader> reader;
    std::array<int, BatchReader::kMaxFiles> batch_dirs{};
    // The directories of a batch's files, held until its read returned (a run may span several:
    // each descriptor must stay open, and its number unused by another, until then).
    std::array<std::shared_ptr<const OpenDirectory>, BatchReader::kMaxFiles> batch_dir_held{};
    std::array<const char*, BatchReader::kMaxFiles> batch_paths{};
    std::array<std::int64_t, BatchReader::kMaxFiles> batch_got{};
    // Files are opened relative to their directory (one name looked up instead of every component
    // of the path), through a descriptor of that directory this worker opened itself and alone
    // uses: workers opening files through one shared descriptor all count references on its file
    // in the kernel (16-core host, -r on all threads: 0.055-0.060 s by path, 0.070-0.089 s through
    // the walk's shared descriptors). A worker's runs are consecutive files of the walk, mostly of
    // one directory: one more open per directory change.
    std::string dir_path;
    std::shared_ptr<const OpenDirectory> directory;
    const auto dir_fd_of = [&](const std::string& path) {
      const std::size_t slash = path.rfind('/');
      if (slash == std::string::npos) return -1;
      const std::string_view d(path.data(), slash == 0 ? 1 : slash);
      if (dir_path != d) {
        dir_path.assign(d);
        directory.reset();
        directory = OpenDirectory::open(nullptr, dir_path, {});
      }
      return directory ? directory->fd() : -1;
    };
    const auto open = [&](const std::string& path, std::string_view* whole) {
      if (!options.preread) return Input::open(path, dir_fd_of(path));
      Input in = open_preread(path, dir_fd_of(path), whole);
      return in;
    };
    std::unique_lock lock(mutex, std::defer_lock);
    try {
      if (options.batch_read && options.preread) {
        reader.emplace(kWalkBatchSlotBytes);
        if (!reader->usable()) {
          refusal = reader->reason();
          reader.reset();
        }
      }
      lock.lock();
      while (true) {
        if (!done.empty()) {
          for (Item* d : done) d->ready = true;
          if (!delivering && done_first == delivered) deliver_ready(lock);
          done.clear();
        }
        work_cv.wait(lock, [&] { return stop || taken < produced || walk_done; });
        if (stop || taken >= produced) break;
        const std::uint64_t run = std::clamp<std::uint64_t>((produced - taken) / workers, 1, kMaxRun);
        done_first = taken;
        for (std::uint64_t k = 0; k < run; ++k) done.push_back(&slot(taken + k));
        taken += run;
        lock.unlock();
        unsigned batched = 0;
        if (reader) {
          for (Item* item : done) {
            if (item->ready) continue;
            const int fd = dir_fd_of(item->path);
            batch_dir_held[batched] = directory;
            batch_dirs[batched] = fd >= 0 ? fd : AT_FDCWD;
            batch_paths[batched++] = item->path.c_str() + (fd >= 0 ? item->path.rfind('/') + 1 : 0);
          }
          if (!reader->read(std::span(batch_dirs.data(), batched), std::span(batch_paths.data(), batched),
                            std::span(batch_got.data(), batched))) {
            if (refusal.empty()) refusal = reader->reason();
            reader.reset();
          }
          for (unsigned k = 0; k < batched; ++k) batch_dir_held[k].reset();
        }
        unsigned b = 0;
        for (Item* item : done) {
          if (item->ready) continue;  // an error of the walk
          const std::int64_t got = b < batched ? batch_got[b] : -1;
          const unsigned index = b++;
          try {
            std::string_view whole;
            const bool batch_whole =
                reader && got >= 0 && static_cast<std::uint64_t>(got) < kWalkBatchSlotBytes;
            if (batch_whole) {
              whole = reader->bytes(index, static_cast<std::size_t>(got));
              ++batch_files;
            }
            Input in = batch_whole ? Input::without_descriptor(item->path, static_cast<std::uint64_t>(got))
                                   : open(item->path, &whole);
            item->size = in.size();
            if (in.kind() == InputKind::regular && in.size() > options.worker_max_bytes &&
                whole.data() == nullptr)
              item->deferred.emplace(std::move(in));
            else
              visitor.search(static_cast<std::size_t>(item - ring.data()), item->path, in,
                             whole.data() != nullptr ? &whole : nullptr);
          } catch (const Error& e) {
            item->error = e.what();
          }
        }
        lock.lock();
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      fail(std::current_exception());
    }
    stats.batch_read_files += batch_files;
    if (stats.batch_read_refusal.empty()) stats.batch_read_refusal = refusal;
  };

  std::vector<std::jthread> threads;
  const auto finish_threads = [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
      work_cv.notify_all();
      room_cv.notify_all();
    }
    threads.clear();  // joins
  };
  try {
    threads.emplace_back(walker);
    for (unsigned i = 1; i < workers; ++i) threads.emplace_back(worker);
  } catch (...) {  // a thread that cannot be started
    finish_threads();
    throw;
  }
  worker();         // this thread works too
  threads.clear();  // the walker and the workers end once every file was taken
  {
    std::unique_lock lock(mutex);
    if (!delivering && !stop) deliver_ready(lock);  // what the last workers left
  }
  finish_threads();
  if (failure) std::rethrow_exception(failure);
  return stats;
}

}  // namespace strmatch::io
