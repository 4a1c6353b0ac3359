# libdivsufsort (Debian/Ubuntu: libdivsufsort-dev), the CPU suffix-array construction of the
# common-substring problem: a REQUIRED dependency of the library. Defines the imported target
# strmatch::divsufsort (divsufsort.h, divsufsort64.h; libdivsufsort and libdivsufsort64: the 32-bit
# and 64-bit index builds). Included by the root CMakeLists.txt and by the installed
# strmatchConfig.cmake (so that consumers of a static libstrmatch link it too).
#
# Searched: the system, then each directory in STRMATCH_DIVSUFSORT_HINTS (a list of prefixes with
# include/ and lib/; the root CMakeLists.txt adds the device carry's copy,
# .carry/gpu/peers/divsufsort, made by scripts/make_device_carry.sh for the device host, which has no
# package registry). Binaries built in the build tree find a library outside the system directories
# through their build RPATH (CMake's default); elsewhere set LD_LIBRARY_PATH to its lib/ folder.
# With STRMATCH_DIVSUFSORT_QUIET set (the package config), a missing library sets
# STRMATCH_DIVSUFSORT_FOUND to FALSE instead of stopping with an error.
if(TARGET strmatch::divsufsort)
  set(STRMATCH_DIVSUFSORT_FOUND TRUE)
  return()
endif()

# Each hint prefix's include/ and lib/ (PATH_SUFFIXES), after the system's directories (PATHS).
find_path(STRMATCH_DIVSUFSORT_INCLUDE_DIR divsufsort.h PATHS ${STRMATCH_DIVSUFSORT_HINTS} PATH_SUFFIXES include)
find_path(STRMATCH_DIVSUFSORT64_INCLUDE_DIR divsufsort64.h PATHS ${STRMATCH_DIVSUFSORT_HINTS} PATH_SUFFIXES include)
find_library(STRMATCH_DIVSUFSORT_LIBRARY divsufsort PATHS ${STRMATCH_DIVSUFSORT_HINTS} PATH_SUFFIXES lib)
find_library(STRMATCH_DIVSUFSORT64_LIBRARY divsufsort64 PATHS ${STRMATCH_DIVSUFSORT_HINTS} PATH_SUFFIXES lib)

if(NOT STRMATCH_DIVSUFSORT_INCLUDE_DIR OR NOT STRMATCH_DIVSUFSORT64_INCLUDE_DIR
   OR NOT STRMATCH_DIVSUFSORT_LIBRARY OR NOT STRMATCH_DIVSUFSORT64_LIBRARY)
  set(STRMATCH_DIVSUFSORT_FOUND FALSE)
  if(STRMATCH_DIVSUFSORT_QUIET)
    return()
  endif()
  message(FATAL_ERROR
    "strmatch needs libdivsufsort (divsufsort.h, divsufsort64.h, libdivsufsort, libdivsufsort64) for "
    "its suffix-array algorithm, and it was not found (header: '${STRMATCH_DIVSUFSORT_INCLUDE_DIR}', "
    "library: '${STRMATCH_DIVSUFSORT_LIBRARY}', 64-bit library: '${STRMATCH_DIVSUFSORT64_LIBRARY}'). "
    "Install the Debian/Ubuntu package libdivsufsort-dev (scripts/install_deps.sh does), or point "
    "STRMATCH_DIVSUFSORT_HINTS at a prefix holding include/ and lib/ with them.")
endif()

add_library(strmatch::divsufsort INTERFACE IMPORTED)
set_target_properties(strmatch::divsufsort PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${STRMATCH_DIVSUFSORT_INCLUDE_DIR};${STRMATCH_DIVSUFSORT64_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${STRMATCH_DIVSUFSORT_LIBRARY};${STRMATCH_DIVSUFSORT64_LIBRARY}")
set(STRMATCH_DIVSUFSORT_FOUND TRUE)
