// Internal: a region of code compiled for an instruction set above the build's baseline, for the
// kernels included once per SIMD level (approx/cpu/myers_lanes.hpp, myers_batch_lanes.hpp): GCC
// takes a target pragma for the included code; clang ignores it and takes an attribute on every
// function of the region instead (the fuzz build, fuzz/, compiles with clang).
//
//   STRMATCH_TARGET_BEGIN("avx2,bmi,bmi2,popcnt")
//   #include "approx/cpu/myers_lanes.hpp"
//   STRMATCH_TARGET_END
//
// The caller runs such code only where simd_level() (core/cpu/simd_level.hpp) allows it.
#pragma once

#define STRMATCH_TARGET_PRAGMA(...) _Pragma(#__VA_ARGS__)

#if defined(__clang__)
#define STRMATCH_TARGET_BEGIN(targets) \
  STRMATCH_TARGET_PRAGMA(clang attribute push(__attribute__((target(targets))), apply_to = function))
#define STRMATCH_TARGET_END STRMATCH_TARGET_PRAGMA(clang attribute pop)
#else
#define STRMATCH_TARGET_BEGIN(targets) \
  STRMATCH_TARGET_PRAGMA(GCC push_options) STRMATCH_TARGET_PRAGMA(GCC target(targets))
#define STRMATCH_TARGET_END STRMATCH_TARGET_PRAGMA(GCC pop_options)
#endif
