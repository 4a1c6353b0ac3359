// Internal: one block of one column of Myers' bit-vector DP, shared by the tracebacks' passes
// (traceback.cpp) and pigeonhole-batch's window verifier (cpu/pigeonhole_batch.cpp).
#pragma once

#include <cstdint>

namespace strmatch::detail {

/// One block of 64 rows of one column of Myers' DP (G. Myers, "A fast bit-vector algorithm for
/// approximate string matching based on dynamic programming", J. ACM 1999; blocks linked by the
/// horizontal delta at their boundary: H. Hyyro, "A bit-vector algorithm for computing Levenshtein
/// and Damerau edit distances", 2003). v = {Pv, Mv} of the block (updated), eq its match word for
/// the text byte; hp/hn carry the horizontal delta (+1/-1, bit 0) into its top row and out of its
/// last (bit 63); ph/mh are set to its horizontal deltas (a row r's is bit r - 1: the pattern's last
/// row is read from the last block's). O(1): about 17 word operations.
inline void myers_step(std::uint64_t* v, std::uint64_t eq, std::uint64_t& hp, std::uint64_t& hn,
                       std::uint64_t& ph, std::uint64_t& mh) {
  const std::uint64_t Pv = v[0], Mv = v[1];
  const std::uint64_t Eq = eq | hn;
  const std::uint64_t Xv = eq | Mv;
  const std::uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
  ph = Mv | ~(Xh | Pv);
  mh = Pv & Xh;
  const std::uint64_t Phs = (ph << 1) | hp;
  const std::uint64_t Mhs = (mh << 1) | hn;
  hp = ph >> 63;
  hn = mh >> 63;
  v[0] = Mhs | ~(Xv | Phs);
  v[1] = Phs & Xv;
}

}  // namespace strmatch::detail
