// strmatch: streamed pattern-set search. Everything it declared now lives in multi.hpp
// (PatternSet::find_all(ByteSource&, ...)) and types.hpp (the block types); kept so that existing
// includes keep compiling.
#pragma once

#include "strmatch/multi.hpp"
