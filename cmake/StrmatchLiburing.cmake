# liburing (Debian/Ubuntu: liburing-dev), an OPTIONAL dependency of the CLI (its -r walk reads small
# files in io_uring batches: apps/cli/batch_read.hpp) and of bench/cli's strmatch_tree_read_uring.
# Defines the imported target strmatch::liburing and STRMATCH_LIBURING_FOUND; without liburing the
# CLI reads with system calls and that benchmark tool is not built.
#
# Searched: the system, then each directory in STRMATCH_LIBURING_HINTS (prefixes with include/ and
# lib/: scripts/device.sh passes the device carry's static copy, made by scripts/make_device_carry.sh
# cli, since the device host has no liburing). STRMATCH_LIBURING=OFF builds without it.
option(STRMATCH_LIBURING "Use liburing where it is found (the CLI's -r reads through io_uring)" ON)
if(TARGET strmatch::liburing)
  set(STRMATCH_LIBURING_FOUND TRUE)
  return()
endif()
set(STRMATCH_LIBURING_FOUND FALSE)
if(NOT STRMATCH_LIBURING)
  return()
endif()
# Each hint prefix's include/ and lib/ (PATH_SUFFIXES), after the system's directories (PATHS).
find_path(STRMATCH_LIBURING_INCLUDE_DIR liburing.h PATHS ${STRMATCH_LIBURING_HINTS} PATH_SUFFIXES include)
find_library(STRMATCH_LIBURING_LIBRARY uring PATHS ${STRMATCH_LIBURING_HINTS} PATH_SUFFIXES lib)
if(STRMATCH_LIBURING_INCLUDE_DIR AND STRMATCH_LIBURING_LIBRARY)
  add_library(strmatch::liburing INTERFACE IMPORTED)
  set_target_properties(strmatch::liburing PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STRMATCH_LIBURING_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${STRMATCH_LIBURING_LIBRARY}")
  set(STRMATCH_LIBURING_FOUND TRUE)
  message(STATUS "strmatch: liburing ${STRMATCH_LIBURING_LIBRARY}: the CLI's -r reads through io_uring")
else()
  message(STATUS "strmatch: no liburing (liburing-dev): the CLI's -r reads with system calls")
endif()
